// The methods' table (adhan's presets), the rounding and high-latitude rule, and the next prayer.
#include "../../../plugins/prayer/times.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace prayer;

TEST(Methods, TableFollowsAdhansPresets) {
    const std::vector<std::string> names = {"isna", "mwl",     "egypt", "karachi",
                                            "gulf", "diyanet", "muis",  "jakim"};
    EXPECT_EQ(method_names(), names);
    struct Want {
        const char* name;
        const char* adhan;
        double fajr, isha;
        int interval;
        std::array<int, 6> adj;
        bool up;
    };
    const Want want[] = {
        {"isna", "NorthAmerica", 15, 15, 0, {0, 0, 1, 0, 0, 0}, false},
        {"mwl", "MuslimWorldLeague", 18, 17, 0, {0, 0, 1, 0, 0, 0}, false},
        {"egypt", "Egyptian", 19.5, 17.5, 0, {0, 0, 1, 0, 0, 0}, false},
        {"karachi", "Karachi", 18, 18, 0, {0, 0, 1, 0, 0, 0}, false},
        {"gulf", "Qatar", 18, 0, 90, {0, 0, 0, 0, 0, 0}, false},
        {"diyanet", "Turkey", 18, 17, 0, {0, -7, 5, 4, 7, 0}, false},
        {"muis", "Singapore", 20, 18, 0, {0, 0, 1, 0, 0, 0}, true},
        {"jakim", "Other", 20, 18, 0, {0, 0, 0, 0, 0, 0}, false},
    };
    for (const Want& w : want) {
        const Method* m = method_named(w.name);
        ASSERT_NE(m, nullptr) << w.name;
        EXPECT_EQ(m->adhan, w.adhan);
        EXPECT_EQ(m->fajr_angle, w.fajr) << w.name;
        EXPECT_EQ(m->isha_angle, w.isha) << w.name;
        EXPECT_EQ(m->isha_interval, w.interval) << w.name;
        EXPECT_EQ(m->adjustments, w.adj) << w.name;
        EXPECT_EQ(m->round_up, w.up) << w.name;
    }
    EXPECT_EQ(method_named("ISNA"), nullptr);
    EXPECT_EQ(method_named(""), nullptr);
}

TEST(Methods, TimesAreWholeMinutesInOrder) {
    for (const Method& m : methods()) {
        const DayTimes t = day_times(2027, 3, 1, 21.4225, 39.8262, m);  // Makkah
        for (size_t i = 0; i < t.size(); ++i) {
            EXPECT_EQ(std::fmod(t[i], 60000.0), 0) << m.name << " " << kTimeNames[i];
            if (i) {
                EXPECT_LT(t[i - 1], t[i]) << m.name << " " << kTimeNames[i];
            }
        }
    }
}

TEST(Methods, GulfIshaIsNinetyMinutesAfterMaghrib) {
    const DayTimes t = day_times(2027, 3, 1, 25.2854, 51.5310, *method_named("gulf"));  // Doha
    EXPECT_EQ(t[5] - t[4], 90 * 60000.0);
}

TEST(Methods, DiyanetAdjustsSunriseAndMaghrib) {
    const DayTimes isna = day_times(2027, 3, 1, 41.0082, 28.9784, *method_named("isna"));
    const DayTimes turkey = day_times(2027, 3, 1, 41.0082, 28.9784, *method_named("diyanet"));
    EXPECT_EQ(isna[1] - turkey[1], 7 * 60000.0);  // sunrise 7 minutes earlier
    EXPECT_EQ(turkey[4] - isna[4], 7 * 60000.0);  // maghrib 7 minutes later
    EXPECT_EQ(turkey[2] - isna[2], 4 * 60000.0);  // dhuhr +5 against ISNA's +1
}

TEST(Methods, HighLatitudeUsesTheMiddleOfTheNight) {
    // London at midsummer: the sun never sinks 18° below the horizon, so fajr is half the night
    // before sunrise and isha half the night after sunset: tonight's isha falls a day (less a
    // minute or two) after this morning's fajr, at the middle of the night.
    const DayTimes t = day_times(2027, 6, 21, 51.5074, -0.1278, *method_named("mwl"));
    ASSERT_FALSE(std::isnan(t[0]));
    ASSERT_FALSE(std::isnan(t[5]));
    EXPECT_LE(std::fabs(t[5] - t[0] - 86400000.0), 3 * 60000.0);
    // Tomorrow's sunrise is within a minute of today's.
    EXPECT_NEAR(t[5] - t[4], t[1] + 86400000.0 - t[5], 2 * 60000.0) << "isha at mid-night";
}

TEST(Methods, PolarNightLeavesTimesUnresolved) {
    const DayTimes t = day_times(2026, 12, 21, 78.22, 15.65, *method_named("isna"));
    EXPECT_TRUE(std::isnan(t[1]));  // no sunrise
    EXPECT_TRUE(std::isnan(t[4]));  // no sunset
    EXPECT_FALSE(std::isnan(t[2]));
}

TEST(NextPrayer, IsTheFirstTimeNotYetBegun) {
    const DayTimes today = {1000, 2000, 3000, 4000, 5000, 6000};
    const DayTimes tomorrow = {11000, 12000, 13000, 14000, 15000, 16000};
    auto at = [&](double now) { return next_after(now, today, tomorrow); };
    EXPECT_EQ(at(0).index, 0);
    EXPECT_FALSE(at(0).tomorrow);
    EXPECT_EQ(at(1000).index, 1);  // fajr has begun at its minute
    EXPECT_EQ(at(1999).index, 1);
    EXPECT_EQ(at(2500).index, 2);
    EXPECT_EQ(at(3000).index, 3);
    EXPECT_EQ(at(4500).index, 4);
    EXPECT_EQ(at(5999).index, 5);
    EXPECT_EQ(at(5999).time_ms, 6000);
    const Next after_isha = at(6000);
    EXPECT_EQ(after_isha.index, 0);
    EXPECT_TRUE(after_isha.tomorrow);
    EXPECT_EQ(after_isha.time_ms, 11000);
}

TEST(NextPrayer, SkipsTimesThatDoNotOccur) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const DayTimes today = {nan, nan, 3000, nan, nan, nan};
    const DayTimes tomorrow = {11000, 12000, 13000, 14000, 15000, 16000};
    EXPECT_EQ(next_after(3500, today, tomorrow).index, 3);  // asr, as adhan answers
    EXPECT_TRUE(std::isnan(next_after(3500, today, tomorrow).time_ms));
}
