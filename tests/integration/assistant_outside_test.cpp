// The offline assistant (model-builtin) using the external-data services through the real agent,
// no model key: "next prayer in Leeds" and "earthquakes near Tokyo" geocode the place first
// (places_geocode, a fake Nominatim) and then ask prayer_times or hazards_quakes (a fake USGS feed)
// at its coordinates; the reply says what the services answered.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fake_upstream.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

constexpr int64_t kNow = 1795961700000LL;  // 2026-11-29T14:15:00Z
const char* kSearch = "/nominatim/search";
const char* kQuakes = "/usgs/earthquakes/feed/v1.0/summary/2.5_day.geojson";

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

class AssistantOutside : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() {
        start_with("agent", {{"nominatim"}, {"usgs"}});
        up->serve(kSearch, FakeUpstream::fixture("nominatim", "search.json"));
        up->serve(kQuakes, FakeUpstream::fixture("usgs", "2.5_day.geojson"));
        HttpClient c("127.0.0.1", host->api_port());
        ASSERT_EQ(c.post_json("/clock/set", {{"unix_ms", kNow}}).status, 200);
    }

    std::string ask(const std::string& prompt) {
        const auto r = api.post_json("/api/v1/agent/ask", {{"prompt", prompt}}, as("alice"));
        EXPECT_EQ(r.status, 200) << prompt << ": " << r.body;
        return r.status == 200 ? r.json()["data"].value("text", "") : "";
    }
};

TEST_F(AssistantOutside, NextPrayerInAPlaceGeocodesItThenWorksOutItsTimes) {
    const std::string text = ask("when is the next prayer in Leeds?");
    EXPECT_TRUE(has(text, "Next prayer: ")) << text;
    EXPECT_TRUE(has(text, "Today: Fajr ")) << text;
    const auto asked = up->requests(kSearch);
    ASSERT_FALSE(asked.empty());
    EXPECT_EQ(asked.back().param("q"), "Leeds");
}

TEST_F(AssistantOutside, EarthquakesNearAPlaceReadTheFeedAtItsCoordinates) {
    const std::string everywhere = ask("any recent earthquakes");
    EXPECT_TRUE(has(everywhere, "5 earthquakes:")) << "the whole feed, no place: " << everywhere;

    up->serve(kSearch, FakeUpstream::fixture("nominatim", "search_tokyo.json"));
    const std::string text = ask("earthquakes near Tokyo");
    EXPECT_TRUE(has(text, "2 earthquakes:")) << "the two within 500 km of Tokyo: " << text;
    EXPECT_TRUE(has(text, "Hachijo-jima")) << text;
    EXPECT_TRUE(has(text, "km away")) << text;
    EXPECT_FALSE(has(text, "Chile")) << text;
    EXPECT_EQ(up->requests(kSearch).back().param("q"), "Tokyo");
    up->serve(kSearch, FakeUpstream::fixture("nominatim", "search.json"));
}

TEST_F(AssistantOutside, McpListsEveryMethodOfTheExternalDataServices) {
    const std::map<std::string, std::vector<std::string>> methods = {
        {"flights", {"airport", "overhead", "status", "track"}},
        {"food", {"hygiene", "product", "search"}},
        {"hazards", {"alerts", "floods", "quakes"}},
        {"islam", {"read", "search"}},
        {"maps", {"area", "tile"}},
        {"markets", {"convert", "history", "list", "quote"}},
        {"places", {"address", "elevation", "geocode", "nearby", "search"}},
        {"prayer", {"qibla", "reflection", "saying", "search", "times", "verse"}},
        {"transit", {"arrivals", "buses", "feeds", "nearby", "status", "trains"}},
        {"weather", {"air", "forecast", "history", "lookup", "marine"}}};
    McpClient mcp(host->api_port(), "alice");
    mcp.initialize();
    const auto tools = mcp.tools();
    for (const auto& [service, names] : methods)
        for (const auto& m : names) {
            const auto it = tools.find(service + "_" + m);
            ASSERT_NE(it, tools.end()) << service << "_" << m;
            EXPECT_EQ(it->second["annotations"].value("readOnlyHint", false), true) << it->first;
            const bool computed_here = it->first == "prayer_times" || it->first == "prayer_qibla" ||
                                       it->first == "maps_area";
            EXPECT_EQ(it->second["annotations"].value("openWorldHint", false), !computed_here)
                << it->first << ": reaches an upstream unless computed here";
        }
}

}  // namespace
