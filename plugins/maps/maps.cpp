#include "maps.hpp"

#include <cstdio>
#include <ctime>

namespace schema = platform::schema;

using common::upstream::Upstream;
using platform::json;

const common::upstream::Provider Maps::kOsMaps{"os-maps", "OS Maps API", "https://api.os.uk",
                                               common::upstream::kForever, true};

namespace {

// OS's required attribution, with the current year.
std::string attribution(int64_t now_ms) {
    const time_t t = static_cast<time_t>(now_ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    return "Contains OS data © Crown copyright and database rights " +
           std::to_string(tm.tm_year + 1900);
}

schema::Value style() {
    return schema::string()
        .one_of({"road", "outdoor", "light"})
        .def("road")
        .doc("Map style: road, outdoor or light (OS Road_3857, Outdoor_3857, Light_3857)");
}

schema::Object tile_schema() {
    return schema::object()
        .integer("z")
        .range(0, maps::kMaxZoom)
        .required()
        .doc("Zoom level, 0-20")
        .integer("x")
        .min(0)
        .required()
        .doc("Column, 0 to 2^z - 1, counted east from longitude -180")
        .integer("y")
        .min(0)
        .required()
        .doc("Row, 0 to 2^z - 1, counted south from latitude 85.05")
        .prop("style", style());
}

// "-8.82" style: degrees with at most 6 decimals, trailing zeros dropped.
std::string degrees(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f", v);
    std::string s = buf;
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s == "-0" ? "0" : s;
}

json box_json(const maps::Box& b) {
    return {{"north", b.north}, {"south", b.south}, {"east", b.east}, {"west", b.west}};
}

std::string britain_rule() {
    const maps::Box& g = maps::kBritain;
    return "OS Maps tiles cover Great Britain only (longitude " + degrees(g.west) + " to " +
           degrees(g.east) + ", latitude " + degrees(g.south) + " to " + degrees(g.north) + ")";
}

}  // namespace

void Maps::describe(platform::ServiceSpec<Maps>& s) {
    s.id("maps").version("1.0.0").service("v1.maps").summary(
        "Ordnance Survey map tiles of Great Britain (road, outdoor, light), fetched once and kept");
    s.get("tile")
        .title("One map tile")
        .description(
            "The URL of one OS map tile of Great Britain in the Web Mercator ZXY scheme (free). "
            "The tile is fetched from the OS Maps API the first time and kept; the URL, on this "
            "platform, serves its PNG. A tile outside Great Britain (longitude -8.82 to 1.92, "
            "latitude 49.79 to 60.94) is a 400. Answers {z, x, y, style, url, bounds: {north, "
            "south, east, west} (degrees), bytes, cached (whether it was already held), "
            "attribution}.")
        .schema(tile_schema())
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Maps::tile);
    s.get("area")
        .title("Map tiles covering a box")
        .description(
            "The URLs of the OS map tiles covering a latitude/longitude box at one zoom, row by "
            "row from the north-west, and how many are already held (a held tile is served "
            "without asking OS again). Fetches nothing itself: a tile URL fetches its tile when "
            "first read. The box is cut to Great Britain (longitude -8.82 to 1.92, latitude "
            "49.79 to 60.94; a box outside it is a 400) and may cover at most 256 tiles. Answers "
            "{zoom, style, box (as cut), clipped, columns, rows, count, held, tiles: [{x, y, url, "
            "held}]}.")
        .schema(schema::object()
                    .prop("north", schema::latitude("Northern edge, degrees"))
                    .required()
                    .prop("south", schema::latitude("Southern edge, degrees"))
                    .required()
                    .prop("east", schema::longitude("Eastern edge, degrees"))
                    .required()
                    .prop("west", schema::longitude("Western edge, degrees"))
                    .required()
                    .integer("zoom")
                    .range(0, maps::kMaxZoom)
                    .required()
                    .doc("Zoom level, 0-20")
                    .prop("style", style()))
        .access(platform::Access::public_)
        .read_only()
        .handler(&Maps::area);
    s.get("tile_image")
        .title("A map tile's image")
        .description(
            "The PNG of one OS map tile of Great Britain (GET /maps/tiles/<style>/<z>/<x>/<y>), "
            "from the cache, or fetched once from the OS Maps API and kept.")
        .schema(tile_schema())
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .http_path("/maps/tiles/{style}/{z}/{x}/{y}")
        .mcp_hidden()
        .async(&Maps::tile_image);
}

std::string Maps::layer_of(const std::string& style) {
    if (style == "outdoor") return "Outdoor_3857";
    if (style == "light") return "Light_3857";
    return "Road_3857";
}

