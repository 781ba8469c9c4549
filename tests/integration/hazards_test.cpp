// The hazards service (plugins/hazards/) through the real host on the `test` profile, its three
// upstreams (USGS, GDACS, the Environment Agency) played by a FakeUpstream serving the fixtures
// of tests/fixtures/<provider>/ (outbound.providers.<name>.base_url points at it): each method's
// answer and limits, what it asks upstream, each provider's 5xx (502), silence (504) and malformed
// body (502), the cache answering a repeat; and, on a host without the providers, the 503 naming
// the setting. Cached answers expire on the manual business clock (expire_cache).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "api_answers.hpp"
#include "fake_upstream.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kFeeds = "/usgs/earthquakes/feed/v1.0/summary/";
const std::string kGdacs = "/gdacs/gdacsapi/api/events/geteventlist/EVENTS4APP";
const std::string kFloods = "/ea-floods/flood-monitoring/id/floods";

class Hazards : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() { start_with("hazards", {{"usgs"}, {"gdacs"}, {"ea-floods"}}); }
    // Each test starts with nothing cached and nothing recorded, its upstreams serving fixtures.
    void SetUp() override {
        expire_cache();
        up->forget();
        up->serve(kFeeds + "2.5_day.geojson", FakeUpstream::fixture("usgs", "2.5_day.geojson"));
        up->serve(kGdacs, FakeUpstream::fixture("gdacs", "EVENTS4APP.json"));
        up->serve(kFloods, FakeUpstream::fixture("ea-floods", "floods.json"));
    }

    // Moves the business clock past every cache lifetime, so that the next call asks upstream.
    void expire_cache() {
        ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 25 * 3600 * 1000}}).status, 200);
    }
    // A failure whose status is `status` and whose message names `text`.
    static void expect_failure(const HttpResult& r, int status, const std::string& text) {
        EXPECT_EQ(r.status, status) << r.body;
        EXPECT_NE(r.body.find(text), std::string::npos) << r.body;
    }
};

TEST_F(Hazards, QuakesOfTheDayNewestFirst) {
    const json a = data_of(get("quakes"));
    EXPECT_EQ(a.value("count", 0), 5) << a;
    ASSERT_EQ(a["quakes"].size(), 5u);
    EXPECT_EQ(a["quakes"][0]["id"], "ak0266abcd");
    EXPECT_EQ(a["quakes"][0]["time"], "2026-11-29T08:41:02Z");
    EXPECT_EQ(a["quakes"][0]["depth_km"], 72.4);
    EXPECT_EQ(up->requests(kFeeds + "2.5_day.geojson").size(), 1u);
}

TEST_F(Hazards, QuakesMinPeriodAndAPoint) {
    up->serve(kFeeds + "4.5_week.geojson", FakeUpstream::fixture("usgs", "2.5_day.geojson"));
    json a = data_of(get("quakes?min=5&period=week"));
    ASSERT_EQ(a.value("count", 0), 1) << a;
    EXPECT_EQ(a["quakes"][0]["magnitude"], 5.6);
    EXPECT_EQ(up->requests(kFeeds + "4.5_week.geojson").size(), 1u);
    // within_km defaults to 500 around a point: the two quakes near Tokyo, nearest first.
    a = data_of(get("quakes?lat=35.68&lon=139.69"));
    ASSERT_EQ(a.value("count", 0), 2) << a;
    EXPECT_EQ(a["quakes"][0]["id"], "us7000q1a2");
    EXPECT_NEAR(a["quakes"][0]["distance_km"].get<double>(), 287.1, 0.1);
    a = data_of(get("quakes?lat=35.68&lon=139.69&within_km=300"));
    EXPECT_EQ(a.value("count", 0), 1) << a;
}

TEST_F(Hazards, QuakesLimits) {
    expect_400(get("quakes?min=-2.1"), "min");
    expect_400(get("quakes?min=10.1"), "min");
    expect_400(get("quakes?period=year"), "period");
    expect_400(get("quakes?lat=35&lon=139&within_km=0"), "within_km");
    expect_400(get("quakes?lat=35&lon=139&within_km=20041"), "within_km");
    expect_400(get("quakes?lat=90.5&lon=139"), "lat");
    expect_400(get("quakes?lon=181&lat=0"), "lon");
    expect_400(get("quakes?lat=35"), "lon");
    expect_400(get("quakes?within_km=10"), "within_km");
    EXPECT_TRUE(up->requests().empty());
    // The bounds themselves are taken: magnitude -2 reads the feed of every quake.
    up->serve(kFeeds + "all_hour.geojson", FakeUpstream::fixture("usgs", "empty.geojson"));
    EXPECT_EQ(
        data_of(get("quakes?min=-2&period=hour&lat=0&lon=0&within_km=20040")).value("count", -1),
        0);
    EXPECT_EQ(up->requests(kFeeds + "all_hour.geojson").size(), 1u);
}

