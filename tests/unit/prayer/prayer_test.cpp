// The prayer service's handlers in the SDK's fake host: the computed methods against the clock and
// time zones, and the scripture methods over a fake Reminder answering the fixtures.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

#include "../support/plugin_under_test.hpp"

using namespace plugin_test;

namespace {

std::string fixture_text(const std::string& file) {
    std::ifstream in(std::string(PRAYER_FIXTURES) + "/" + file);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

class PrayerTest : public ::testing::Test {
protected:
    PrayerTest() : plugin(host.load(platform_plugin_entry)) {
        host.on_fetch = [this](const platform_http_request_t& req) {
            std::lock_guard<std::mutex> g(m);
            const std::string url = platform::copy(req.url);
            urls.push_back(url);
            FakeHost::FakeHttp r;
            r.code = PLATFORM_OK;
            auto it = routes.find(url);
            r.status = it == routes.end() ? 404 : 200;
            r.body = it == routes.end() ? "{\"error\":\"Not found\"}" : fixture_text(it->second);
            return r;
        };
    }
    void route(const std::string& path, const std::string& file) { routes[path] = file; }

    FakeHost host;
    FakePlugin plugin;
    std::mutex m;
    std::map<std::string, std::string> routes;
    std::vector<std::string> urls;
};

}  // namespace

TEST_F(PrayerTest, QiblaIsTheBearingFromNorth) {
    const json r = ok_json(plugin.call("qibla", {{"lat", 51.5074}, {"lon", -0.1278}}));
    EXPECT_NEAR(r["bearing"].get<double>(), 118.99, 0.05);
    EXPECT_EQ(plugin.call("qibla", {{"lat", 91}, {"lon", 0}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("qibla", {{"lat", 0}, {"lon", -180.5}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("qibla", {{"lat", 10}}).code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(PrayerTest, TimesForTodayInTheZone) {
    // 2026-01-01T00:00Z is still 31 December in New York: today there is the 31st.
    const json r = ok_json(
        plugin.call("times", {{"lat", 40.7128}, {"lon", -74.0059}, {"tz", "America/New_York"}}));
    EXPECT_EQ(r["date"], "2025-12-31");
    EXPECT_EQ(r["method"], "isna");
    for (const char* n : {"fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"})
        EXPECT_TRUE(std::regex_match(r["times"][n].get<std::string>(), std::regex("\\d\\d:\\d\\d")))
            << n << " " << r.dump();
    // 19:00 in New York, after isha (about 18:00): tomorrow's fajr is next.
    EXPECT_EQ(r["next"]["name"], "fajr");
    EXPECT_EQ(r["next"]["date"], "2026-01-01");
    // In UTC it is midnight of the 1st, before New York's fajr (about 11:00 UTC): fajr, today.
    const json utc = ok_json(plugin.call("times", {{"lat", 40.7128}, {"lon", -74.0059}}));
    EXPECT_EQ(utc["date"], "2026-01-01");
    EXPECT_EQ(utc["tz"], "UTC");
    EXPECT_EQ(utc["next"]["name"], "fajr");
    EXPECT_EQ(utc["next"]["time"], utc["times"]["fajr"]);
    EXPECT_EQ(utc["next"]["date"], "2026-01-01");
    // 16:00 in New York: after asr, before maghrib.
    host.now_ms = 1767214800000;  // 2025-12-31T21:00:00Z
    const json afternoon = ok_json(
        plugin.call("times", {{"lat", 40.7128}, {"lon", -74.0059}, {"tz", "America/New_York"}}));
    EXPECT_EQ(afternoon["next"]["name"], "maghrib");
    EXPECT_EQ(afternoon["next"]["time"], afternoon["times"]["maghrib"]);
}

TEST_F(PrayerTest, AfterIshaTheNextIsTomorrowsFajr) {
    host.now_ms = 1767222000000;  // 2025-12-31T23:00:00Z: after isha in London
    const json r = ok_json(plugin.call(
        "times", {{"lat", 51.5074}, {"lon", -0.1278}, {"tz", "Europe/London"}, {"method", "mwl"}}));
    EXPECT_EQ(r["date"], "2025-12-31");
    EXPECT_EQ(r["next"]["name"], "fajr");
    EXPECT_EQ(r["next"]["date"], "2026-01-01");
}

TEST_F(PrayerTest, TimesRefuseBadArguments) {
    const Reply tz = plugin.call("times", {{"lat", 1}, {"lon", 1}, {"tz", "Mars/Olympus_Mons"}});
    EXPECT_EQ(tz.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(tz.body.find("tz"), std::string::npos) << tz.body;
    EXPECT_EQ(plugin.call("times", {{"lat", 1}, {"lon", 1}, {"tz", "../../etc/passwd"}}).code,
              PLATFORM_INVALID_ARGUMENT);
    const Reply method = plugin.call("times", {{"lat", 1}, {"lon", 1}, {"method", "jafari"}});
    EXPECT_EQ(method.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(method.body.find("method"), std::string::npos) << method.body;
    EXPECT_EQ(plugin.call("times", {{"lon", 1}}).code, PLATFORM_INVALID_ARGUMENT);
    for (const char* m : {"isna", "mwl", "egypt", "karachi", "gulf", "diyanet", "muis", "jakim"})
        EXPECT_EQ(plugin.call("times", {{"lat", 1}, {"lon", 1}, {"method", m}}).code, PLATFORM_OK)
            << m;
}

TEST_F(PrayerTest, VerseAndChapter) {
    route("/api/quran/1", "quran_1.json");
    const json v = ok_json(plugin.call("verse", {{"chapter", 1}, {"verse", 6}}));
    EXPECT_EQ(v["text"], "Guide us to the straight path.");
    EXPECT_EQ(v["reference"], "Quran 1:6");
    const json c = ok_json(plugin.call("verse", {{"chapter", 1}}));
    EXPECT_EQ(c["verses"].size(), 7u);
    const Reply missing = plugin.call("verse", {{"chapter", 1}, {"verse", 8}});
    EXPECT_EQ(missing.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(missing.body.find("verse"), std::string::npos);
    EXPECT_EQ(plugin.call("verse", {{"chapter", 115}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("verse", {{"chapter", 0}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("verse", {{"chapter", 1}, {"verse", 0}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("verse", json::object()).code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(PrayerTest, SayingOfTheDay) {
    route("/api/hadith/books", "hadith_books.json");
    route("/api/hadith/1", "hadith_1.json");
    route("/api/hadith/2", "hadith_2.json");
    const json one = ok_json(plugin.call("saying", {{"book", 2}}));
    EXPECT_EQ(one["book"]["name"], "Belief");
    EXPECT_EQ(one["source"], "Sahih al-Bukhari");
    EXPECT_FALSE(one["text"].get<std::string>().empty());
    const json any = ok_json(plugin.call("saying", json::object()));
    EXPECT_EQ(any["collection"], "hadith");
    // The same day gives the same saying; the next day another book.
    EXPECT_EQ(ok_json(plugin.call("saying", json::object())), any);
    host.now_ms += 86400000;
    EXPECT_NE(ok_json(plugin.call("saying", json::object()))["book"], any["book"]);
    const Reply none = plugin.call("saying", {{"book", 3}});
    EXPECT_EQ(none.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(none.body.find("book"), std::string::npos);
    EXPECT_EQ(plugin.call("saying", {{"book", 0}}).code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(PrayerTest, ReflectionForTheDay) {
    route("/api/daily/2026-01-01", "daily.json");
    const json r = ok_json(plugin.call("reflection", json::object()));
    EXPECT_EQ(r["verse"]["heading"], "Al-Ikhlas - Sincerity - 112:1-4");
    EXPECT_EQ(r["saying"]["url"], "https://reminder.dev/hadith/2#9");
    EXPECT_EQ(r["name"]["collection"], "names");
    // A day the archive does not have: the current reminder.
    host.now_ms += 86400000;
    route("/api/daily", "daily.json");
    EXPECT_EQ(ok_json(plugin.call("reflection", json::object()))["hijri"], "22 Sha'ban 1448");
    EXPECT_EQ(urls.back(), "/api/daily");
}

TEST_F(PrayerTest, SearchAnswersExcerptsOnly) {
    route("/api/search", "search.json");
    const json r = ok_json(plugin.call("search", {{"query", "patience in hardship"}}));
    EXPECT_EQ(r["results"].size(), 4u);
    EXPECT_EQ(r.dump().find("answer"), std::string::npos);
    EXPECT_EQ(plugin.call("search", {{"query", ""}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("search", {{"query", std::string(501, 'a')}}).code,
              PLATFORM_INVALID_ARGUMENT);
    route("/api/search", "malformed.json");
    EXPECT_EQ(plugin.call("search", {{"query", "another"}}).code, PLATFORM_BAD_GATEWAY);
}
