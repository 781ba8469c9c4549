// The prayer and islam services (plugins/prayer, plugins/islam) through the real host on the
// `test` profile (manual business clock).
//   - Prayer times for London, Makkah, Jakarta and Oslo by every method, at two moments (a winter
//     morning, a midsummer night when fajr and isha fall back on the middle-of-the-night rule),
//     match the adhan package from npm (tests/e2e/prayer_oracle.mjs, an implementation the plugin
//     does not share) to the minute, `next` included; qibla bearings to 0.1°.
//   - Scripture from a fake Reminder (support/fake_upstream.hpp serving tests/fixtures/reminder/):
//     each method's happy path and limits, 5xx -> 502, a hang -> 504, a malformed body -> 502,
//     the cache answering a repeat, and 503 naming providers.reminder.base_url without it.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <platform/sdk/percent.hpp>
#include <sstream>

#include "build_tree.hpp"
#include "command.hpp"
#include "fake_upstream.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kE2e = platform::test::source_dir() + "/tests/e2e";

std::string num(double v) {
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}
int64_t ms(const std::string& rfc3339_utc) {  // "2027-03-01T01:00:00Z" only
    std::tm tm{};
    strptime(rfc3339_utc.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return static_cast<int64_t>(timegm(&tm)) * 1000;
}

struct City {
    const char* name;
    double lat, lon;
    const char* tz;
};
const City kCities[] = {
    {"London", 51.5074, -0.1278, "Europe/London"},
    {"Makkah", 21.4225, 39.8262, "Asia/Riyadh"},
    {"Jakarta", -6.2088, 106.8456, "Asia/Jakarta"},
    {"Oslo", 59.9139, 10.7522, "Europe/Oslo"},  // high latitude
};
const char* kMethods[] = {"isna", "mwl", "egypt", "karachi", "gulf", "diyanet", "muis", "jakim"};

// adhan's answers for `cases` at `now_ms` (tests/e2e/prayer_oracle.mjs, run with the Node of
// tests/e2e/node_modules, installed by scripts/e2e-deps.sh).
json oracle(int64_t now_ms, const json& cases) {
    const json input = {{"now_ms", now_ms}, {"cases", cases}};
    const char* path = std::getenv("PATH");
    const CommandResult r = run_command(
        {kE2e + "/node_modules/.bin/node", kE2e + "/prayer_oracle.mjs", input.dump()},
        {{"PATH", kE2e + "/node_modules/.bin:" + (path ? path : "/usr/bin:/bin")}}, 120);
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? json::parse(r.out) : json::array();
}

class Prayer : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() { start_with("prayer", {FakeUpstream::Entry("reminder")}); }

    void set_clock(const std::string& rfc3339_utc) {
        ASSERT_EQ(api.post_json("/clock/set", {{"unix_ms", ms(rfc3339_utc)}}).status, 200);
    }
    HttpResult get(const std::string& target) { return api.get("/api/v1/" + target, as("alice")); }
    json ok(const std::string& target) {
        const HttpResult r = get(target);
        EXPECT_EQ(r.status, 200) << target << ": " << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    // The status of `target`, and that its body names `word`.
    void fails(const std::string& target, int status, const std::string& word) {
        const HttpResult r = get(target);
        EXPECT_EQ(r.status, status) << target << ": " << r.body;
        EXPECT_NE(r.body.find(word), std::string::npos) << target << ": " << r.body;
    }
    static void serve(const std::string& path, const std::string& file) {
        up->serve("/reminder" + path, FakeUpstream::fixture("reminder", file));
    }
};

}  // namespace

