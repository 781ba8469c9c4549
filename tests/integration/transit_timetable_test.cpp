// transit outside London: the published GTFS timetable named by providers.gtfs.base_url, served
// from loopback as the GTFS reference's example feed (tests/fixtures/gtfs/sample-feed.zip: nine
// stops around Beatty, Nevada, in America/Los_Angeles, running 2007-2010), with the business
// clock set inside it. Arrivals by id and by name once TfL's search finds nothing, nearby with
// the timetable's stops, feeds listing what is carried; a feed that is not a ZIP or an upstream
// failure is a 502, a download that hangs a 504, and neither is kept, so the next call loads the
// feed again.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fake_upstream.hpp"
#include "http_client.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

// Monday 2 June 2008, 08:10 in Los Angeles (PDT, UTC-7).
constexpr int64_t kMondayMorningMs = 1212419400000;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

FakeUpstream::Route sample_feed() {
    return FakeUpstream::fixture("gtfs", "sample-feed.zip", "application/zip");
}

// A host whose business clock reads kMondayMorningMs.
class TimetableHost : public UpstreamHostTest {
protected:
    static void start_at_monday_morning(const std::vector<FakeUpstream::Entry>& providers) {
        start_with("transit", providers);
        HttpClient client("127.0.0.1", host->api_port());
        ASSERT_EQ(client.post_json("/clock/set", {{"unix_ms", kMondayMorningMs}}).status, 200);
    }
};

class TransitTimetable : public TimetableHost {
protected:
    static void SetUpTestSuite() {
        start_at_monday_morning(
            {{"tfl"}, {"gtfs"}, {"mobility-database", "k", "Authorization: Bearer", true}});
        up->serve("/gtfs", sample_feed());
    }
    static void tfl_finds_nothing(const std::string& name) {
        up->serve("/tfl/StopPoint/Search/" + name,
                  FakeUpstream::fixture("tfl", "search_empty.json"));
    }
};

}  // namespace

TEST_F(TransitTimetable, ArrivalsElsewhereAreTheTimetablesNextCallsAndTheFeedIsFetchedOnce) {
    tfl_finds_nothing("BEATTY_AIRPORT");
    json a = ok("arrivals?stop=BEATTY_AIRPORT");
    EXPECT_EQ(a["source"], "timetable");
    EXPECT_EQ(a["provider"], "Demo Transit Authority");
    EXPECT_EQ(a["stop"]["id"], "BEATTY_AIRPORT");
    EXPECT_EQ(a["stop"]["name"], "Nye County Airport (Demo)");
    ASSERT_EQ(a["arrivals"].size(), 20u);
    const json& first = a["arrivals"][0];  // the shuttle, every 30 minutes, 20 after Stagecoach
    EXPECT_EQ(first["line"], "30");
    EXPECT_EQ(first["destination"], "Shuttle");
    EXPECT_EQ(first["mode"], "bus");
    EXPECT_EQ(first["scheduled"], "08:20");
    EXPECT_EQ(first["expected"], "2008-06-02T15:20:00Z");
    EXPECT_EQ(first["in_seconds"], 600);
    EXPECT_EQ(first["operator"], "Demo Transit Authority");
    EXPECT_EQ(a["arrivals"][1]["scheduled"], "08:50");
    bool ab2 = false;
    for (const json& x : a["arrivals"])
        if (x["trip"] == "AB2") ab2 = x["scheduled"] == "12:15" && x["line"] == "10";
    EXPECT_TRUE(ab2) << a.dump();
    EXPECT_EQ(a["timetable"]["timezone"], "America/Los_Angeles");
    EXPECT_EQ(a["timetable"]["valid_to"], "2010-12-31");
    ok("arrivals?stop=BEATTY_AIRPORT");
    EXPECT_EQ(up->requests("/gtfs").size(), 1u);  // held in memory, not fetched per call
}

TEST_F(TransitTimetable, ArrivalsByNameWhenTflFindsNoLondonStop) {
    tfl_finds_nothing("Bullfrog");
    json a = ok("arrivals?stop=Bullfrog");
    EXPECT_EQ(a["source"], "timetable");
    EXPECT_EQ(a["stop"]["id"], "BULLFROG");
    ASSERT_GE(a["arrivals"].size(), 2u);
    EXPECT_EQ(a["arrivals"][0]["trip"], "AB1");  // arrives 08:10, leaves 08:15
    EXPECT_EQ(a["arrivals"][0]["scheduled"], "08:15");
    EXPECT_EQ(a["arrivals"][0]["destination"], "to Bullfrog");
    EXPECT_EQ(a["arrivals"][1]["trip"], "BFC1");
    EXPECT_EQ(up->requests("/tfl/StopPoint/Search/Bullfrog").size(), 1u);
}

TEST_F(TransitTimetable, AStopNeitherKnowsIs404) {
    fails("arrivals?stop=1800SB12345", 404, "1800SB12345");
    tfl_finds_nothing("Piccadilly");
    fails("arrivals?stop=Piccadilly", 404, "Piccadilly");
}

