// The weather service (plugins/weather/) through the real host on the `test` profile, its five
// Open-Meteo providers pointed at a fake upstream on loopback (support/fake_upstream.hpp) serving
// fixtures in Open-Meteo's format (tests/fixtures/open-meteo*/). Each method's answer and limits;
// for the family, what an upstream 5xx, 400, timeout and malformed body become; the cache (a
// repeat is not fetched again until the TTL has passed on the business clock; no-store is not
// kept); a host without the providers answers 503 naming the setting; MCP lists every method, the
// CLI looks up a place and the offline assistant (model-builtin) answers a weather question.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>

#include "command.hpp"
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
const char* kForecast = "/open-meteo/v1/forecast";
const char* kAir = "/open-meteo-air/v1/air-quality";
const char* kMarine = "/open-meteo-marine/v1/marine";
const char* kArchive = "/open-meteo-archive/v1/archive";
const char* kGeocoding = "/open-meteo-geocoding/v1/search";

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

class Weather : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() {
        start_with("weather", {{"open-meteo"},
                               {"open-meteo-air"},
                               {"open-meteo-marine"},
                               {"open-meteo-archive"},
                               {"open-meteo-geocoding"}});
        // Once: tests only move the clock forward (an MCP session would not survive it going
        // back), and each uses its own points, so no test's cache answers another's.
        HttpClient c("127.0.0.1", host->api_port());
        ASSERT_EQ(c.post_json("/clock/set", {{"unix_ms", kNow}}).status, 200);
    }
    void SetUp() override {
        up->serve(kForecast, FakeUpstream::fixture("open-meteo", "forecast.json"));
        up->serve(kAir, FakeUpstream::fixture("open-meteo-air", "air.json"));
        up->serve(kMarine, FakeUpstream::fixture("open-meteo-marine", "marine.json"));
        up->serve(kArchive, FakeUpstream::fixture("open-meteo-archive", "archive.json"));
        up->serve(kGeocoding, FakeUpstream::fixture("open-meteo-geocoding", "london.json"));
        up->forget();
    }

    // GET /api/v1/weather/<method>?<query>; each test uses its own point so the cache of one test
    // does not answer another's.
    HttpResult call(const std::string& method, const std::string& query) {
        return api.get("/api/v1/weather/" + method + "?" + query);
    }
    json ok(const HttpResult& r) {
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    // The last request to `path` (the test fails, rather than crashes, when there is none).
    static FakeUpstream::Request last(const std::string& path) {
        const auto seen = up->requests(path);
        EXPECT_FALSE(seen.empty()) << "no request to " << path;
        return seen.empty() ? FakeUpstream::Request{} : seen.back();
    }
    void refused(const HttpResult& r, int status, const std::string& part) {
        EXPECT_EQ(r.status, status) << r.body;
        EXPECT_TRUE(has(r.body, part)) << "expected '" << part << "' in " << r.body;
    }
};

TEST_F(Weather, ForecastGivesNowTodaysDaylightAndSevenDays) {
    const json f = ok(call("forecast", "lat=51.5&lon=-0.12"));
    EXPECT_EQ(f["current"]["conditions"], "Overcast");
    EXPECT_DOUBLE_EQ(f["current"]["temperature_c"].get<double>(), 8.4);
    EXPECT_EQ(f["current"]["is_day"], true);
    ASSERT_EQ(f["days"].size(), 7u);
    EXPECT_EQ(f["days"][1]["date"], "2026-11-30");
    EXPECT_EQ(f["days"][1]["conditions"], "Moderate rain");
    EXPECT_EQ(f["days"][1]["precipitation_chance_pct"], 85);
    EXPECT_EQ(f["today"]["sunset"], "2026-11-29T15:55");
    EXPECT_EQ(f["today"]["daylight_left_minutes"], 100) << "15:55 - 14:15";
    EXPECT_EQ(f["place"]["timezone"], "Europe/London");

    const auto seen = up->requests(kForecast);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].param("latitude"), "51.5");
    EXPECT_EQ(seen[0].param("longitude"), "-0.12");
    EXPECT_EQ(seen[0].param("timezone"), "auto");
    EXPECT_TRUE(has(seen[0].param("daily"), "sunset"));
}

