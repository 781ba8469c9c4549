// The astronomy (plugins/prayer/astronomy.cpp) against published reference values: Meeus's worked
// examples, well-known qibla bearings, and the prayer times adhan's README publishes for Raleigh.
#include "../../../plugins/prayer/astronomy.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "../../../plugins/prayer/times.hpp"
#include "common/time/time.hpp"

using namespace prayer;

namespace {

// "HH:MM" of a Unix-ms instant in `zone`.
std::string hhmm(double ms, const char* zone) {
    auto z = common::time::TimeZone::load(zone);
    const int s = common::time::seconds_into_day(z->to_local(static_cast<int64_t>(ms / 1000)));
    char buf[16];
    std::snprintf(buf, sizeof buf, "%02d:%02d", s / 3600, s / 60 % 60);
    return buf;
}

}  // namespace

TEST(Astronomy, JulianDayMatchesMeeusExamples) {
    // Meeus, example 7.a: 1957 October 4.81 = JD 2436116.31; 7.b: 333 January 27.5 (Julian
    // calendar there; the proleptic Gregorian date of J2000.0 here) -- 2000 January 1.5 = 2451545.0.
    EXPECT_NEAR(julian_day(1957, 10, 4, 0.81 * 24), 2436116.31, 1e-6);
    EXPECT_DOUBLE_EQ(julian_day(2000, 1, 1, 12), 2451545.0);
    EXPECT_DOUBLE_EQ(julian_day(1987, 1, 27, 0), 2446822.5);  // Meeus table 7.a
}

TEST(Astronomy, SolarCoordinatesMatchMeeusExample25a) {
    // 1992 October 13.0 TD: apparent right ascension 198.38083°, declination -7.78507°.
    const SolarCoordinates sun(julian_day(1992, 10, 13, 0));
    EXPECT_NEAR(sun.right_ascension, 198.38083, 0.01);
    EXPECT_NEAR(sun.declination, -7.78507, 0.01);
}

TEST(Astronomy, QiblaMatchesPublishedBearings) {
    EXPECT_NEAR(qibla(51.5074, -0.1278), 118.99, 0.05);   // London
    EXPECT_NEAR(qibla(40.7128, -74.0059), 58.48, 0.05);   // New York
    EXPECT_NEAR(qibla(-6.2088, 106.8456), 295.15, 0.05);  // Jakarta
    const double b = qibla(0, -140);
    EXPECT_GE(b, 0);
    EXPECT_LT(b, 360);
}

TEST(Astronomy, RaleighTimesMatchAdhansReadme) {
    // adhan's README: Raleigh (35.7750, -78.6336), 12 July 2015, NorthAmerica: fajr 4:42 AM,
    // sunrise 6:08 AM, dhuhr 1:21 PM, maghrib 8:32 PM, isha 9:57 PM (America/New_York), and asr
    // 6:22 PM by the Hanafi shadow (2).
    const DayTimes t = day_times(2015, 7, 12, 35.7750, -78.6336, *method_named("isna"));
    EXPECT_EQ(hhmm(t[0], "America/New_York"), "04:42");
    EXPECT_EQ(hhmm(t[1], "America/New_York"), "06:08");
    EXPECT_EQ(hhmm(t[2], "America/New_York"), "13:21");
    EXPECT_EQ(hhmm(t[4], "America/New_York"), "20:32");
    EXPECT_EQ(hhmm(t[5], "America/New_York"), "21:57");
    const SolarTime sun(2015, 7, 12, 35.7750, -78.6336);
    const double hanafi_hours = sun.afternoon(2);  // UTC hours of the day
    const int minutes = static_cast<int>(std::lround(hanafi_hours * 60)) - 4 * 60;  // EDT
    EXPECT_EQ(minutes / 60, 18);
    EXPECT_EQ(minutes % 60, 22);
    EXPECT_LT(sun.afternoon(1), sun.afternoon(2));  // the Shafi'i asr comes first
}

TEST(Astronomy, PolarNightHasNoSunrise) {
    const SolarTime sun(2026, 12, 21, 78.22, 15.65);  // Longyearbyen
    EXPECT_TRUE(std::isnan(sun.sunrise));
    EXPECT_TRUE(std::isnan(sun.sunset));
    EXPECT_FALSE(std::isnan(sun.transit));
}
