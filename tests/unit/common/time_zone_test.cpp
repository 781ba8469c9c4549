// common/time/time.hpp: zones of the system's tz database against known offsets (the table
// to 2037, the footer rule after it), wall times in DST gaps and overlaps in Europe/London and
// America/New_York, names refused, and repeating series across the changes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/time/time.hpp"

namespace {

using namespace common::time;

int64_t at(const std::string& rfc3339) {
    return parse_rfc3339(rfc3339).value().utc_s;
}

TEST(TimeZone, LondonAcrossTheYearAndFarFuture) {
    auto london = TimeZone::load("Europe/London");
    ASSERT_TRUE(london);
    EXPECT_EQ(london->name(), "Europe/London");
    EXPECT_EQ(london->offset_at(at("2027-01-15T12:00:00Z")), 0);
    EXPECT_EQ(london->offset_at(at("2027-07-15T12:00:00Z")), 3600);
    EXPECT_EQ(london->offset_at(at("2027-03-28T00:59:59Z")), 0);  // change at 01:00 UTC
    EXPECT_EQ(london->offset_at(at("2027-03-28T01:00:00Z")), 3600);
    EXPECT_EQ(london->offset_at(at("2027-10-31T00:59:59Z")), 3600);
    EXPECT_EQ(london->offset_at(at("2027-10-31T01:00:00Z")), 0);
    EXPECT_EQ(london->offset_at(at("2099-07-01T00:00:00Z")), 3600);  // from the footer rule
    EXPECT_EQ(london->offset_at(at("2099-12-01T00:00:00Z")), 0);
    EXPECT_EQ(london->offset_at(at("1990-07-01T00:00:00Z")), 3600);  // from the table
}

TEST(TimeZone, OtherZonesAndNamesRefused) {
    auto ny = TimeZone::load("America/New_York");
    ASSERT_TRUE(ny);
    EXPECT_EQ(ny->offset_at(at("2027-01-15T12:00:00Z")), -5 * 3600);
    EXPECT_EQ(ny->offset_at(at("2027-07-15T12:00:00Z")), -4 * 3600);
    auto eastern = TimeZone::load("US/Eastern");  // a link
    ASSERT_TRUE(eastern);
    EXPECT_EQ(eastern->name(), "US/Eastern");
    EXPECT_EQ(eastern->offset_at(at("2027-07-15T12:00:00Z")), -4 * 3600);
    auto sydney = TimeZone::load("Australia/Sydney");  // southern hemisphere: DST over new year
    ASSERT_TRUE(sydney);
    EXPECT_EQ(sydney->offset_at(at("2040-01-15T00:00:00Z")), 11 * 3600);
    EXPECT_EQ(sydney->offset_at(at("2040-07-15T00:00:00Z")), 10 * 3600);
    auto kolkata = TimeZone::load("Asia/Kolkata");
    ASSERT_TRUE(kolkata);
    EXPECT_EQ(kolkata->offset_at(at("2030-01-01T00:00:00Z")), 5 * 3600 + 1800);
    EXPECT_EQ(TimeZone::load("UTC")->offset_at(0), 0);
    EXPECT_EQ(TimeZone::load("UTC"), TimeZone::utc());
    EXPECT_EQ(TimeZone::load("Etc/UTC")->offset_at(at("2027-07-15T12:00:00Z")), 0);
    EXPECT_EQ(TimeZone::load("Europe/London"), TimeZone::load("Europe/London"));  // kept
    for (const char* bad : {"Mars/Olympus", "../etc/passwd", "../../etc/passwd", "", "/etc/passwd",
                            "Europe/london", "Europe/London ", "Europe"})
        EXPECT_FALSE(TimeZone::load(bad)) << bad;
}

TEST(TimeZone, LocalToUtcInGapsAndOverlaps) {
    auto london = TimeZone::load("Europe/London");
    const int64_t day = days_from_civil(2027, 3, 28) * 86400;
    EXPECT_EQ(london->to_utc(day + 9 * 3600), at("2027-03-28T08:00:00Z"));
    EXPECT_EQ(london->to_utc(day + 3600 + 1800),
              at("2027-03-28T01:30:00Z"));  // 01:30 does not exist
    const int64_t back = days_from_civil(2027, 10, 31) * 86400;
    EXPECT_EQ(london->to_utc(back + 3600 + 1800), at("2027-10-31T00:30:00Z"));  // the earlier 01:30
    EXPECT_EQ(london->to_local(at("2027-10-31T01:30:00Z")), back + 3600 + 1800);  // the later one
}

TEST(TimeZone, LocalTimeAcrossDaylightSaving) {
    // Europe/London: BST from 2026-03-29 01:00 UTC to 2026-10-25 01:00 UTC.
    auto london = TimeZone::load("Europe/London");
    auto ny = TimeZone::load("America/New_York");
    ASSERT_TRUE(london && ny);
    const int64_t mar29 = days_from_civil(2026, 3, 29) * 86400;
    EXPECT_EQ(london->to_utc(mar29 + 30 * 60), mar29 + 30 * 60);    // 00:30 GMT
    EXPECT_EQ(london->to_utc(mar29 + 90 * 60), mar29 + 90 * 60);    // 01:30: skipped, read as GMT
    EXPECT_EQ(london->to_utc(mar29 + 3 * 3600), mar29 + 2 * 3600);  // 03:00 BST
    const int64_t oct25 = days_from_civil(2026, 10, 25) * 86400;
    EXPECT_EQ(london->to_utc(oct25 + 90 * 60), oct25 + 30 * 60);      // 01:30: first, BST
    EXPECT_EQ(london->to_utc(oct25 + 10 * 3600), oct25 + 10 * 3600);  // 10:00 GMT
    EXPECT_EQ(ny->to_utc(mar29), mar29 + 4 * 3600);                   // EDT
    EXPECT_EQ(TimeZone::utc()->to_utc(mar29), mar29);
    // New York springs forward at 02:00 local on 2026-03-08 and falls back at 02:00 on 2026-11-01.
    const int64_t mar8 = days_from_civil(2026, 3, 8) * 86400;
    EXPECT_EQ(ny->to_utc(mar8 + 2 * 3600 + 1800), mar8 + 7 * 3600 + 1800);  // 02:30: read as EST
    EXPECT_EQ(ny->offset_at(mar8 + 7 * 3600 - 1), -5 * 3600);
    EXPECT_EQ(ny->offset_at(mar8 + 7 * 3600), -4 * 3600);
    const int64_t nov1 = days_from_civil(2026, 11, 1) * 86400;
    EXPECT_EQ(ny->to_utc(nov1 + 3600 + 1800), nov1 + 5 * 3600 + 1800);  // 01:30: first, EDT
    // After the table (2037): New York's footer rule, spring forward on 2040-03-11.
    const int64_t mar11 = days_from_civil(2040, 3, 11) * 86400;
    EXPECT_EQ(ny->to_utc(mar11 + 2 * 3600 + 1800), mar11 + 7 * 3600 + 1800);
    EXPECT_EQ(ny->to_utc(mar11 + 12 * 3600), mar11 + 16 * 3600);
}

TEST(Repeat, WallClockAcrossDstAndMonthEnds) {
    auto london = TimeZone::load("Europe/London");
    const int64_t first = at("2027-03-26T12:00:00Z");  // a Friday, 12:00 GMT
    EXPECT_EQ(nth_start(first, Repeat::daily, 2, *london),
              at("2027-03-28T11:00:00Z"));  // 12:00 BST
    EXPECT_EQ(nth_start(first, Repeat::weekly, 1, *london), at("2027-04-02T11:00:00Z"));
    EXPECT_EQ(nth_start(first, Repeat::hourly, 48, *london), at("2027-03-28T12:00:00Z"));
    EXPECT_EQ(nth_start(first, Repeat::none, 5, *london), first);
    const int64_t jan31 = at("2027-01-31T10:00:00Z");
    std::vector<std::string> monthly;
    for (int k = 0; k < 4; ++k)
        monthly.push_back(format_rfc3339(nth_start(jan31, Repeat::monthly, k, *london)));
    EXPECT_EQ(monthly, (std::vector<std::string>{"2027-01-31T10:00:00Z", "2027-02-28T10:00:00Z",
                                                 "2027-03-31T09:00:00Z", "2027-04-30T09:00:00Z"}));
    // Occurrence 0 is the first start itself, also the second 01:30 of a fall-back night.
    const int64_t later = at("2027-10-31T01:30:00Z");
    EXPECT_EQ(nth_start(later, Repeat::daily, 0, *london), later);
    EXPECT_EQ(nth_start(later, Repeat::daily, 1, *london), at("2027-11-01T01:30:00Z"));
    EXPECT_EQ(repeat_named("weekly"), Repeat::weekly);
    EXPECT_EQ(repeat_named(""), Repeat::none);
    EXPECT_FALSE(repeat_named("fortnightly"));
}

TEST(Repeat, IndexBeforeStartsAScanInTime) {
    auto paris = TimeZone::load("Europe/Paris");
    const int64_t first = at("2026-01-01T08:00:00Z");
    for (Repeat r : {Repeat::hourly, Repeat::daily, Repeat::weekly, Repeat::monthly}) {
        for (int64_t later : {int64_t{0}, int64_t{86400 * 40}, int64_t{86400 * 400}}) {
            const int64_t t = first + later;
            const int64_t k = index_before(first, r, t);
            EXPECT_LE(nth_start(first, r, k, *paris), t);
            EXPECT_GT(nth_start(first, r, k + 4, *paris), t - 86400 * 62);  // a few periods short
        }
    }
    EXPECT_EQ(index_before(first, Repeat::daily, first - 86400), 0);
    EXPECT_EQ(index_before(first, Repeat::none, first + 86400 * 400), 0);
}

}  // namespace