TEST_F(Prayer, TimesMatchAdhanForEveryCityAndMethod) {
    for (const char* moment : {"2027-03-01T10:00:00Z", "2027-06-21T21:30:00Z"}) {
        set_clock(moment);
        json cases = json::array();
        for (const City& c : kCities)
            for (const char* m : kMethods)
                cases.push_back({{"lat", c.lat}, {"lon", c.lon}, {"tz", c.tz}, {"method", m}});
        const json want = oracle(ms(moment), cases);
        ASSERT_EQ(want.size(), cases.size());
        for (size_t i = 0; i < cases.size(); ++i) {
            const json& c = cases[i];
            const std::string what = std::string(moment) + " " + c.dump();
            const json got = ok("prayer/times?lat=" + num(c["lat"]) + "&lon=" + num(c["lon"]) +
                                "&tz=" + platform::percent_encode(c["tz"].get<std::string>()) +
                                "&method=" + c["method"].get<std::string>());
            EXPECT_EQ(got["times"], want[i]["times"]) << what;
            EXPECT_EQ(got["next"]["name"], want[i]["next"]["name"]) << what;
            EXPECT_EQ(got["next"]["time"], want[i]["next"]["time"]) << what;
        }
    }
}

TEST_F(Prayer, QiblaMatchesAdhan) {
    json cases = json::array();
    for (const City& c : kCities)
        cases.push_back({{"lat", c.lat}, {"lon", c.lon}, {"tz", "UTC"}, {"method", "isna"}});
    for (double lat : {-89.0, -33.8688, 0.0, 35.7750, 64.1466})
        for (double lon : {-179.5, -78.6336, 0.0, 151.2093})
            cases.push_back({{"lat", lat}, {"lon", lon}, {"tz", "UTC"}, {"method", "isna"}});
    const json want = oracle(ms("2027-03-01T10:00:00Z"), cases);
    ASSERT_EQ(want.size(), cases.size());
    for (size_t i = 0; i < cases.size(); ++i) {
        const json got =
            ok("prayer/qibla?lat=" + num(cases[i]["lat"]) + "&lon=" + num(cases[i]["lon"]));
        EXPECT_NEAR(got["bearing"].get<double>(), want[i]["qibla"].get<double>(), 0.1)
            << cases[i].dump();
    }
    EXPECT_NEAR(ok("prayer/qibla?lat=51.5074&lon=-0.1278")["bearing"].get<double>(), 118.99, 0.1);
}

TEST_F(Prayer, TimesLimits) {
    set_clock("2027-03-01T10:00:00Z");
    const json d = ok("prayer/times?lat=21.4225&lon=39.8262");
    EXPECT_EQ(d["tz"], "UTC");
    EXPECT_EQ(d["method"], "isna");
    EXPECT_EQ(d["date"], "2027-03-01");
    fails("prayer/times?lat=1&lon=1&tz=Mars%2FOlympus", 400, "tz");
    fails("prayer/times?lat=1&lon=1&method=jafari", 400, "method");
    fails("prayer/times?lat=90.5&lon=1", 400, "lat");
    fails("prayer/times?lat=1&lon=181", 400, "lon");
    fails("prayer/times?lon=1", 400, "lat");
    fails("prayer/qibla?lat=1", 400, "lon");
    fails("prayer/qibla?lat=-91&lon=0", 400, "lat");
}

TEST_F(Prayer, VerseAndChapter) {
    serve("/api/quran/1", "quran_1.json");
    const json v = ok("prayer/verse?chapter=1&verse=5");
    EXPECT_EQ(v["text"], "It is You we worship, and upon You we call for help.");
    EXPECT_EQ(v["reference"], "Quran 1:5");
    EXPECT_EQ(v["url"], "https://reminder.dev/quran/1#5");
    EXPECT_EQ(ok("prayer/verse?chapter=1")["verses"].size(), 7u);
    fails("prayer/verse?chapter=1&verse=8", 404, "verse");
    fails("prayer/verse?chapter=115", 400, "chapter");
    fails("prayer/verse?chapter=0", 400, "chapter");
    fails("prayer/verse?chapter=1&verse=0", 400, "verse");
    fails("prayer/verse", 400, "chapter");
}

