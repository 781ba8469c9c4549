// The places service through the SDK's fake host, its upstreams answered from the fixtures
// (on_fetch by provider): where a request points (near or lat/lon), search's radius and order,
// nearby's order and open_now on the London clock, elevation's units, address's 404.
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "../support/plugin_under_test.hpp"
#include "fixtures.hpp"

using namespace plugin_test;

namespace {

class PlacesTest : public ::testing::Test {
protected:
    FakeHost host;
    FakePlugin places = host.load(platform_plugin_entry);
    std::mutex m;
    std::vector<std::pair<std::string, std::string>> fetched;  // provider, url
    std::map<std::string, std::string> answers;                // path prefix -> body

    PlacesTest() {
        answers["/search"] = platform::test::fixture_text("nominatim", "search.json");
        answers["/reverse"] = platform::test::fixture_text("nominatim", "reverse.json");
        answers["/api/interpreter"] = platform::test::fixture_text("overpass", "nearby.json");
        answers["/v1/elevation"] =
            platform::test::fixture_text("open-meteo-elevation", "elevation.json");
        host.on_fetch = [this](const platform_http_request_t& req) {
            std::lock_guard<std::mutex> g(m);
            const std::string url = platform::copy(req.url);
            fetched.emplace_back(platform::copy(req.provider), url);
            FakeHost::FakeHttp r;
            for (const auto& [prefix, body] : answers)
                if (url.rfind(prefix, 0) == 0) {
                    r.code = PLATFORM_OK;
                    r.status = 200;
                    r.body = body;
                    r.headers = {{"content-type", "application/json"}};
                }
            return r;
        };
    }
};

TEST_F(PlacesTest, APointIsNearOrLatAndLonButNotBoth) {
    EXPECT_EQ(places.call("nearby", {{"lat", 51.5}}).code, PLATFORM_INVALID_ARGUMENT);
    const Reply both = places.call("nearby", {{"lat", 51.5}, {"lon", -0.1}, {"near", "Soho"}});
    EXPECT_EQ(both.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(both.body.find("near: "), std::string::npos) << both.body;
    const Reply none = places.call("elevation", json::object());
    EXPECT_EQ(none.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(none.body.find("place, lat, lon"), std::string::npos) << none.body;
    EXPECT_TRUE(fetched.empty());
}

TEST_F(PlacesTest, NearIsGeocodedFirst) {
    const json e = ok_json(places.call("elevation", {{"place", "10 Downing Street"}}));
    EXPECT_DOUBLE_EQ(e["lat"].get<double>(), 51.5033635);
    EXPECT_EQ(e["elevation_m"], 38.0);
    EXPECT_EQ(e["elevation_ft"], 124.7);
    EXPECT_NE(e["place"].get<std::string>().find("Downing Street"), std::string::npos);
    ASSERT_EQ(fetched.size(), 2u);
    EXPECT_EQ(fetched[0].first, "nominatim");
    EXPECT_NE(fetched[0].second.find("limit=1"), std::string::npos);
    EXPECT_EQ(fetched[1].first, "open-meteo-elevation");
    EXPECT_EQ(fetched[1].second, "/v1/elevation?latitude=51.5033635&longitude=-0.1276248");
}

TEST_F(PlacesTest, NearMatchingNothingIs404) {
    answers["/search"] = "[]";
    const Reply r = places.call("nearby", {{"near", "Atlantis"}});
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(r.body.find("near: no place found for 'Atlantis'"), std::string::npos) << r.body;
}

TEST_F(PlacesTest, SearchNearAPointKeepsTheCircleNearestFirst) {
    answers["/search"] = platform::test::fixture_text("nominatim", "search_near.json");
    const json s = ok_json(
        places.call("search", {{"query", "pharmacy"}, {"lat", 51.5033635}, {"lon", -0.1276248}}));
    EXPECT_EQ(s["radius"], 2000);
    ASSERT_EQ(s["count"], 2);  // the third is 2.4 km away
    EXPECT_EQ(s["results"][0]["name"], "Westminster Pharmacy");
    EXPECT_EQ(s["results"][1]["name"], "Boots");
    EXPECT_LT(s["results"][0]["distance_m"].get<double>(),
              s["results"][1]["distance_m"].get<double>());
    ASSERT_EQ(fetched.size(), 1u);
    EXPECT_NE(fetched[0].second.find("&bounded=1"), std::string::npos);
}

TEST_F(PlacesTest, SearchWithoutAPointIsAnywhere) {
    const json s = ok_json(places.call("search", {{"query", "Downing Street"}}));
    EXPECT_EQ(s["count"], 2);
    EXPECT_FALSE(s.contains("center"));
    EXPECT_EQ(fetched[0].second.find("viewbox"), std::string::npos);
}

TEST_F(PlacesTest, NearbyIsNearestFirstWithOpenNowOnTheLondonClock) {
    host.now_ms = 1796032800000;  // Monday 2026-11-30 10:00 UTC, 10:00 in London (GMT)
    const json n = ok_json(places.call("nearby", {{"lat", 51.5033635}, {"lon", -0.1276248}}));
    EXPECT_EQ(n["radius"], 1000);
    EXPECT_EQ(n["time_zone"], "Europe/London");
    ASSERT_EQ(n["count"], 4);
    const json& p = n["points"];
    EXPECT_EQ(p[0]["name"], "The Red Lion");
    EXPECT_EQ(p[1]["name"], "Parliament News");
    EXPECT_EQ(p[2]["name"], "Whitehall Coffee");
    EXPECT_EQ(p[3]["name"], "Household Cavalry Museum");
    EXPECT_EQ(p[0]["open_now"], true);     // 24/7
    EXPECT_EQ(p[1]["open_now"], nullptr);  // no opening_hours
    EXPECT_EQ(p[2]["open_now"], true);     // Mo-Fr 07:00-18:00
    EXPECT_EQ(p[3]["open_now"], nullptr);  // months: not understood
    // Sunday: the cafe is off.
    host.now_ms = 1795953600000;  // Sunday 2026-11-29 12:00 UTC
    answers.erase("/search");
    const json sunday = ok_json(places.call("nearby", {{"lat", 51.5033635}, {"lon", -0.1276248}}));
    EXPECT_EQ(sunday["points"][2]["open_now"], false);
}

TEST_F(PlacesTest, OpenNowFollowsBritishSummerTime) {
    host.now_ms = 1780335000000;  // Monday 2026-06-01 17:30 UTC, 18:30 in London (BST)
    const json n = ok_json(places.call("nearby", {{"lat", 51.5033635}, {"lon", -0.1276248}}));
    EXPECT_EQ(n["points"][2]["name"], "Whitehall Coffee");
    EXPECT_EQ(n["points"][2]["open_now"], false);  // closed at 18:00 local
}

TEST_F(PlacesTest, OpenNowIsUnknownOutsideBritainAndIreland) {
    const json n = ok_json(places.call("nearby", {{"lat", 48.8566}, {"lon", 2.3522}}));
    EXPECT_EQ(n["time_zone"], nullptr);
    for (const auto& p : n["points"]) EXPECT_EQ(p["open_now"], nullptr);
}

TEST_F(PlacesTest, NearbyAsksOverpassWithTheQueryAndRadius) {
    ok_json(
        places.call("nearby", {{"lat", 51.5}, {"lon", -0.12}, {"query", "cafe"}, {"radius", 250}}));
    ASSERT_EQ(fetched.size(), 1u);
    EXPECT_EQ(fetched[0].first, "overpass");
    EXPECT_NE(fetched[0].second.find("around%3A250%2C51.5%2C-0.12"), std::string::npos)
        << fetched[0].second;
}

TEST_F(PlacesTest, AddressIsTheReversePlaceOr404) {
    const json a = ok_json(places.call("address", {{"lat", 51.5034}, {"lon", -0.1276}}));
    EXPECT_EQ(a["place"]["address"]["postcode"], "SW1A 2AA");
    answers["/reverse"] = platform::test::fixture_text("nominatim", "reverse_none.json");
    const Reply none = places.call("address", {{"lat", 50.0}, {"lon", -20.0}});
    EXPECT_EQ(none.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(none.body.find("lat, lon: no address found"), std::string::npos) << none.body;
}

TEST_F(PlacesTest, LimitsComeFromTheSchema) {
    EXPECT_EQ(places.call("nearby", {{"lat", 51.5}, {"lon", 0}, {"radius", 5001}}).code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(places.call("search", {{"query", "x"}, {"radius", 50001}}).code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(places.call("search", json::object()).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(places.call("geocode", {{"address", ""}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(places.call("address", {{"lat", 91}, {"lon", 0}}).code, PLATFORM_INVALID_ARGUMENT);
}

}  // namespace