std::string Maps::upstream_path(const std::string& style, const maps::Tile& t) {
    return "/maps/raster/v1/zxy/" + layer_of(style) + "/" + std::to_string(t.z) + "/" +
           std::to_string(t.x) + "/" + std::to_string(t.y) + ".png";
}

std::string Maps::url_of(const std::string& style, const maps::Tile& t) {
    return "/maps/tiles/" + style + "/" + std::to_string(t.z) + "/" + std::to_string(t.x) + "/" +
           std::to_string(t.y);
}

maps::Tile Maps::checked_tile(const platform::Request& r) {
    maps::Tile t;
    t.z = static_cast<int>(r.integer("z"));
    t.x = r.integer("x");
    t.y = r.integer("y");
    const int64_t n = maps::tiles_across(t.z);
    for (const auto& [name, v] : {std::pair{"x", t.x}, std::pair{"y", t.y}})
        if (v >= n)
            throw platform::invalid_argument(std::string(name) + ": must be below " +
                                             std::to_string(n) + " at zoom " + std::to_string(t.z) +
                                             " (2^z tiles across)");
    if (!maps::overlaps(maps::bounds(t), maps::kBritain))
        throw platform::invalid_argument("x, y: tile " + std::to_string(t.z) + "/" +
                                         std::to_string(t.x) + "/" + std::to_string(t.y) +
                                         " lies outside Great Britain; " + britain_rule());
    return t;
}

common::upstream::Answer Maps::png(const std::string& style, const maps::Tile& t) const {
    Upstream os(host_, kOsMaps);
    auto a = os.fetch(upstream_path(style, t));
    static const std::string kSignature = "\x89PNG\r\n\x1a\n";
    if (a.body.compare(0, kSignature.size(), kSignature) != 0)
        throw os.malformed("tile " + std::to_string(t.z) + "/" + std::to_string(t.x) + "/" +
                           std::to_string(t.y) + " is not a PNG image");
    return a;
}

json Maps::tile(platform::Request& r) {
    const maps::Tile t = checked_tile(r);
    const std::string st = r.str("style", "road");
    const auto a = png(st, t);
    return {{"z", t.z},
            {"x", t.x},
            {"y", t.y},
            {"style", st},
            {"url", url_of(st, t)},
            {"bounds", box_json(maps::bounds(t))},
            {"bytes", a.body.size()},
            {"cached", a.cached},
            {"attribution", attribution(host_.now_ms())}};
}

void Maps::tile_image(platform::Request& r, platform::Responder out) {
    const maps::Tile t = checked_tile(r);
    const auto a = png(r.str("style", "road"), t);
    out.raw("image/png", a.body);
}

json Maps::area(platform::Request& r) {
    const auto num = [&](const char* name) { return r[name].get<double>(); };
    const maps::Box box{num("north"), num("south"), num("east"), num("west")};
    const int z = static_cast<int>(r.integer("zoom"));
    const std::string st = r.str("style", "road");
    if (!(box.north > box.south))
        throw platform::invalid_argument("north: must be greater than south");
    if (!(box.east > box.west))
        throw platform::invalid_argument(
            "east: must be greater than west (a box across longitude 180 is not supported)");
    if (!maps::overlaps(box, maps::kBritain))
        throw platform::invalid_argument(
            "north, south, east, west: the box lies outside Great "
            "Britain; " +
            britain_rule());
    const maps::Box cut = maps::clip(box, maps::kBritain);
    const maps::Range range = maps::covering(cut, z);
    if (range.count() > kMaxAreaTiles)
        throw platform::invalid_argument(
            "zoom: the box covers " + std::to_string(range.count()) + " tiles at zoom " +
            std::to_string(z) + ", at most " + std::to_string(kMaxAreaTiles) +
            "; choose a lower zoom or a smaller box (north, south, east, west)");

    Upstream os(host_, kOsMaps);
    json tiles = json::array();
    int64_t held = 0;
    for (int64_t y = range.y_min; y <= range.y_max; ++y)
        for (int64_t x = range.x_min; x <= range.x_max; ++x) {
            const maps::Tile t{z, x, y};
            const bool h = os.held(upstream_path(st, t));
            held += h ? 1 : 0;
            tiles.push_back({{"x", x}, {"y", y}, {"url", url_of(st, t)}, {"held", h}});
        }
    const bool clipped = cut.north != box.north || cut.south != box.south || cut.east != box.east ||
                         cut.west != box.west;
    return {{"zoom", z},
            {"style", st},
            {"box", box_json(cut)},
            {"clipped", clipped},
            {"columns", range.columns()},
            {"rows", range.rows()},
            {"count", range.count()},
            {"held", held},
            {"tiles", tiles},
            {"attribution", attribution(host_.now_ms())}};
}

PLATFORM_SERVICE(Maps)
