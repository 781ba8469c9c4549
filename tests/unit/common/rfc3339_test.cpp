// common/time/time.hpp: RFC 3339 read and written (round trips, milliseconds, offsets, the
// separators, leap seconds, inputs refused) and the civil-date arithmetic under it.
#include <gtest/gtest.h>

#include "common/time/time.hpp"

namespace {

using namespace common::time;

TEST(Rfc3339, ParseAndFormat) {
    auto p = parse_rfc3339("2027-03-28T09:30:00.250+01:00");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->offset_s, 3600);
    EXPECT_EQ(p->millis, 250);
    EXPECT_EQ(format_rfc3339(p->utc_s, p->offset_s), "2027-03-28T09:30:00+01:00");
    EXPECT_EQ(format_rfc3339(p->utc_s, 0), "2027-03-28T08:30:00Z");
    EXPECT_EQ(format_rfc3339(p->utc_s), "2027-03-28T08:30:00Z");
    EXPECT_EQ(format_rfc3339(parse_rfc3339("2027-01-01T00:00:00Z")->utc_s, -5 * 3600 - 1800),
              "2026-12-31T18:30:00-05:30");
    EXPECT_EQ(format_rfc3339(0, 0, ZeroOffset::numeric), "1970-01-01T00:00:00+00:00");
}

TEST(Rfc3339, MillisecondsAndSeparators) {
    EXPECT_EQ(parse_rfc3339("2026-01-01T00:00:00Z")->utc_ms(), 1767225600000);
    EXPECT_EQ(parse_rfc3339("2026-01-01t01:00:00.250+01:00")->utc_ms(), 1767225600250);
    EXPECT_EQ(parse_rfc3339("2026-01-01T00:00:00.123456z")->utc_ms(), 1767225600123);  // cut
    EXPECT_EQ(parse_rfc3339("2025-12-31 19:00:00-05:00")->utc_ms(), 1767225600000);
    EXPECT_FALSE(parse_rfc3339("2025-12-31 19:00:00-05:00", DateTimeSeparator::t_only));
    EXPECT_TRUE(parse_rfc3339("2025-12-31t19:00:00-05:00", DateTimeSeparator::t_only));
    // A leap second is the minute's last millisecond.
    EXPECT_EQ(parse_rfc3339("2016-12-31T23:59:60Z")->utc_ms(),
              parse_rfc3339("2016-12-31T23:59:59.999Z")->utc_ms());
    EXPECT_EQ(format_rfc3339_ms(1767225600000), "2026-01-01T00:00:00Z");
    EXPECT_EQ(format_rfc3339_ms(1709202600250), "2024-02-29T10:30:00.250Z");
    EXPECT_EQ(format_rfc3339_ms(-1), "1969-12-31T23:59:59.999Z");
}

TEST(Rfc3339, RoundTripsAcrossOffsetsAndCenturies) {
    for (const char* text :
         {"1969-12-31T23:59:59Z", "2000-02-29T12:00:00+05:30", "2100-03-01T00:00:00-08:00",
          "1900-01-01T00:00:00+14:00", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"}) {
        const auto p = parse_rfc3339(text);
        ASSERT_TRUE(p) << text;
        EXPECT_EQ(format_rfc3339(p->utc_s, p->offset_s), text);
    }
}

TEST(Rfc3339, RefusesWhatIsNotOne) {
    for (const char* bad :
         {"2027-03-28T09:30:00", "2027-02-29T09:30:00Z", "2027-03-28 9:30:00Z", "tomorrow",
          "2027-03-28T24:00:00Z", "2027-03-28T09:30:00+1:00", "2026-01-01", "2026-01-01T00:00Z",
          "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T00:60:00Z",
          "2026-01-01T00:00:61Z", "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00+24:00",
          "2026-01-01T00:00:00+01:60", "2026-01-01T00:00:00Z ", "2026-01-01X00:00:00Z",
          "+2026-01-01T00:00:00Z", ""})
        EXPECT_FALSE(parse_rfc3339(bad)) << bad;
}

TEST(Civil, DaysWeekdaysAndMonths) {
    EXPECT_EQ(days_from_civil(1970, 1, 1), 0);
    EXPECT_EQ(days_from_civil(2026, 1, 1), 20454);
    EXPECT_EQ(days_from_civil(1969, 12, 31), -1);
    const CivilDate d = civil_from_days(days_from_civil(2024, 2, 29));
    EXPECT_EQ(d.year, 2024);
    EXPECT_EQ(d.month, 2);
    EXPECT_EQ(d.day, 29);
    EXPECT_EQ(days_in_month(2024, 2), 29);
    EXPECT_EQ(days_in_month(2100, 2), 28);
    EXPECT_EQ(days_in_month(2000, 2), 29);
    EXPECT_EQ(days_in_month(2026, 4), 30);
    EXPECT_TRUE(valid_date(2024, 2, 29));
    EXPECT_FALSE(valid_date(2026, 2, 29));
    EXPECT_FALSE(valid_date(2026, 13, 1));
    EXPECT_FALSE(valid_date(2026, 1, 0));
    EXPECT_EQ(std::string(kWeekdayNames[weekday_of(0)]), "Thursday");  // 1970-01-01
    EXPECT_EQ(std::string(kWeekdayNames[weekday_of(days_from_civil(2026, 11, 25))]), "Wednesday");
    EXPECT_EQ(std::string(kMonthNames[11]), "December");
    EXPECT_EQ(day_of(-1), -1);
    EXPECT_EQ(seconds_into_day(-1), 86399);
    EXPECT_EQ(seconds_into_day(86400 + 3661), 3661);
}

}  // namespace