TEST_F(Prayer, CacheAnswersARepeat) {
    serve("/api/quran/112", "quran_112.json");
    up->forget();
    EXPECT_EQ(ok("prayer/verse?chapter=112&verse=1")["verse"], 1);
    EXPECT_EQ(ok("prayer/verse?chapter=112&verse=2")["verse"], 2);
    EXPECT_EQ(up->requests("/reminder/api/quran/112").size(), 1u);
    // Each plugin keeps its own cache (in its own store).
    EXPECT_EQ(ok("islam/read?path=" +
                 platform::percent_encode("https://reminder.dev/quran/112#4"))["verse"],
              4);
    EXPECT_EQ(ok("islam/read?path=" + platform::percent_encode("/api/quran/112/3"))["verse"], 3);
    EXPECT_EQ(up->requests("/reminder/api/quran/112").size(), 2u);
    // The same search twice: one request.
    serve("/api/search", "search.json");
    up->forget();
    ok("islam/search?query=" + platform::percent_encode("cached query"));
    ok("islam/search?query=" + platform::percent_encode("cached query") + "&limit=2");
    EXPECT_EQ(up->requests("/reminder/api/search").size(), 1u);
}

TEST_F(Prayer, SayingFromOneBookOrAny) {
    set_clock("2027-03-01T10:00:00Z");
    serve("/api/hadith/books", "hadith_books.json");
    serve("/api/hadith/1", "hadith_1.json");
    serve("/api/hadith/2", "hadith_2.json");
    const json s = ok("prayer/saying?book=2");
    EXPECT_EQ(s["book"]["name"], "Belief");
    EXPECT_EQ(s["source"], "Sahih al-Bukhari");
    EXPECT_TRUE(s["reference"].get<std::string>().find("Book 2") != std::string::npos) << s;
    EXPECT_EQ(ok("prayer/saying")["collection"], "hadith");
    fails("prayer/saying?book=3", 404, "book");
    fails("prayer/saying?book=0", 400, "book");
}

TEST_F(Prayer, ReflectionForTheDay) {
    set_clock("2027-03-01T10:00:00Z");
    serve("/api/daily/2027-03-01", "daily.json");
    const json r = ok("prayer/reflection");
    EXPECT_EQ(r["verse"]["heading"], "Al-Ikhlas - Sincerity - 112:1-4");
    EXPECT_EQ(r["saying"]["path"], "/hadith/2#9");
    EXPECT_EQ(r["name"]["text"],
              "The name Ar-Rahman emphasizes Allah's absolute mercy and generosity.");
}

TEST_F(Prayer, SearchPostsTheQueryAndAnswersExcerpts) {
    serve("/api/search", "search.json");
    up->forget();
    const json r = ok("prayer/search?query=" + platform::percent_encode("patience in hardship"));
    ASSERT_EQ(r["results"].size(), 4u);
    EXPECT_EQ(r["results"][0]["reference"], "Quran 2:153 (Al-Baqarah)");
    EXPECT_EQ(r.dump().find("Patience (sabr) is praised"), std::string::npos) << "no answer";
    const auto sent = up->requests("/reminder/api/search");
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].method, "POST");
    EXPECT_EQ(json::parse(sent[0].body)["q"], "patience in hardship");
    fails("prayer/search", 400, "query");
    fails("prayer/search?query=" + std::string(501, 'a'), 400, "query");
}

TEST_F(Prayer, IslamSearchByCollectionAndLimit) {
    serve("/api/search", "search.json");
    const json all = ok("islam/search?query=patience");
    EXPECT_EQ(all["results"].size(), 4u);
    const json hadith = ok("islam/search?query=patience&collection=hadith");
    ASSERT_EQ(hadith["results"].size(), 1u);
    EXPECT_EQ(hadith["results"][0]["path"], "/api/hadith/2#9");
    EXPECT_EQ(ok("islam/search?query=patience&collection=quran")["results"].size(), 2u);
    EXPECT_EQ(ok("islam/search?query=patience&collection=seerah")["results"].size(), 0u);
    EXPECT_EQ(ok("islam/search?query=patience&limit=1")["results"].size(), 1u);
    EXPECT_EQ(ok("islam/search?query=patience&limit=50")["results"].size(), 4u);
    fails("islam/search?query=patience&limit=0", 400, "limit");
    fails("islam/search?query=patience&limit=51", 400, "limit");
    fails("islam/search?query=patience&collection=talmud", 400, "collection");
    fails("islam/search", 400, "query");
    serve("/api/search", "search_empty.json");
    EXPECT_EQ(ok("islam/search?query=nothing")["results"].size(), 0u);
}

