#include "tiles.hpp"

#include <algorithm>
#include <cmath>

namespace maps {

namespace {

constexpr double kPi = 3.14159265358979323846;

// The fractional column and row of a point at zoom z (0 .. 2^z).
double column_of(double lon, int z) {
    return (lon + 180.0) / 360.0 * static_cast<double>(tiles_across(z));
}
double row_of(double lat, int z) {
    lat = std::clamp(lat, -kMaxLatitude, kMaxLatitude);
    const double r = lat * kPi / 180.0;
    return (1.0 - std::log(std::tan(r) + 1.0 / std::cos(r)) / kPi) / 2.0 *
           static_cast<double>(tiles_across(z));
}
int64_t clamp_index(double v, int z) {
    return std::clamp<int64_t>(static_cast<int64_t>(std::floor(v)), 0, tiles_across(z) - 1);
}
// A box's edges come back from degrees with rounding errors far below this fraction of a tile:
// an edge this close to a tile edge is on it.
constexpr double kEdge = 1e-9;
// The first index whose tile reaches past `v`, and the last whose tile starts before it (a box
// edge on a tile edge takes neither neighbour).
int64_t first_index(double v, int z) {
    return clamp_index(v + kEdge, z);
}
int64_t last_index(double v, int z) {
    return std::clamp<int64_t>(static_cast<int64_t>(std::ceil(v - kEdge)) - 1, 0,
                               tiles_across(z) - 1);
}
double latitude_of_row(double y, int z) {
    const double n = kPi * (1.0 - 2.0 * y / static_cast<double>(tiles_across(z)));
    return std::atan(std::sinh(n)) * 180.0 / kPi;
}

}  // namespace

int64_t tiles_across(int z) {
    return int64_t{1} << z;
}

Tile tile_at(double lat, double lon, int z) {
    return {z, clamp_index(column_of(lon, z), z), clamp_index(row_of(lat, z), z)};
}

Box bounds(const Tile& t) {
    const double n = static_cast<double>(tiles_across(t.z));
    Box b;
    b.west = static_cast<double>(t.x) / n * 360.0 - 180.0;
    b.east = static_cast<double>(t.x + 1) / n * 360.0 - 180.0;
    b.north = latitude_of_row(static_cast<double>(t.y), t.z);
    b.south = latitude_of_row(static_cast<double>(t.y + 1), t.z);
    return b;
}

bool overlaps(const Box& a, const Box& b) {
    return a.west < b.east && b.west < a.east && a.south < b.north && b.south < a.north;
}

Box clip(const Box& box, const Box& within) {
    return {std::min(box.north, within.north), std::max(box.south, within.south),
            std::min(box.east, within.east), std::max(box.west, within.west)};
}

Range covering(const Box& box, int z) {
    Range r;
    r.z = z;
    r.x_min = first_index(column_of(box.west, z), z);
    r.x_max = std::max(r.x_min, last_index(column_of(box.east, z), z));
    r.y_min = first_index(row_of(box.north, z), z);
    r.y_max = std::max(r.y_min, last_index(row_of(box.south, z), z));
    return r;
}

}  // namespace maps
