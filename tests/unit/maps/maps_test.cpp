// The maps service through the SDK's fake host, OS answering the tile fixture: a tile is fetched
// once and then served from the cache; area lists row by row from the north-west with what is
// held; Britain only; the tile's own URL answers the PNG bytes.
#include <gtest/gtest.h>

#include <mutex>

#include "../support/plugin_under_test.hpp"
#include "fixtures.hpp"

using namespace plugin_test;

namespace {

class MapsTest : public ::testing::Test {
protected:
    FakeHost host;
    FakePlugin maps = host.load(platform_plugin_entry);
    std::mutex m;
    std::vector<std::string> fetched;
    std::string body = platform::test::fixture_text("os-maps", "tile.png");

    MapsTest() {
        host.on_fetch = [this](const platform_http_request_t& req) {
            std::lock_guard<std::mutex> g(m);
            fetched.push_back(platform::copy(req.url));
            EXPECT_EQ(platform::copy(req.provider), "os-maps");
            FakeHost::FakeHttp r;
            r.code = PLATFORM_OK;
            r.status = 200;
            r.body = body;
            r.headers = {{"content-type", "image/png"}};
            return r;
        };
    }
};

TEST_F(MapsTest, ATileIsFetchedOnceAndItsUrlServesIt) {
    const json t = ok_json(maps.call("tile", {{"z", 10}, {"x", 511}, {"y", 340}}));
    EXPECT_EQ(t["url"], "/maps/tiles/road/10/511/340");
    EXPECT_EQ(t["style"], "road");
    EXPECT_EQ(t["cached"], false);
    EXPECT_EQ(t["bytes"], body.size());
    EXPECT_DOUBLE_EQ(t["bounds"]["west"].get<double>(), -0.3515625);
    EXPECT_EQ(t["attribution"], "Contains OS data © Crown copyright and database rights 2026");
    ASSERT_EQ(fetched.size(), 1u);
    EXPECT_EQ(fetched[0], "/maps/raster/v1/zxy/Road_3857/10/511/340.png");
    const Reply image =
        maps.call("tile_image", {{"style", "road"}, {"z", 10}, {"x", 511}, {"y", 340}});
    EXPECT_EQ(image.code, PLATFORM_OK);
    EXPECT_EQ(image.content_type, "image/png");
    EXPECT_EQ(image.body, body);
    EXPECT_EQ(ok_json(maps.call("tile", {{"z", 10}, {"x", 511}, {"y", 340}}))["cached"], true);
    EXPECT_EQ(fetched.size(), 1u);
    ok_json(maps.call("tile", {{"z", 10}, {"x", 511}, {"y", 340}, {"style", "outdoor"}}));
    EXPECT_EQ(fetched.back(), "/maps/raster/v1/zxy/Outdoor_3857/10/511/340.png");
}

TEST_F(MapsTest, TilesOutsideBritainOrTheGridAre400) {
    const Reply paris = maps.call("tile", {{"z", 10}, {"x", 518}, {"y", 352}});
    EXPECT_EQ(paris.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(paris.body.find("outside Great Britain"), std::string::npos) << paris.body;
    EXPECT_NE(paris.body.find("longitude -8.82 to 1.92, latitude 49.79 to 60.94"),
              std::string::npos)
        << paris.body;
    const Reply beyond = maps.call("tile", {{"z", 2}, {"x", 4}, {"y", 0}});
    EXPECT_EQ(beyond.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(beyond.body.find("x: must be below 4 at zoom 2"), std::string::npos) << beyond.body;
    EXPECT_EQ(maps.call("tile", {{"z", 21}, {"x", 0}, {"y", 0}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(maps.call("tile", {{"z", 1}, {"x", 0}, {"y", 0}, {"style", "satellite"}}).code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(fetched.empty());
}

TEST_F(MapsTest, ABodyThatIsNotAPngIs502) {
    body = "{\"error\": \"no\"}";
    const Reply r = maps.call("tile", {{"z", 10}, {"x", 511}, {"y", 340}});
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.body.find("OS Maps API answered a malformed body"), std::string::npos) << r.body;
}

TEST_F(MapsTest, AreaListsRowByRowFromTheNorthWestWithWhatIsHeld) {
    ok_json(maps.call("tile", {{"z", 10}, {"x", 511}, {"y", 340}}));
    // Around Westminster at zoom 10: columns 511-512, rows 340-341.
    const json a = ok_json(maps.call(
        "area", {{"north", 51.6}, {"south", 51.3}, {"east", 0.1}, {"west", -0.2}, {"zoom", 10}}));
    EXPECT_EQ(a["columns"], 2);
    EXPECT_EQ(a["rows"], 2);
    EXPECT_EQ(a["count"], 4);
    EXPECT_EQ(a["held"], 1);
    EXPECT_EQ(a["clipped"], false);
    ASSERT_EQ(a["tiles"].size(), 4u);
    const std::vector<std::pair<int, int>> order = {{511, 340}, {512, 340}, {511, 341}, {512, 341}};
    for (size_t i = 0; i < order.size(); ++i) {
        EXPECT_EQ(a["tiles"][i]["x"], order[i].first);
        EXPECT_EQ(a["tiles"][i]["y"], order[i].second);
    }
    EXPECT_EQ(a["tiles"][0]["url"], "/maps/tiles/road/10/511/340");
    EXPECT_EQ(a["tiles"][0]["held"], true);
    EXPECT_EQ(a["tiles"][1]["held"], false);
    EXPECT_EQ(fetched.size(), 1u);  // area fetches nothing
}

TEST_F(MapsTest, AreaLimits) {
    const Reply big =
        maps.call("area", {{"north", 60}, {"south", 50}, {"east", 1}, {"west", -8}, {"zoom", 10}});
    EXPECT_EQ(big.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(big.body.find("zoom: the box covers"), std::string::npos) << big.body;
    EXPECT_NE(big.body.find("at most 256"), std::string::npos) << big.body;
    const Reply flipped =
        maps.call("area", {{"north", 51}, {"south", 52}, {"east", 1}, {"west", 0}, {"zoom", 5}});
    EXPECT_EQ(flipped.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(flipped.body.find("north: must be greater than south"), std::string::npos);
    const Reply across =
        maps.call("area", {{"north", 52}, {"south", 51}, {"east", -1}, {"west", 0}, {"zoom", 5}});
    EXPECT_EQ(across.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(across.body.find("east: must be greater than west"), std::string::npos);
    const Reply paris =
        maps.call("area", {{"north", 49}, {"south", 48}, {"east", 3}, {"west", 2}, {"zoom", 5}});
    EXPECT_EQ(paris.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(paris.body.find("outside Great Britain"), std::string::npos);
    // A box reaching beyond Britain is cut to it.
    const json cut = ok_json(maps.call(
        "area", {{"north", 70}, {"south", 40}, {"east", 10}, {"west", -20}, {"zoom", 7}}));
    EXPECT_EQ(cut["clipped"], true);
    EXPECT_EQ(cut["count"], 40);
    EXPECT_EQ(cut["box"]["north"], 60.94);
    EXPECT_EQ(maps.call("area", {{"north", 52}, {"south", 51}, {"east", 1}, {"west", 0}}).code,
              PLATFORM_INVALID_ARGUMENT);  // zoom is required
}

}  // namespace