TEST_F(Weather, APointOutsideTheGlobeOrMissingIsRefusedBeforeAnyFetch) {
    refused(call("forecast", "lat=91&lon=0"), 400, "lat");
    refused(call("forecast", "lat=10&lon=-181"), 400, "lon");
    refused(call("forecast", "lat=10"), 400, "lon");
    refused(call("air", "lon=10"), 400, "lat");
    EXPECT_TRUE(up->requests().empty());
}

TEST_F(Weather, ARepeatComesFromTheCacheUntilItsTimeHasPassed) {
    ok(call("forecast", "lat=40.1&lon=3.2"));
    ok(call("forecast", "lat=40.1&lon=3.2"));
    EXPECT_EQ(up->requests(kForecast).size(), 1u) << "the repeat is answered from the cache";
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 15 * 60 * 1000 + 1000}}).status, 200);
    ok(call("forecast", "lat=40.1&lon=3.2"));
    EXPECT_EQ(up->requests(kForecast).size(), 2u) << "fetched again after the 15-minute TTL";
}

TEST_F(Weather, CacheControlFromTheUpstreamIsHonoured) {
    auto route = FakeUpstream::fixture("open-meteo-air", "air.json");
    route.headers = {{"Cache-Control", "no-store"}};
    up->serve(kAir, route);
    ok(call("air", "lat=41&lon=2"));
    ok(call("air", "lat=41&lon=2"));
    EXPECT_EQ(up->requests(kAir).size(), 2u) << "no-store: nothing kept";

    route.headers = {{"Cache-Control", "public, max-age=60"}};
    up->serve(kAir, route);
    up->forget();
    ok(call("air", "lat=42&lon=2"));
    ok(call("air", "lat=42&lon=2"));
    EXPECT_EQ(up->requests(kAir).size(), 1u);
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 61 * 1000}}).status, 200);
    ok(call("air", "lat=42&lon=2"));
    EXPECT_EQ(up->requests(kAir).size(), 2u) << "max-age=60 rather than the 30-minute default";
}

TEST_F(Weather, UpstreamFailuresAreNamedNeverGuessed) {
    up->serve(kForecast, FakeUpstream::status(500, "{\"error\":true,\"reason\":\"boom\"}"));
    refused(call("forecast", "lat=1&lon=1"), 502, "Open-Meteo answered 500");
    up->serve(kForecast,
              FakeUpstream::fixture("open-meteo", "error.json", "application/json", 400));
    refused(call("forecast", "lat=1&lon=2"), 502, "Latitude must be in range");
    up->serve(kForecast, FakeUpstream::status(200, "<html>not json</html>", "text/html"));
    refused(call("forecast", "lat=1&lon=3"), 502, "Open-Meteo answered a malformed body");
    up->serve(kForecast,
              FakeUpstream::status(200, "{\"current\":{\"time\":\"2026-11-29T14:00\"}}"));
    refused(call("forecast", "lat=1&lon=4"), 502, "daily: missing");
    up->serve(kForecast, FakeUpstream::status(503, "down"));
    refused(call("forecast", "lat=1&lon=5"), 503, "Open-Meteo is not answering now");
    up->serve(kForecast, FakeUpstream::hang());
    refused(call("forecast", "lat=1&lon=6"), 504, "Open-Meteo did not answer in time");
    // A failure is not cached: the next call asks again.
    up->serve(kForecast, FakeUpstream::fixture("open-meteo", "forecast.json"));
    ok(call("forecast", "lat=1&lon=1"));
}

TEST_F(Weather, AirGivesPollutantsAndPollenWhereCounted) {
    const json a = ok(call("air", "lat=51.5&lon=-0.1"));
    EXPECT_EQ(a["aqi"]["european"], 32);
    EXPECT_EQ(a["aqi"]["us"], 41);
    EXPECT_DOUBLE_EQ(a["pm2_5"].get<double>(), 9.8);
    EXPECT_DOUBLE_EQ(a["nitrogen_dioxide"].get<double>(), 27.4);
    EXPECT_DOUBLE_EQ(a["pollen"]["grass"].get<double>(), 0.3);
    up->serve(kAir, FakeUpstream::fixture("open-meteo-air", "air_no_pollen.json"));
    const json us = ok(call("air", "lat=40.7&lon=-74"));
    EXPECT_FALSE(us.contains("pollen")) << us.dump();
    EXPECT_EQ(us["aqi"]["us"], 41);
}

