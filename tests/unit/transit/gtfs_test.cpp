// transit's GTFS reading: the CSV tables as published feeds write them, the fixture feed (the
// GTFS reference's example, tests/fixtures/gtfs) read whole, and feeds built here for what the
// example lacks — trips past midnight, a DST change, stations with platforms, damage.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../../plugins/transit/gtfs_csv.hpp"
#include "../../../plugins/transit/gtfs_timetable.hpp"
#include "common/time/civil.hpp"
#include "common/time/rfc3339.hpp"
#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"
#include "zip_writer.hpp"

using common::upstream::Malformed;
using platform::test::ZipWriter;
using namespace transit;

namespace {

std::vector<std::vector<std::string>> rows_of(const std::string& text, size_t chunk,
                                              const std::vector<std::string>& columns) {
    std::vector<std::vector<std::string>> out;
    GtfsTable t("t.txt", [&](const GtfsRow& r) {
        std::vector<std::string> row;
        for (const auto& c : columns) row.emplace_back(r.get(c));
        out.push_back(row);
    });
    for (size_t at = 0; at < text.size(); at += chunk) t.feed(text.substr(at, chunk));
    t.finish();
    return out;
}

int64_t at(const char* rfc3339) {
    return common::time::parse_rfc3339(rfc3339)->utc_s;
}

std::unique_ptr<GtfsTimetable> sample() {
    return GtfsTimetable::read(platform::test::fixture_text("gtfs", "sample-feed.zip"));
}

// A one-agency feed in `zone` with the tables given (agency.txt made here).
std::string feed(const std::string& zone,
                 const std::vector<std::pair<std::string, std::string>>& tables) {
    ZipWriter z;
    z.add("agency.txt",
          "agency_name,agency_url,agency_timezone\nTest Buses,https://x.test," + zone + "\n");
    for (const auto& [name, text] : tables) z.add(name, text);
    return z.finish();
}

const char* const kRoutes = "route_id,route_short_name,route_long_name,route_type\nR,7,Seven,3\n";
const char* const kDaily2026 =
    "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
    "S,1,1,1,1,1,1,1,20260101,20261231\n";

std::vector<std::string> ids(const GtfsTimetable& t, const std::vector<uint32_t>& stops) {
    std::vector<std::string> out;
    for (uint32_t s : stops) out.push_back(t.stop(s).id);
    return out;
}

}  // namespace

TEST(GtfsCsv, QuotesCrlfByteOrderMarkAndShortRecordsInAnyChunking) {
    const std::string text =
        "\xEF\xBB\xBF stop_id , stop_name,stop_desc\r\n"
        "A,\"Main St, \"\"North\"\"\",x\r\n"
        "\r\n"
        "B,Short\r\n"
        "C,\"Two\r\nlines\",y";  // no line end at the end
    for (size_t chunk : {1u, 2u, 3u, 7u, 1000u}) {
        auto rows = rows_of(text, chunk, {"stop_id", "stop_name", "stop_desc", "absent"});
        ASSERT_EQ(rows.size(), 3u) << chunk;
        EXPECT_EQ(rows[0], (std::vector<std::string>{"A", "Main St, \"North\"", "x", ""}));
        EXPECT_EQ(rows[1], (std::vector<std::string>{"B", "Short", "", ""}));
        EXPECT_EQ(rows[2], (std::vector<std::string>{"C", "Two\r\nlines", "y", ""}));
    }
    EXPECT_EQ(rows_of("a,b\n1,x\"y\n", 4, {"b"})[0][0], "x\"y");  // a quote inside is text
    EXPECT_THROW(rows_of("a\n\"open", 100, {"a"}), Malformed);
}

TEST(GtfsCsv, TimesAndDates) {
    EXPECT_EQ(gtfs_seconds("6:00:00"), 6 * 3600);
    EXPECT_EQ(gtfs_seconds("07:59:59"), 7 * 3600 + 59 * 60 + 59);
    EXPECT_EQ(gtfs_seconds("25:30:00"), 25 * 3600 + 30 * 60);
    EXPECT_EQ(gtfs_seconds(" 08:05:00 "), 8 * 3600 + 300);
    for (const char* bad : {"", "8:00", "8:60:00", "8:00:61", "x:00:00", "8:0:00", "-1:00:00"})
        EXPECT_EQ(gtfs_seconds(bad), -1) << bad;
    EXPECT_EQ(gtfs_day("19700102"), 1);
    EXPECT_EQ(gtfs_day("20070604"), 13668);
    for (const char* bad : {"", "2007064", "20070231", "2007-06-04", "20071301"})
        EXPECT_EQ(gtfs_day(bad), -1) << bad;
}

