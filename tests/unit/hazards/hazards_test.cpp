// The hazards service's handlers in the SDK's fake host, with on_fetch answering from the
// fixtures: which upstream path each method asks for, the point's rules, the cache, and a body
// that is not the feed answered as 502.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "../support/plugin_under_test.hpp"
#include "fixtures.hpp"

namespace {

using namespace plugin_test;

using platform::test::fixture_text;

class HazardsHandlers : public ::testing::Test {
protected:
    HazardsHandlers() : plugin(host.load(platform_plugin_entry)) {
        host.on_fetch = [this](const platform_http_request_t& req) {
            const std::string provider = platform::copy(req.provider);
            fetched.push_back(provider + " " + platform::copy(req.url));
            FakeHost::FakeHttp r;
            r.code = PLATFORM_OK;
            r.status = 200;
            r.body = body.empty() ? provider == "usgs"    ? fixture_text("usgs", "2.5_day.geojson")
                                    : provider == "gdacs" ? fixture_text("gdacs", "EVENTS4APP.json")
                                                          : fixture_text("ea-floods", "floods.json")
                                  : body;
            return r;
        };
    }
    std::string body;  // what the upstream answers; empty: the provider's fixture
    std::vector<std::string> fetched;
    FakeHost host;
    FakePlugin plugin;
};

TEST_F(HazardsHandlers, QuakesReadTheFeedOfMinAndPeriod) {
    json a = ok_json(plugin.call("quakes", json::object()));
    EXPECT_EQ(a["count"], 5);
    a = ok_json(plugin.call("quakes", {{"min", 1.2}, {"period", "week"}}));
    a = ok_json(plugin.call("quakes", {{"min", 4.5}, {"period", "hour"}}));
    EXPECT_EQ(a["count"], 2);
    a = ok_json(plugin.call("quakes", {{"min", 0}, {"period", "month"}}));
    EXPECT_EQ(fetched,
              (std::vector<std::string>{"usgs /earthquakes/feed/v1.0/summary/2.5_day.geojson",
                                        "usgs /earthquakes/feed/v1.0/summary/1.0_week.geojson",
                                        "usgs /earthquakes/feed/v1.0/summary/4.5_hour.geojson",
                                        "usgs /earthquakes/feed/v1.0/summary/all_month.geojson"}));
}

TEST_F(HazardsHandlers, APointTakesBothCoordinatesAndWithinKmDefaultsPerMethod) {
    Reply r = plugin.call("quakes", {{"lat", 35.68}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("lon"), std::string::npos) << r.body;
    r = plugin.call("alerts", {{"within_km", 100}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("within_km"), std::string::npos) << r.body;
    EXPECT_EQ(plugin.call("quakes", {{"within_km", 0}, {"lat", 1}, {"lon", 2}}).code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("quakes", {{"lat", 91}, {"lon", 2}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(fetched.empty());

    EXPECT_EQ(ok_json(plugin.call("quakes", {{"lat", 35.68}, {"lon", 139.69}}))["count"], 2);
    EXPECT_EQ(ok_json(plugin.call("alerts", {{"lat", 35.68}, {"lon", 139.69}}))["count"], 1);
    ok_json(plugin.call("floods", {{"lat", 54.66}, {"lon", -3.36}}));
    EXPECT_EQ(fetched.back(), "ea-floods /flood-monitoring/id/floods?lat=54.66&long=-3.36&dist=30");
    ok_json(plugin.call("floods", {{"lat", 54.66}, {"lon", -3.36}, {"within_km", 5.5}}));
    EXPECT_EQ(fetched.back(),
              "ea-floods /flood-monitoring/id/floods?lat=54.66&long=-3.36&dist=5.5");
}

TEST_F(HazardsHandlers, AlertsAndFloodsFilters) {
    json a = ok_json(plugin.call("alerts", {{"level", "orange"}}));
    EXPECT_EQ(a["count"], 2);
    EXPECT_EQ(plugin.call("alerts", {{"level", "purple"}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(fetched,
              (std::vector<std::string>{"gdacs /gdacsapi/api/events/geteventlist/EVENTS4APP"}));
    EXPECT_EQ(ok_json(plugin.call("floods", json::object()))["count"], 5);
    EXPECT_EQ(ok_json(plugin.call("floods", {{"severe", true}}))["count"], 1);
    EXPECT_EQ(fetched.back(), "ea-floods /flood-monitoring/id/floods");
}

TEST_F(HazardsHandlers, TheCacheAnswersARepeat) {
    ok_json(plugin.call("quakes", json::object()));
    ok_json(plugin.call("quakes", {{"min", 3}}));  // the same feed, filtered differently
    ok_json(plugin.call("floods", json::object()));
    ok_json(plugin.call("floods", {{"severe", true}}));
    EXPECT_EQ(fetched.size(), 2u);
}

TEST_F(HazardsHandlers, ABodyThatIsNotTheFeedIs502NamingTheUpstream) {
    body = R"({"type":"Feature"})";
    Reply r = plugin.call("quakes", json::object());
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.body.find("USGS answered a malformed body"), std::string::npos) << r.body;
    body = "<html>";
    r = plugin.call("alerts", json::object());
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.body.find("GDACS"), std::string::npos) << r.body;
    body = R"({"items":[{"severityLevel":"high"}]})";
    r = plugin.call("floods", json::object());
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.body.find("Environment Agency"), std::string::npos) << r.body;
}

}  // namespace