TEST_F(Hazards, AlertsAtALevelOrAboveAndNearAPoint) {
    json a = data_of(get("alerts"));
    EXPECT_EQ(a.value("count", 0), 5) << a;
    EXPECT_EQ(a["alerts"][0]["level"], "red");
    EXPECT_EQ(a["alerts"][0]["type"], "tropical cyclone");
    EXPECT_EQ(listed(get("alerts?level=orange"), "alerts", "level"),
              (std::vector<std::string>{"red", "orange"}));
    EXPECT_EQ(listed(get("alerts?level=red"), "alerts", "id"),
              (std::vector<std::string>{"TC-1001187"}));
    // within_km defaults to 1000 around a point.
    EXPECT_EQ(listed(get("alerts?lat=35.68&lon=139.69"), "alerts", "id"),
              (std::vector<std::string>{"EQ-1453120"}));
    EXPECT_EQ(listed(get("alerts?lat=35.68&lon=139.69&within_km=3000"), "alerts", "id"),
              (std::vector<std::string>{"TC-1001187", "EQ-1453120"}));
    EXPECT_EQ(up->requests(kGdacs).size(), 1u);  // one list, filtered five ways
    expect_400(get("alerts?level=yellow"), "level");
    expect_400(get("alerts?lat=1&lon=1&within_km=20041"), "within_km");
    expect_400(get("alerts?lat=1&lon=1&within_km=-5"), "within_km");
    expect_400(get("alerts?lon=1"), "lat");
}

TEST_F(Hazards, FloodsMostSevereFirstSevereOnlyAndNearAPoint) {
    json a = data_of(get("floods"));
    ASSERT_EQ(a.value("count", 0), 5) << a;
    std::vector<int> levels;
    for (const auto& f : a["floods"]) levels.push_back(f["severity_level"]);
    EXPECT_EQ(levels, (std::vector<int>{1, 2, 3, 3, 4}));
    EXPECT_EQ(listed(get("floods?severe=true"), "floods", "id"),
              (std::vector<std::string>{"113FWFCOCKERM01"}));
    EXPECT_EQ(data_of(get("floods?severe=false")).value("count", 0), 5);
    // A point: the EA's own lat/long/dist query, dist 30 km unless told.
    data_of(get("floods?lat=54.66&lon=-3.36"));
    auto seen = up->requests(kFloods);
    ASSERT_EQ(seen.size(), 2u);  // the list once (cached), then the point
    EXPECT_EQ(seen[1].param("lat"), "54.66");
    EXPECT_EQ(seen[1].param("long"), "-3.36");
    EXPECT_EQ(seen[1].param("dist"), "30");
    data_of(get("floods?lat=54.66&lon=-3.36&within_km=12.5"));
    EXPECT_EQ(up->requests(kFloods).back().param("dist"), "12.5");
    expect_400(get("floods?severe=maybe"), "severe");
    expect_400(get("floods?lat=54&lon=-3&within_km=1001"), "within_km");
    expect_400(get("floods?lat=54&lon=-3&within_km=0"), "within_km");
    expect_400(get("floods?within_km=5"), "within_km");
}

TEST_F(Hazards, TheCacheAnswersARepeatWithoutAskingAgain) {
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(get("quakes").status, 200);
        EXPECT_EQ(get("alerts?level=red").status, 200);
        EXPECT_EQ(get("floods?severe=true").status, 200);
    }
    EXPECT_EQ(up->requests(kFeeds + "2.5_day.geojson").size(), 1u);
    EXPECT_EQ(up->requests(kGdacs).size(), 1u);
    EXPECT_EQ(up->requests(kFloods).size(), 1u);
}

TEST_F(Hazards, AnUpstream5xxIs502NamingIt) {
    up->serve(kFeeds + "2.5_day.geojson", FakeUpstream::status(500, "oops"));
    up->serve(kGdacs, FakeUpstream::status(502, "<html>Bad Gateway</html>", "text/html"));
    up->serve(kFloods, FakeUpstream::status(500, R"({"error":"internal"})"));
    expect_failure(get("quakes"), 502, "USGS answered 500");
    expect_failure(get("alerts"), 502, "GDACS answered 502");
    expect_failure(get("floods"), 502, "The Environment Agency answered 500");
}

TEST_F(Hazards, AnUpstreamThatDoesNotAnswerIs504) {
    up->serve(kFeeds + "2.5_day.geojson", FakeUpstream::hang());
    up->serve(kGdacs, FakeUpstream::hang());
    up->serve(kFloods, FakeUpstream::hang());
    expect_failure(get("quakes"), 504, "USGS did not answer in time");
    expect_failure(get("alerts"), 504, "GDACS did not answer in time");
    expect_failure(get("floods"), 504, "The Environment Agency did not answer in time");
}

TEST_F(Hazards, AMalformedBodyIs502NamingTheUpstream) {
    up->serve(kFeeds + "2.5_day.geojson", FakeUpstream::status(200, R"({"type":"Feature"})"));
    up->serve(kGdacs, FakeUpstream::status(200, "<rss></rss>", "application/xml"));
    up->serve(kFloods, FakeUpstream::status(200, R"({"items":[{"severity":"Flood Alert"}]})"));
    expect_failure(get("quakes"), 502, "USGS answered a malformed body");
    expect_failure(get("alerts"), 502, "GDACS answered a malformed body");
    expect_failure(get("floods"), 502, "The Environment Agency answered a malformed body");
}

// A host whose profile names none of the three providers.
class HazardsUnconfigured : public SharedHostTest {};

TEST_F(HazardsUnconfigured, EachMethodIs503NamingItsSetting) {
    const std::pair<const char*, const char*> cases[] = {
        {"quakes", "providers.usgs.base_url"},
        {"alerts", "providers.gdacs.base_url"},
        {"floods", "providers.ea-floods.base_url"}};
    for (const auto& [method, setting] : cases) {
        const HttpResult r = api.get(std::string("/api/v1/hazards/") + method);
        EXPECT_EQ(r.status, 503) << method << ": " << r.body;
        EXPECT_NE(r.body.find(setting), std::string::npos) << r.body;
    }
}

}  // namespace