TEST(GtfsTimetable, TheReferenceFeedReadsWhole) {
    auto t = sample();
    const auto s = t->summary();
    EXPECT_EQ(s["agencies"], nlohmann::json::array({"Demo Transit Authority"}));
    EXPECT_EQ(s["timezone"], "America/Los_Angeles");
    EXPECT_EQ(s["country"], "US");
    EXPECT_EQ(s["stops"], 9);
    EXPECT_EQ(s["routes"], 5);
    EXPECT_EQ(s["trips"], 11);
    EXPECT_EQ(s["calls"], 28);
    EXPECT_EQ(s["valid_from"], "2007-01-01");
    EXPECT_EQ(s["valid_to"], "2010-12-31");
    EXPECT_EQ(s["size_bytes"], platform::test::fixture_text("gtfs", "sample-feed.zip").size());
    EXPECT_EQ(s["unzipped_bytes"], 3460);
    EXPECT_EQ(GtfsTimetable::mode_name(3), "bus");
    EXPECT_EQ(GtfsTimetable::mode_name(715), "bus");
    EXPECT_EQ(GtfsTimetable::mode_name(900), "tram");
    EXPECT_EQ(GtfsTimetable::mode_name(42), "other");
}

TEST(GtfsTimetable, StopsByIdCodeAndName) {
    auto t = sample();
    EXPECT_EQ(ids(*t, t->find("BULLFROG")), std::vector<std::string>{"BULLFROG"});
    EXPECT_EQ(ids(*t, t->find("bullfrog")), std::vector<std::string>{"BULLFROG"});
    EXPECT_EQ(ids(*t, t->find("Nye County Airport (Demo)")),
              std::vector<std::string>{"BEATTY_AIRPORT"});
    std::vector<std::string> also;
    auto ave = t->find("north ave", &also);  // two names of one length contain it: the first
    EXPECT_EQ(ids(*t, ave), std::vector<std::string>{"NADAV"});
    EXPECT_EQ(also, std::vector<std::string>{"North Ave / N A Ave (Demo)"});
    EXPECT_EQ(ids(*t, t->find("Furnace")), std::vector<std::string>{"FUR_CREEK_RES"});
    EXPECT_TRUE(t->find("Piccadilly").empty());
}

TEST(GtfsTimetable, NextOnAWeekdayCountsFrequencyTripsAndTripEnds) {
    auto t = sample();
    const int64_t now = at("2008-06-02T15:10:00Z");  // Monday 08:10 in Los Angeles (PDT)
    auto next = t->next(t->find("BEATTY_AIRPORT"), now, 20, 24 * 3600);
    ASSERT_EQ(next.size(), 20u);
    // The shuttle leaves Stagecoach every 30 minutes from 06:00 and reaches the airport 20 later.
    EXPECT_EQ(next[0].at_s, at("2008-06-02T15:20:00Z"));
    EXPECT_EQ(t->trip(next[0].trip).id, "STBA");
    EXPECT_EQ(next[1].at_s, at("2008-06-02T15:50:00Z"));
    bool ab2 = false;  // AB2 ends here at 12:15
    for (const auto& n : next)
        if (t->trip(n.trip).id == "AB2") ab2 = n.at_s == at("2008-06-02T19:15:00Z");
    EXPECT_TRUE(ab2);
    for (const auto& n : next) EXPECT_NE(t->trip(n.trip).id.substr(0, 4), "AAMV");  // weekends
    for (size_t i = 1; i < next.size(); ++i) EXPECT_LE(next[i - 1].at_s, next[i].at_s);
}

TEST(GtfsTimetable, WeekendServicesAndRemovedDates) {
    auto t = sample();
    auto sat = t->next(t->find("BEATTY_AIRPORT"), at("2008-06-07T14:30:00Z"), 5, 3600);
    std::vector<std::string> trips;  // Saturday 07:30 to 08:30
    for (const auto& n : sat) trips.push_back(t->trip(n.trip).id);
    EXPECT_EQ(trips,
              (std::vector<std::string>{"STBA", "AB1", "AAMV1", "STBA"}));  // ties in feed order
    // 2007-06-04, a Monday, has FULLW removed: nothing runs that day; Tuesday's first shuttle is next.
    auto removed = t->next(t->find("BEATTY_AIRPORT"), at("2007-06-04T13:00:00Z"), 1, 48 * 3600);
    ASSERT_EQ(removed.size(), 1u);
    EXPECT_EQ(removed[0].at_s, at("2007-06-05T13:20:00Z"));
    EXPECT_TRUE(t->next(t->find("AMV"), at("2011-01-03T12:00:00Z"), 5, 24 * 3600).empty());
}

