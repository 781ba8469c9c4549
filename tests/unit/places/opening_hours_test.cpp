// The simple forms of OSM opening_hours and whether they are open at a local time; everything
// else is unknown, never a guess.
#include "../../../plugins/places/opening_hours.hpp"

#include <gtest/gtest.h>

using namespace places;

namespace {

// Local seconds of 2026-11-30 (a Monday) + `day` days at hh:mm.
int64_t at(int day, int hh, int mm) {
    const int64_t monday = 20787;  // days from 1970-01-01 to 2026-11-30
    return (monday + day) * 86400 + hh * 3600 + mm * 60;
}
std::optional<bool> open(const char* hours, int day, int hh, int mm) {
    return open_at_local(hours, at(day, hh, mm));
}

}  // namespace

TEST(OpeningHours, TheMondayIsAMonday) {
    // 2026-11-30: 20787 days after 1970-01-01 (a Thursday) is a Monday.
    EXPECT_EQ((20787 + 3) % 7, 0);
}

TEST(OpeningHours, WeekdaysAndSaturday) {
    const char* h = "Mo-Fr 09:00-17:30; Sa 10:00-16:00";
    EXPECT_EQ(open(h, 0, 8, 59), false);
    EXPECT_EQ(open(h, 0, 9, 0), true);
    EXPECT_EQ(open(h, 4, 17, 29), true);
    EXPECT_EQ(open(h, 4, 17, 30), false);  // the end is exclusive
    EXPECT_EQ(open(h, 5, 10, 0), true);
    EXPECT_EQ(open(h, 5, 16, 0), false);
    EXPECT_EQ(open(h, 6, 12, 0), false);  // Sunday: not listed
}

TEST(OpeningHours, AlwaysAndNever) {
    EXPECT_EQ(open("24/7", 6, 3, 0), true);
    EXPECT_EQ(open("off", 2, 12, 0), false);
    EXPECT_EQ(open("closed", 2, 12, 0), false);
    EXPECT_EQ(open("Mo-Su 00:00-24:00", 3, 23, 59), true);
}

TEST(OpeningHours, LaterRulesReplaceEarlierOnes) {
    const char* h = "Mo-Sa 09:00-18:00; We 09:00-13:00; Su off";
    EXPECT_EQ(open(h, 2, 14, 0), false);
    EXPECT_EQ(open(h, 2, 12, 0), true);
    EXPECT_EQ(open(h, 1, 14, 0), true);
    EXPECT_EQ(open("24/7; Su off", 6, 12, 0), false);
    EXPECT_EQ(open("24/7; Su off", 5, 12, 0), true);
}

TEST(OpeningHours, ListsWrappingRangesAndSplitDays) {
    const char* h = "Mo,We,Fr-Su 12:00-14:30,18:00-22:00";
    EXPECT_EQ(open(h, 0, 13, 0), true);
    EXPECT_EQ(open(h, 1, 13, 0), false);
    EXPECT_EQ(open(h, 6, 15, 0), false);
    EXPECT_EQ(open(h, 6, 21, 59), true);
    EXPECT_EQ(open("Sa-Mo 10:00-12:00", 6, 11, 0), true);
    EXPECT_EQ(open("Sa-Mo 10:00-12:00", 0, 11, 0), true);
    EXPECT_EQ(open("Sa-Mo 10:00-12:00", 1, 11, 0), false);
    EXPECT_EQ(open("10:00-12:00", 3, 11, 0), true);  // no days: every day
}

TEST(OpeningHours, PastMidnightRunsIntoTheNextDay) {
    const char* h = "Fr-Sa 18:00-02:00";
    EXPECT_EQ(open(h, 4, 23, 0), true);
    EXPECT_EQ(open(h, 5, 1, 59), true);  // Friday's night
    EXPECT_EQ(open(h, 6, 1, 0), true);   // Saturday's night
    EXPECT_EQ(open(h, 6, 2, 0), false);
    EXPECT_EQ(open(h, 4, 1, 0), false);  // Thursday had none
}

TEST(OpeningHours, PublicHolidaysAreSkipped) {
    EXPECT_EQ(open("Mo-Sa 09:00-17:00; Su,PH off", 6, 12, 0), false);
    EXPECT_EQ(open("Mo-Sa 09:00-17:00; Su,PH off", 0, 12, 0), true);
    EXPECT_EQ(open("Mo-Fr 09:00-17:00; PH off", 0, 12, 0), true);
}

TEST(OpeningHours, AnythingElseIsUnknown) {
    for (const char* h : {"", " ", "Apr-Oct Mo-Su 10:00-18:00", "Mo-Fr 09:00-17:00, Sa 10:00-12:00",
                          "sunrise-sunset", "Mo-Fr 09:00+", "Mo-Fr 09:00-17:00 \"by appointment\"",
                          "Mo-Fr 08:00-12:00 || Sa 10:00-12:00", "Mo-Fr", "Mo-Fr 25:00-26:00",
                          "Mo-Fr 9-17", "Xx 10:00-12:00", "Mo-PH 10:00-12:00",
                          "week 01-10 Mo 10:00-12:00", "2026 Dec 25 off", "Mo-Fr 09:00-17:00 open"})
        EXPECT_FALSE(open(h, 0, 12, 0).has_value()) << h;
}
