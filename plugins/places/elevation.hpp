// elevation — Open-Meteo's Elevation API (https://open-meteo.com/en/docs/elevation-api), which
// answers from the Copernicus DEM GLO-90 (90-metre cells): the path for one point and its answer
// read. No I/O.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "nominatim.hpp"

namespace places {

inline constexpr double kMetresPerFoot = 0.3048;

// "/v1/elevation?latitude=..&longitude=..".
std::string elevation_path(Point p);

// {"elevation": [38.0]} -> 38.0; Malformed when the array is missing, empty or not a number.
double parse_elevation(const nlohmann::json& body);

// Metres as feet, to 0.1 ft; metres themselves to 0.1 m.
double feet_of(double metres);
double tenths(double v);

}  // namespace places
