// The maps service (plugins/maps/) through the real host on the `test` profile, the OS Maps API on
// loopback (support/fake_upstream.hpp) answering tests/fixtures/os-maps/tile.png with the key
// placed as ?key: tile fetches once and its URL serves the PNG from the cache; area lists row by
// row from the north-west with what is held; the limits (zoom, grid, Britain, the box's tile
// count); a 5xx is a 502, silence a 504, a body that is not a PNG a 502, a refused key a 503
// naming providers.os-maps.api_key; without the provider, 503 naming the setting.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "fake_upstream.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kTiles = "/os-maps/maps/raster/v1/zxy/";

std::string query_of(const json& args) {
    std::string q;
    for (const auto& [name, value] : args.items())
        q += (q.empty() ? "?" : "&") + name + "=" +
             (value.is_string() ? value.get<std::string>() : value.dump());
    return q;
}

std::string message(const HttpResult& r) {
    const json j = json::parse(r.body, nullptr, false);
    return j.is_object() && j.contains("error") ? j["error"].value("message", "") : r.body;
}

class Maps : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() { start_with("maps", {{"os-maps", "os-key-1", "?key", false}}); }
    void SetUp() override { up->forget(); }

    // Serves the PNG fixture for one upstream tile path (under kTiles).
    static void serve_tile(const std::string& path) {
        up->serve(kTiles + path, FakeUpstream::fixture("os-maps", "tile.png", "image/png"));
    }
    HttpResult get(const std::string& method, const json& args) {
        return api.get("/api/v1/maps/" + method + query_of(args));
    }
    json ok(const std::string& method, const json& args) {
        const HttpResult r = get(method, args);
        EXPECT_EQ(r.status, 200) << method << ": " << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    void refused(const std::string& method, const json& args, int status,
                 const std::string& needle) {
        const HttpResult r = get(method, args);
        EXPECT_EQ(r.status, status) << method << " " << args.dump() << ": " << r.body;
        EXPECT_NE(message(r).find(needle), std::string::npos)
            << method << " " << args.dump() << ": " << message(r);
    }
};

TEST_F(Maps, ATileIsFetchedOnceWithTheKeyAndItsUrlServesThePng) {
    serve_tile("Road_3857/10/511/340.png");
    const json t = ok("tile", {{"z", 10}, {"x", 511}, {"y", 340}});
    EXPECT_EQ(t["url"], "/maps/tiles/road/10/511/340");
    EXPECT_EQ(t["cached"], false);
    EXPECT_DOUBLE_EQ(t["bounds"]["west"].get<double>(), -0.3515625);
    EXPECT_NE(t["attribution"].get<std::string>().find("Crown copyright"), std::string::npos);
    auto sent = up->requests(kTiles + "Road_3857/10/511/340.png");
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].param("key"), "os-key-1");

    const HttpResult image = api.get(t["url"].get<std::string>());
    EXPECT_EQ(image.status, 200) << image.body;
    EXPECT_EQ(image.header("content-type").rfind("image/png", 0), 0u)
        << image.header("content-type");
    EXPECT_EQ(image.body, FakeUpstream::fixture_text("os-maps", "tile.png"));
    EXPECT_EQ(ok("tile", {{"z", 10}, {"x", 511}, {"y", 340}})["cached"], true);
    EXPECT_EQ(up->requests(kTiles + "Road_3857/10/511/340.png").size(), 1u);  // the cache
}

TEST_F(Maps, StylesAreOsLayers) {
    serve_tile("Outdoor_3857/12/2011/1276.png");
    serve_tile("Light_3857/12/2011/1276.png");
    ok("tile", {{"z", 12}, {"x", 2011}, {"y", 1276}, {"style", "outdoor"}});
    ok("tile", {{"z", 12}, {"x", 2011}, {"y", 1276}, {"style", "light"}});
    EXPECT_EQ(up->requests(kTiles + "Outdoor_3857/12/2011/1276.png").size(), 1u);
    EXPECT_EQ(up->requests(kTiles + "Light_3857/12/2011/1276.png").size(), 1u);
    // The image URL fetches a tile not yet held.
    serve_tile("Road_3857/12/2011/1276.png");
    EXPECT_EQ(api.get("/maps/tiles/road/12/2011/1276").status, 200);
    EXPECT_EQ(up->requests(kTiles + "Road_3857/12/2011/1276.png").size(), 1u);
}