TEST_F(TransitTimetable, NearbyAddsTheTimetablesStopsNearestFirst) {
    up->serve("/tfl/StopPoint", FakeUpstream::status(200, R"({"stopPoints":[],"total":0})"));
    json n = ok("nearby?lat=36.915682&lon=-116.751677&radius=2000");
    EXPECT_EQ(n["sources"], json::array({"TfL", "timetable"}));
    ASSERT_EQ(n["stops"].size(), 5u) << n.dump();
    EXPECT_EQ(n["stops"][0]["id"], "STAGECOACH");
    EXPECT_EQ(n["stops"][0]["distance_m"], 0);
    EXPECT_EQ(n["stops"][0]["lines"], json::array({"30", "40"}));
    EXPECT_EQ(n["stops"][0]["modes"], json::array({"bus"}));
    EXPECT_EQ(n["stops"][1]["id"], "NANAA");
    for (size_t i = 1; i < n["stops"].size(); ++i)
        EXPECT_LE(n["stops"][i - 1]["distance_m"].get<double>(),
                  n["stops"][i]["distance_m"].get<double>());
    json close = ok("nearby?lat=36.915682&lon=-116.751677&radius=500");
    ASSERT_EQ(close["stops"].size(), 1u);
    // TfL failing leaves the timetable's answer, saying what failed.
    up->serve("/tfl/StopPoint", FakeUpstream::status(500, "{}"));
    json partial = ok("nearby?lat=36.915682&lon=-116.751677&radius=300");
    EXPECT_EQ(partial["sources"], json::array({"timetable"}));
    ASSERT_EQ(partial["failed"].size(), 1u);
    EXPECT_EQ(partial["failed"][0]["source"], "TfL");
    EXPECT_EQ(partial["stops"].size(), 1u);
}

TEST_F(TransitTimetable, FeedsListTheTimetableCarriedForItsCountry) {
    const std::string catalogue = "/mobility-database/v1/gtfs_feeds";
    up->serve(catalogue, FakeUpstream::status(500, "{}"));
    json alone = ok("feeds?country=US");  // the catalogue failing still shows what is carried
    ASSERT_EQ(alone["carried"].size(), 1u);
    EXPECT_TRUE(alone["available"].is_null());
    EXPECT_TRUE(has(alone["available_error"].get<std::string>(), "Mobility Database"));
    up->serve(catalogue, FakeUpstream::fixture("mobility-database", "feeds.json"));
    json us = ok("feeds?country=us");
    ASSERT_EQ(us["carried"].size(), 1u);
    const json& t = us["carried"][0];
    EXPECT_EQ(t["country"], "US");
    EXPECT_EQ(t["agencies"], json::array({"Demo Transit Authority"}));
    EXPECT_EQ(t["stops"], 9);
    EXPECT_EQ(t["trips"], 11);
    EXPECT_EQ(t["size_bytes"], FakeUpstream::fixture_text("gtfs", "sample-feed.zip").size());
    EXPECT_EQ(t["setting"], "providers.gtfs.base_url");
    EXPECT_TRUE(us["available"].is_array());
    EXPECT_TRUE(ok("feeds?country=GB")["carried"].empty());  // its agencies keep Los Angeles time
}

namespace {

class TransitTimetableBroken : public TimetableHost {
protected:
    static void SetUpTestSuite() {
        start_at_monday_morning(
            {{"gtfs"}, {"mobility-database", "k", "Authorization: Bearer", true}});
    }
};

}  // namespace

TEST_F(TransitTimetableBroken, AFeedThatIsNotAZipFailsOrHangsIsAnErrorAndTheNextCallTriesAgain) {
    up->serve("/gtfs", FakeUpstream::status(200, "<html>moved</html>", "text/html"));
    const HttpResult bad = get("arrivals?stop=1800SB12345");
    EXPECT_EQ(bad.status, 502) << bad.body;
    EXPECT_TRUE(has(bad.body, "GTFS") && has(bad.body, "not a ZIP archive")) << bad.body;
    up->serve("/gtfs", FakeUpstream::status(500, "down"));
    fails("arrivals?stop=1800SB12345", 502, "GTFS timetable answered 500");
    up->serve("/gtfs", FakeUpstream::hang());  // the profile's providers.gtfs.timeout_ms: 1500
    fails("arrivals?stop=1800SB12345", 504, "GTFS timetable did not answer in time");
    up->serve("/gtfs", FakeUpstream::status(500, "down"));
    up->serve("/mobility-database/v1/gtfs_feeds",
              FakeUpstream::fixture("mobility-database", "feeds.json"));
    json f = ok("feeds?country=US");  // the failure is listed as carried-but-failing
    ASSERT_EQ(f["carried"].size(), 1u);
    EXPECT_TRUE(has(f["carried"][0]["error"].get<std::string>(), "500")) << f.dump();
    up->serve("/gtfs", sample_feed());
    json a = ok("arrivals?stop=BULLFROG");  // no TfL in this profile: straight to the timetable
    EXPECT_EQ(a["source"], "timetable");
    EXPECT_EQ(up->requests("/gtfs").size(), 5u);
}
