// maps — Ordnance Survey map tiles of Great Britain (the catalogue's `maps` service; README.md):
//
//   tile        GET {z*, x*, y* (0-20 and 0..2^z-1), style = road|outdoor|light}
//               -> {z, x, y, style, url, bounds, bytes, cached, attribution}: fetches the tile
//               once (kept for ever) and answers our own URL serving it
//   area        GET {north*, south*, east*, west*, zoom* (0-20), style}
//               -> {zoom, style, box, clipped, columns, rows, count, held, tiles: [{x, y, url,
//               held}]} row by row from the north-west; at most kMaxAreaTiles tiles; fetches
//               nothing
//   tile_image  GET /maps/tiles/{style}/{z}/{x}/{y}: the PNG itself (not an MCP tool)
//
// Britain only: a tile (or box) that does not overlap kBritain (tiles.hpp) is a 400 naming the
// rule. Tile arithmetic in tiles.hpp. Upstream: OS Maps API raster ZXY, keyed (provider os-maps).
#pragma once

#include <common/upstream/upstream.hpp>
#include <platform/sdk.hpp>
#include <string>

#include "tiles.hpp"

class Maps {
public:
    static void describe(platform::ServiceSpec<Maps>& s);
    explicit Maps(const platform::Host& host) : host_(host) {}

    platform::json tile(platform::Request& r);
    platform::json area(platform::Request& r);
    void tile_image(platform::Request& r, platform::Responder out);

    static constexpr int64_t kMaxAreaTiles = 256;

    // OS Maps API raster ZXY (https://api.os.uk/maps/raster/v1/zxy/...): needs a project key,
    // which the host places as the operator's api_key_header says ("?key").
    static const common::upstream::Provider kOsMaps;

    // "Road_3857" for "road" and so on.
    static std::string layer_of(const std::string& style);
    // The upstream path of a tile: "/maps/raster/v1/zxy/Road_3857/10/511/340.png".
    static std::string upstream_path(const std::string& style, const maps::Tile& t);
    // Our own URL serving the tile: "/maps/tiles/road/10/511/340".
    static std::string url_of(const std::string& style, const maps::Tile& t);

private:
    // z, x, y from the arguments, checked: x and y below 2^z, the tile overlapping Britain (400
    // naming the rule otherwise).
    static maps::Tile checked_tile(const platform::Request& r);
    // The tile's PNG bytes, from the cache or fetched once (502 when the body is not a PNG).
    common::upstream::Answer png(const std::string& style, const maps::Tile& t) const;

    platform::Host host_;
};