TEST_F(Maps, TileLimits) {
    refused("tile", {{"z", 21}, {"x", 0}, {"y", 0}}, 400, "z");
    refused("tile", {{"z", -1}, {"x", 0}, {"y", 0}}, 400, "z");
    refused("tile", {{"z", 2}, {"x", 4}, {"y", 1}}, 400, "x: must be below 4 at zoom 2");
    refused("tile", {{"z", 2}, {"x", 1}, {"y", 4}}, 400, "y: must be below 4 at zoom 2");
    refused("tile", {{"z", 10}, {"x", 518}, {"y", 352}}, 400, "outside Great Britain");
    refused("tile", {{"z", 10}, {"x", 511}, {"y", 340}, {"style", "satellite"}}, 400, "style");
    refused("tile", {{"x", 1}, {"y", 1}}, 400, "z");
    EXPECT_EQ(api.get("/maps/tiles/road/10/518/352").status, 400);
    EXPECT_TRUE(up->requests().empty());
}

TEST_F(Maps, AreaListsRowByRowFromTheNorthWestWithWhatIsHeld) {
    serve_tile("Road_3857/9/255/170.png");
    ok("tile", {{"z", 9}, {"x", 255}, {"y", 170}});
    up->forget();
    const json a =
        ok("area", {{"north", 51.6}, {"south", 51.0}, {"east", 0.3}, {"west", -0.4}, {"zoom", 9}});
    EXPECT_EQ(a["columns"], 2);
    EXPECT_EQ(a["rows"], 2);
    EXPECT_EQ(a["count"], 4);
    EXPECT_EQ(a["held"], 1);
    const std::vector<std::string> urls = {
        "/maps/tiles/road/9/255/170", "/maps/tiles/road/9/256/170", "/maps/tiles/road/9/255/171",
        "/maps/tiles/road/9/256/171"};
    ASSERT_EQ(a["tiles"].size(), urls.size());
    for (size_t i = 0; i < urls.size(); ++i) EXPECT_EQ(a["tiles"][i]["url"], urls[i]);
    EXPECT_EQ(a["tiles"][0]["held"], true);
    EXPECT_TRUE(up->requests().empty());  // area fetches nothing
}

TEST_F(Maps, AreaLimits) {
    const json box = {{"north", 58}, {"south", 50}, {"east", 1}, {"west", -6}};
    json big = box;
    big["zoom"] = 10;
    refused("area", big, 400, "zoom: the box covers");
    refused("area", big, 400, "at most 256");
    refused("area", {{"north", 51}, {"south", 52}, {"east", 1}, {"west", 0}, {"zoom", 5}}, 400,
            "north: must be greater than south");
    refused("area", {{"north", 52}, {"south", 51}, {"east", -1}, {"west", 0}, {"zoom", 5}}, 400,
            "east: must be greater than west");
    refused("area", {{"north", 49}, {"south", 48}, {"east", 3}, {"west", 2}, {"zoom", 5}}, 400,
            "outside Great Britain");
    refused("area", {{"north", 52}, {"south", 51}, {"east", 1}, {"west", 0}, {"zoom", 21}}, 400,
            "zoom");
    refused("area", {{"north", 91}, {"south", 51}, {"east", 1}, {"west", 0}, {"zoom", 5}}, 400,
            "north");
    const json cut =
        ok("area", {{"north", 70}, {"south", 40}, {"east", 10}, {"west", -20}, {"zoom", 7}});
    EXPECT_EQ(cut["clipped"], true);
    EXPECT_EQ(cut["count"], 40);
}

TEST_F(Maps, UpstreamFailures) {
    up->serve(kTiles + "Road_3857/11/1000/650.png",
              FakeUpstream::status(500, "oops", "text/plain"));
    refused("tile", {{"z", 11}, {"x", 1000}, {"y", 650}}, 502, "OS Maps API answered 500");
    up->serve(kTiles + "Road_3857/11/1001/650.png", FakeUpstream::hang());
    refused("tile", {{"z", 11}, {"x", 1001}, {"y", 650}}, 504,
            "OS Maps API did not answer in time");
    up->serve(kTiles + "Road_3857/11/1002/650.png",
              FakeUpstream::status(200, "{\"fault\":{}}", "application/json"));
    refused("tile", {{"z", 11}, {"x", 1002}, {"y", 650}}, 502,
            "OS Maps API answered a malformed body");
    up->serve(kTiles + "Road_3857/11/1003/650.png",
              FakeUpstream::status(401, "{\"fault\":{\"faultstring\":\"Invalid ApiKey\"}}"));
    refused("tile", {{"z", 11}, {"x", 1003}, {"y", 650}}, 503, "providers.os-maps.api_key");
}

class MapsUnconfigured : public SharedHostTest {};

TEST_F(MapsUnconfigured, TileNamesTheMissingSetting) {
    const HttpResult r = api.get("/api/v1/maps/tile?z=10&x=511&y=340");
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_NE(message(r).find("providers.os-maps.base_url"), std::string::npos) << message(r);
    EXPECT_NE(message(r).find("providers.os-maps.api_key"), std::string::npos) << message(r);
    EXPECT_EQ(api.get("/maps/tiles/road/10/511/340").status, 503);
}

}  // namespace