TEST_F(Weather, MarineTakesOneToSevenDaysAndSaysWhenThereIsNoSea) {
    const json m = ok(call("marine", "lat=54.54&lon=10.2"));
    EXPECT_DOUBLE_EQ(m["current"]["sea_temperature_c"].get<double>(), 8.2);
    EXPECT_DOUBLE_EQ(m["days"][1]["wave_height_max_m"].get<double>(), 1.36);
    EXPECT_EQ(last(kMarine).param("forecast_days"), "3") << "the default";
    ok(call("marine", "lat=54.54&lon=10.3&days=7"));
    EXPECT_EQ(last(kMarine).param("forecast_days"), "7");
    refused(call("marine", "lat=54.54&lon=10.2&days=8"), 400, "days");
    refused(call("marine", "lat=54.54&lon=10.2&days=0"), 400, "days");
    up->serve(kMarine, FakeUpstream::fixture("open-meteo-marine", "inland.json"));
    refused(call("marine", "lat=48.1&lon=11.58"), 404, "no sea data");
}

TEST_F(Weather, HistorySumsTheRecordsAndSaysHowFarTheyGo) {
    const json h = ok(call("history", "lat=51.49&lon=-0.13&start=2026-11-01&end=2026-11-07"));
    EXPECT_EQ(h["days"], 7);
    EXPECT_DOUBLE_EQ(h["rainfall_mm"].get<double>(), 17.9);
    EXPECT_EQ(h["wettest"]["date"], "2026-11-03");
    EXPECT_EQ(h["high_c"]["date"], "2026-11-03");
    EXPECT_EQ(h["low_c"]["date"], "2026-11-05");
    EXPECT_EQ(h["rain_days"], 3);
    EXPECT_DOUBLE_EQ(h["mean_c"].get<double>(), 9.3);
    EXPECT_EQ(last(kArchive).param("start_date"), "2026-11-01");

    up->serve(kArchive, FakeUpstream::fixture("open-meteo-archive", "behind.json"));
    const json b = ok(call("history", "lat=51.49&lon=-0.13&start=2026-11-22&end=2026-11-28"));
    EXPECT_EQ(b["days_with_records"], 3);
    EXPECT_EQ(b["latest_record"], "2026-11-24");
    up->serve(kArchive, FakeUpstream::fixture("open-meteo-archive", "no_records.json"));
    refused(call("history", "lat=51.49&lon=-0.13&start=2026-11-27&end=2026-11-28"), 404,
            "records run a few days behind");
}

TEST_F(Weather, HistoryRefusesDatesItCannotHave) {
    const std::string p = "lat=51.49&lon=-0.13";
    refused(call("history", p + "&start=2026-11-07&end=2026-11-01"), 400, "end: before start");
    refused(call("history", p + "&start=2026-11-01&end=2026-11-30"), 400, "end: after today");
    refused(call("history", p + "&start=2024-11-01&end=2025-11-03"), 400, "end: at most 366");
    refused(call("history", p + "&start=1939-12-31&end=1940-01-02"), 400, "start: records begin");
    refused(call("history", p + "&start=2026-02-30&end=2026-03-02"), 400, "start: 2026-02-30");
    refused(call("history", p + "&start=1%20Nov&end=2026-11-02"), 400, "start");
    refused(call("history", p + "&start=2026-11-01"), 400, "end");
    EXPECT_TRUE(up->requests(kArchive).empty());
    ok(call("history", p + "&start=2025-11-01&end=2026-11-01"));  // 366 days, counting both
}