TEST(GtfsTimetable, TripsPastMidnightAndAcrossTheClockChange) {
    auto t = GtfsTimetable::read(
        feed("Europe/London",
             {{"stops.txt", "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,53.8,-1.55\n"},
              {"routes.txt", kRoutes},
              {"calendar.txt", kDaily2026},
              {"trips.txt", "route_id,service_id,trip_id\nR,S,LATE\nR,S,MORNING\n"},
              {"stop_times.txt",
               "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
               "LATE,25:30:00,25:30:00,A,1\nMORNING,09:00:00,09:00:00,A,1\n"}}));
    auto a = t->find("A");
    // 22:00 UTC on 10 June is 23:00 BST: 10 June's 25:30 trip leaves at 01:30 BST on the 11th.
    auto june = t->next(a, at("2026-06-10T22:00:00Z"), 5, 3 * 3600);
    ASSERT_EQ(june.size(), 1u);
    EXPECT_EQ(june[0].at_s, at("2026-06-11T00:30:00Z"));
    // 29 March 2026 the clocks go forward at 01:00 UTC; times count from noon minus 12 hours,
    // so 09:00 is 09:00 BST (08:00 UTC), and that day's 25:30 is 01:30 BST on the 30th.
    auto spring = t->next(a, at("2026-03-29T07:00:00Z"), 5, 24 * 3600);
    ASSERT_EQ(spring.size(), 2u);
    EXPECT_EQ(spring[0].at_s, at("2026-03-29T08:00:00Z"));
    EXPECT_EQ(spring[1].at_s, at("2026-03-30T00:30:00Z"));
}

TEST(GtfsTimetable, StationsBringTheirPlatformsAndNearbyListsPlatformsOnly) {
    auto t = GtfsTimetable::read(feed(
        "Europe/London",
        {{"stops.txt",
          "stop_id,stop_code,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_"
          "code\n"
          "ST,,Central,53.80,-1.55,1,,\n"
          "P1,ccc1,Central,53.8001,-1.5501,0,ST,1\n"
          "P2,ccc2,Central,53.8002,-1.5502,0,ST,2\n"
          "E1,,Central entrance,53.8003,-1.5503,2,ST,\n"
          "FAR,,Far Away,54.5,-1.55,,,\n"
          "BAD,,No position,,,0,,\n"},
         {"routes.txt", kRoutes},
         {"calendar_dates.txt", "service_id,date,exception_type\nS,20260610,1\n"},
         {"trips.txt", "route_id,service_id,trip_id,trip_headsign\nR,S,T,Leeds\nR,NOSUCH,U,x\n"},
         {"stop_times.txt",
          "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
          "T,10:00:00,10:00:00,P1,1\nT,,,P2,2\nT,10:10:00,10:10:00,FAR,3\n"
          "U,10:00:00,10:00:00,P1,1\nNOPE,10:00:00,10:00:00,P1,1\nT,10:20:00,10:20:00,GONE,4\n"}}));
    EXPECT_EQ(t->summary()["stops"], 4);  // the entrance and the stop without a position are not
    EXPECT_EQ(t->summary()["calls"], 2);  // untimed, unknown trips and stops are skipped
    EXPECT_EQ(ids(*t, t->find("ST")), (std::vector<std::string>{"ST", "P1", "P2"}));
    EXPECT_EQ(ids(*t, t->find("ccc2")), std::vector<std::string>{"P2"});
    EXPECT_EQ(ids(*t, t->find("central")), (std::vector<std::string>{"ST", "P1", "P2"}));
    auto near = t->near(53.8, -1.55, 100);
    ASSERT_EQ(near.size(), 2u);
    EXPECT_EQ(t->stop(near[0].first).id, "P1");
    EXPECT_EQ(t->stop(near[0].first).platform, "1");
    EXPECT_NEAR(near[0].second, 12.9, 0.3);
    EXPECT_EQ(t->routes_at(near[0].first).size(), 1u);
    EXPECT_TRUE(t->routes_at(near[1].first).empty());  // P2's only call is untimed
    EXPECT_TRUE(t->runs(0, common::time::days_from_civil(2026, 6, 10)));
    EXPECT_FALSE(t->runs(0, common::time::days_from_civil(2026, 6, 11)));
    auto next = t->next(t->find("Central"), at("2026-06-10T08:00:00Z"), 5, 3600);
    ASSERT_EQ(next.size(), 1u);
    EXPECT_EQ(t->trip(next[0].trip).headsign, "Leeds");
    EXPECT_EQ(t->summary()["valid_from"], "2026-06-10");
}

TEST(GtfsTimetable, AFeedItCannotReadIsMalformedNamingTheFileAndTheFault) {
    auto why = [](const std::string& bytes) {
        try {
            GtfsTimetable::read(bytes);
        } catch (const Malformed& e) {
            return std::string(e.what());
        }
        return std::string("read");
    };
    EXPECT_NE(why("<html>not found</html>").find("not a ZIP archive"), std::string::npos);
    EXPECT_NE(why(feed("Europe/London", {})).find("the feed has no stops.txt"), std::string::npos);
    EXPECT_NE(why(feed("Mars/Olympus", {})).find("agency_timezone 'Mars/Olympus'"),
              std::string::npos);
    EXPECT_NE(why(feed("Europe/London", {{"stops.txt", "stop_id\n"}, {"routes.txt", kRoutes}}))
                  .find("neither calendar.txt nor calendar_dates.txt"),
              std::string::npos);
    EXPECT_NE(why(feed("Europe/London", {{"stops.txt", "stop_id,stop_name\nA,\"open\n"}}))
                  .find("stops.txt: a quoted field"),
              std::string::npos);
}
