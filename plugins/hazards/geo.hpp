// geo.hpp — great-circle distances and the optional point (lat, lon, within_km) the hazards
// methods share.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <platform/sdk.hpp>

namespace hazards {

// Kilometres between two points on a sphere of the Earth's mean radius (haversine).
inline double distance_km(double lat1, double lon1, double lat2, double lon2) {
    constexpr double kRadiusKm = 6371.0088, kRad = M_PI / 180.0;
    const double dlat = (lat2 - lat1) * kRad, dlon = (lon2 - lon1) * kRad;
    const double a =
        std::sin(dlat / 2) * std::sin(dlat / 2) +
        std::cos(lat1 * kRad) * std::cos(lat2 * kRad) * std::sin(dlon / 2) * std::sin(dlon / 2);
    return 2 * kRadiusKm * std::asin(std::min(1.0, std::sqrt(a)));
}

// A point and the radius around it that results must fall within.
struct Near {
    double lat = 0, lon = 0, within_km = 0;
};

// Distances in answers: to 0.1 km.
inline double round_km(double km) {
    return std::round(km * 10) / 10;
}

// The point of a request's lat, lon and within_km (`default_km` when within_km is absent), or none
// without lat and lon. 400 when only one of lat and lon is given, or within_km without them.
std::optional<Near> near_of(const platform::Request& r, double default_km);

}  // namespace hazards
