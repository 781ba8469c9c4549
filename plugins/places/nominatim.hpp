// nominatim — Nominatim's jsonv2 answers (https://nominatim.org/release-docs/latest/api/Output/)
// read into the places service's place objects, and the paths that ask for them. No I/O.
//
// A place: {name, display_name, lat, lon, category, type, importance, address: {...},
// bbox: {south, north, west, east}, osm: "way/123"}; members Nominatim did not send are left out
// (lat, lon and display_name are always there: a body without them is malformed).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace places {

// What every answer from OpenStreetMap data carries (ODbL 1.0 asks for it).
inline constexpr const char* kAttribution = "Data © OpenStreetMap contributors, ODbL 1.0";

struct Point {
    double lat = 0, lon = 0;
};

// Great-circle distance in metres (haversine, mean Earth radius 6371008.8 m).
double distance_m(Point a, Point b);

// One element of a jsonv2 search answer, or a reverse answer, as a place (Malformed when lat, lon
// or display_name is missing or unreadable).
nlohmann::json place_from(const nlohmann::json& j);
// The place's coordinates (place_from's output).
Point point_of(const nlohmann::json& place);

// /search: an array of places (empty when nothing matched); Malformed when not an array.
nlohmann::json parse_search(const nlohmann::json& body);
// /reverse: the place, or nullopt for {"error": "Unable to geocode"}; Malformed otherwise.
std::optional<nlohmann::json> parse_reverse(const nlohmann::json& body);

// "/search?q=...&format=jsonv2&addressdetails=1&limit=N", bounded to the square around `near`
// of half-side `radius_m` when given (viewbox=west,north,east,south&bounded=1).
std::string search_path(const std::string& q, int limit, const std::optional<Point>& near = {},
                        double radius_m = 0);
// "/reverse?lat=..&lon=..&format=jsonv2&addressdetails=1".
std::string reverse_path(Point p);

}  // namespace places