TEST_F(Weather, LookupFindsThePlaceThenItsDayAndRain) {
    const json all = ok(call("lookup", "place=London%20Town"));
    EXPECT_EQ(all["place"]["name"], "London");
    EXPECT_EQ(all["place"]["country"], "United Kingdom");
    EXPECT_EQ(all["days"].size(), 7u);
    EXPECT_EQ(last(kGeocoding).param("name"), "London Town");
    EXPECT_DOUBLE_EQ(all["place"]["lat"].get<double>(), 51.50853);

    const json tomorrow = ok(call("lookup", "place=London&day=tomorrow&focus=rain"));
    EXPECT_EQ(tomorrow["day"]["date"], "2026-11-30");
    EXPECT_FALSE(tomorrow.contains("current"));
    EXPECT_EQ(tomorrow["rain"]["likely"], true);
    EXPECT_EQ(tomorrow["rain"]["chance_pct"], 85);
    EXPECT_DOUBLE_EQ(tomorrow["rain"]["total_mm"].get<double>(), 4.1);
    ASSERT_FALSE(tomorrow["rain"]["wet_hours"].empty());
    EXPECT_EQ(tomorrow["rain"]["wet_hours"][0]["time"], "13:00");

    const json today = ok(call("lookup", "day=today&focus=rain"));
    EXPECT_EQ(today["place"]["name"], "London") << "the default place";
    EXPECT_EQ(today["day"]["date"], "2026-11-29");
    EXPECT_EQ(today["rain"]["likely"], false);

    refused(call("lookup", "place=London&day=yesterday"), 400, "day");
    refused(call("lookup", "place=London&focus=snow"), 400, "focus");
    up->serve(kGeocoding, FakeUpstream::fixture("open-meteo-geocoding", "none.json"));
    refused(call("lookup", "place=Nowhereville"), 404, "no place called 'Nowhereville'");
}

TEST_F(Weather, McpListsEveryMethodAndTheCliLooksUpAPlace) {
    McpClient mcp(host->api_port(), "alice");
    mcp.initialize();
    const auto tools = mcp.tools();
    for (const char* m : {"forecast", "air", "marine", "history", "lookup"})
        EXPECT_TRUE(tools.count(std::string("weather_") + m)) << m;
    const json called = mcp.call_tool("weather_lookup", {{"place", "London"}, {"day", "today"}});
    EXPECT_NE(called.dump().find("2026-11-29"), std::string::npos) << called.dump();

    TempDir home;
    auto r = run_cli(*host, home.path(), "alice", {"weather", "lookup", "--place", "London"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(has(r.out, "London")) << r.out;
    EXPECT_TRUE(has(r.out, "Overcast")) << r.out;
}

TEST_F(Weather, TheOfflineAssistantAnswersAWeatherQuestionFromTheService) {
    const auto r = api.post_json(
        "/api/v1/agent/ask", {{"prompt", "what's the weather in London tomorrow?"}}, as("alice"));
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string text = r.json()["data"].value("text", "");
    EXPECT_TRUE(has(text, "London tomorrow (2026-11-30): Moderate rain, 6.8 to 10.2 °C")) << text;
}

// A host with no outbound providers: every method names the setting it lacks.
class WeatherUnconfigured : public SharedHostTest {};

TEST_F(WeatherUnconfigured, EachMethodAnswers503NamingTheMissingProvider) {
    auto expect = [&](const std::string& method, const std::string& query,
                      const std::string& setting) {
        auto r = api.get("/api/v1/weather/" + method + "?" + query);
        EXPECT_EQ(r.status, 503) << method << ": " << r.body;
        EXPECT_TRUE(has(r.body, setting)) << r.body;
        EXPECT_TRUE(has(r.body, "https://")) << "offers the public API: " << r.body;
    };
    expect("forecast", "lat=1&lon=1", "providers.open-meteo.base_url is not set");
    expect("air", "lat=1&lon=1", "providers.open-meteo-air.base_url");
    expect("marine", "lat=1&lon=1", "providers.open-meteo-marine.base_url");
    expect("history", "lat=1&lon=1&start=2020-01-01&end=2020-01-02",
           "providers.open-meteo-archive.base_url");
    expect("lookup", "place=Paris", "providers.open-meteo-geocoding.base_url");
}

}  // namespace