TEST_F(Prayer, IslamReadsWhatSearchPoints) {
    serve("/api/quran/1", "quran_1.json");
    serve("/api/hadith/books", "hadith_books.json");
    serve("/api/hadith/2", "hadith_2.json");
    serve("/api/names/1", "name_1.json");
    serve("/api/names", "names.json");
    EXPECT_EQ(ok("islam/read?path=" + platform::percent_encode("/api/quran/1/7"))["reference"],
              "Quran 1:7");
    const json h = ok("islam/read?path=" + platform::percent_encode("/api/hadith/2#9"));
    EXPECT_EQ(h["number"], 9);
    EXPECT_EQ(h["narrator"], "Narrated Abu Huraira");
    EXPECT_EQ(ok("islam/read?path=" + platform::percent_encode("/api/hadith/2"))["hadiths"].size(),
              2u);
    EXPECT_EQ(
        ok("islam/read?path=" + platform::percent_encode("https://reminder.dev/names/1"))["name"],
        "Ar-Rahman");
    EXPECT_EQ(ok("islam/read?path=" + platform::percent_encode("/api/names#Al-Malik"))["meaning"],
              "The King");
    fails("islam/read?path=" + platform::percent_encode("/api/quran/1/9"), 404, "verse");
    fails("islam/read?path=" + platform::percent_encode("/api/hadith/2#1"), 404, "hadith");
    fails("islam/read?path=" + platform::percent_encode("/api/hadith/7"), 404, "book");
    fails("islam/read?path=" + platform::percent_encode("/api/names#Nobody"), 404, "Nobody");
    up->serve("/reminder/api/names/99", FakeUpstream::status(404, "{}"));
    fails("islam/read?path=" + platform::percent_encode("/api/names/99"), 404, "99");
    fails("islam/read?path=" + platform::percent_encode("https://evil.example/quran/1"), 400,
          "path");
    fails("islam/read?path=" + platform::percent_encode("/api/quran/115"), 400, "path");
    fails("islam/read", 400, "path");
}

TEST_F(Prayer, UpstreamFailuresMapToGatewayErrors) {
    up->serve("/reminder/api/quran/2", FakeUpstream::status(500, "{\"error\":\"boom\"}"));
    fails("prayer/verse?chapter=2", 502, "Reminder");
    up->serve("/reminder/api/quran/3", FakeUpstream::hang());
    fails("prayer/verse?chapter=3", 504, "Reminder");
    serve("/api/quran/4", "malformed.json");
    fails("prayer/verse?chapter=4", 502, "malformed");
    up->serve("/reminder/api/search", FakeUpstream::status(502, "bad gateway"));
    fails("islam/search?query=fails", 502, "Reminder");
    up->serve("/reminder/api/search", FakeUpstream::hang());
    fails("islam/search?query=hangs", 504, "Reminder");
    serve("/api/search", "malformed.json");
    fails("islam/search?query=malformed", 502, "malformed");
    serve("/api/search", "search_indexing.json");
    fails("prayer/search?query=indexing", 503, "Reminder");
}

// Without outbound.providers.reminder the scripture methods answer 503 naming the setting; the
// computed ones still answer.
class PrayerUnconfigured : public SharedHostTest {};

TEST_F(PrayerUnconfigured, ScriptureNamesTheMissingSetting) {
    for (const std::string t : {"prayer/verse?chapter=1", "prayer/saying", "prayer/reflection",
                                "prayer/search?query=mercy", "islam/search?query=mercy",
                                "islam/read?path=%2Fapi%2Fquran%2F1%2F1"}) {
        const HttpResult r = api.get("/api/v1/" + t, as("alice"));
        EXPECT_EQ(r.status, 503) << t << ": " << r.body;
        EXPECT_NE(r.body.find("providers.reminder.base_url"), std::string::npos) << t << r.body;
        EXPECT_NE(r.body.find("https://reminder.dev"), std::string::npos) << t << r.body;
    }
    EXPECT_EQ(api.get("/api/v1/prayer/qibla?lat=1&lon=2", as("alice")).status, 200);
    EXPECT_EQ(api.get("/api/v1/prayer/times?lat=1&lon=2", as("alice")).status, 200);
}
