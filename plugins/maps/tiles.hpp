// tiles — Web Mercator (EPSG:3857) tile arithmetic, the OpenStreetMap "slippy map" scheme that
// Ordnance Survey's ZXY API follows: at zoom z the world is 2^z by 2^z tiles, x counted east from
// longitude -180, y counted south from latitude +85.0511287798066 (the latitude where the square
// projection ends). No I/O; unit-tested exactly against known tiles (tests/unit/maps/).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace maps {

inline constexpr int kMaxZoom = 20;
inline constexpr double kMaxLatitude = 85.0511287798066;  // atan(sinh(pi)) in degrees

struct Tile {
    int z = 0;
    int64_t x = 0, y = 0;
};

// A latitude/longitude box in degrees.
struct Box {
    double north = 0, south = 0, east = 0, west = 0;
};

// Great Britain's bounding box, the only area OS Maps tiles are asked for: longitude -8.82 to
// 1.92, latitude 49.79 to 60.94 (the Isles of Scilly to Shetland, St Kilda to Lowestoft).
inline constexpr Box kBritain{60.94, 49.79, 1.92, -8.82};

// 2^z, the tiles along each side at zoom z (0..kMaxZoom).
int64_t tiles_across(int z);

// The tile holding the point (latitude clamped to +-kMaxLatitude; a point on a tile's west or
// north edge is in that tile; longitude 180 is in the last column).
Tile tile_at(double lat, double lon, int z);

// The tile's edges in degrees.
Box bounds(const Tile& t);

// Whether the two boxes overlap with some area (touching edges do not count).
bool overlaps(const Box& a, const Box& b);

// `box` cut to `within`; only meaningful when they overlap.
Box clip(const Box& box, const Box& within);

// The tiles covering `box` at zoom z: the first and last column (west to east) and row (north to
// south). A box edge lying exactly on a tile edge does not pull in the tile beyond it.
struct Range {
    int z = 0;
    int64_t x_min = 0, x_max = 0, y_min = 0, y_max = 0;
    int64_t columns() const { return x_max - x_min + 1; }
    int64_t rows() const { return y_max - y_min + 1; }
    int64_t count() const { return columns() * rows(); }
};
Range covering(const Box& box, int z);

}  // namespace maps
