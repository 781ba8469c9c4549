// when.hpp and clock.hpp: dates and times read in the account's zone with fixed clocks, the
// reminder rules, and offsets on both sides of Europe/Paris's DST changes (29 March and
// 25 October 2026).
#include "when.hpp"

#include <gtest/gtest.h>

#include "clocks.hpp"

namespace {

using builtin::find_when;
using builtin::LocalClock;
using builtin::reminder_instant;
using builtin::WhenFound;
using builtin_test::clock_at;
using builtin_test::paris;

int64_t day(int y, int m, int d) {
    return common::time::days_from_civil(y, m, d);
}

// The reminder instant of `text`, as RFC 3339 in the clock's zone ("" when there is none).
std::string reminder(const std::string& text, const LocalClock& clock) {
    const auto at = reminder_instant(find_when(text, clock), clock);
    return at ? clock.rfc3339(*at) : "";
}

// ---- the clock --------------------------------------------------------------------------------

TEST(ModelBuiltinClock, ReadsNowAndTheZoneFromTheContext) {
    const LocalClock c = paris();
    EXPECT_EQ(c.zone_name(), "Europe/Paris");
    EXPECT_EQ(c.rfc3339(c.now()), builtin_test::kParisNow);
    EXPECT_EQ(c.today(), day(2026, 11, 25));
    EXPECT_EQ(LocalClock::weekday_of(c.today()), 3);  // Wednesday
    EXPECT_EQ(c.moment_text(c.now()), "Wednesday 25 November at 10:00");
    EXPECT_EQ(c.day_text(day(2027, 1, 4)), "Monday 4 January 2027");  // another year is written
}

TEST(ModelBuiltinClock, WithoutAKnownZoneTheOffsetOfNowIsUsedAndWithoutNowTheFallbackInUtc) {
    const LocalClock fixed = LocalClock::from_context({{"now", "2026-11-25T10:00:00+05:30"}}, 0);
    EXPECT_EQ(fixed.zone_name(), "UTC+05:30");
    EXPECT_EQ(fixed.rfc3339(fixed.now() + 3600), "2026-11-25T11:00:00+05:30");
    const LocalClock unknown = LocalClock::from_context(
        {{"now", "2026-11-25T10:00:00-03:00"}, {"timezone", "Mars/Olympus"}}, 0);
    EXPECT_EQ(unknown.zone_name(), "UTC-03:00");
    EXPECT_EQ(unknown.rfc3339(unknown.now()), "2026-11-25T10:00:00-03:00");
    const LocalClock fallback =
        LocalClock::from_context(nlohmann::json::object(), 1795593600);  // 2026-11-25T08:00:00Z
    EXPECT_EQ(fallback.zone_name(), "UTC");
    EXPECT_EQ(fallback.rfc3339(fallback.now()), "2026-11-25T08:00:00Z");
    const LocalClock garbage =
        LocalClock::from_context({{"now", "next tuesday"}, {"timezone", 7}}, 1795593600);
    EXPECT_EQ(garbage.rfc3339(garbage.now()), "2026-11-25T08:00:00Z");
}

// ---- find_when --------------------------------------------------------------------------------

TEST(ModelBuiltinWhen, TodayTomorrowAndTheDayAfter) {
    const LocalClock c = paris();
    WhenFound w = find_when("today at 5pm", c);
    ASSERT_TRUE(w.day);
    EXPECT_EQ(*w.day, day(2026, 11, 25));
    ASSERT_TRUE(w.minute);
    EXPECT_EQ(*w.minute, 17 * 60);
    EXPECT_EQ(w.rest, "");

    w = find_when("call Bob tomorrow", c);
    EXPECT_EQ(w.day, day(2026, 11, 26));
    EXPECT_FALSE(w.minute);
    EXPECT_EQ(w.rest, "call Bob");

    w = find_when("the day after tomorrow at 14:30 pay rent", c);
    EXPECT_EQ(w.day, day(2026, 11, 27));
    EXPECT_EQ(w.minute, 14 * 60 + 30);
    EXPECT_EQ(w.rest, "pay rent");
}

TEST(ModelBuiltinWhen, WeekdaysAreTheNextSuchDayTodayIncluded) {
    const LocalClock c = paris();  // a Wednesday
    WhenFound w = find_when("on Friday", c);
    EXPECT_EQ(w.day, day(2026, 11, 27));
    EXPECT_TRUE(w.weekday);
    EXPECT_EQ(find_when("on Monday", c).day, day(2026, 11, 30));
    EXPECT_EQ(find_when("on Wednesday", c).day, day(2026, 11, 25));          // today
    EXPECT_EQ(find_when("next Wednesday", c).day, day(2026, 12, 2));         // never today
    EXPECT_EQ(find_when("by fri", c).day, day(2026, 11, 27));                // abbreviated
    EXPECT_EQ(find_when("Friday at 10 dentist", c).day, day(2026, 11, 27));  // bare, at the start
    // A bare weekday in the middle of the text, away from a time, is just a word.
    w = find_when("watch Friday night lights", c);
    EXPECT_FALSE(w.any());
    EXPECT_EQ(w.rest, "watch Friday night lights");
}

TEST(ModelBuiltinWhen, ClockTimes) {
    const LocalClock c = paris();
    EXPECT_EQ(find_when("at 9pm", c).minute, 21 * 60);
    EXPECT_EQ(find_when("at 9 pm", c).minute, 21 * 60);
    EXPECT_EQ(find_when("at 9", c).minute, 9 * 60);      // a bare 9 is 09:00
    EXPECT_EQ(find_when("at 5", c).minute, 17 * 60);     // a bare 1..6 is pm
    EXPECT_EQ(find_when("at 05:00", c).minute, 5 * 60);  // unless written with a zero
    EXPECT_EQ(find_when("at 12am", c).minute, 0);
    EXPECT_EQ(find_when("at noon", c).minute, 12 * 60);
    EXPECT_EQ(find_when("8am", c).minute, 8 * 60);
    EXPECT_EQ(find_when("14:30", c).minute, 14 * 60 + 30);
    EXPECT_EQ(find_when("at 7 in the evening", c).minute, 19 * 60);
    EXPECT_EQ(find_when("tonight", c).minute, 20 * 60);
    EXPECT_EQ(find_when("tonight at 8", c).minute, 20 * 60);
    // Numbers that are not times stay in the text.
    const WhenFound w = find_when("buy 9 eggs", c);
    EXPECT_FALSE(w.any());
    EXPECT_EQ(w.rest, "buy 9 eggs");
    EXPECT_FALSE(find_when("at 25", c).minute);
}

TEST(ModelBuiltinWhen, RelativeInstants) {
    const LocalClock c = paris();
    WhenFound w = find_when("in 2 hours check the oven", c);
    ASSERT_TRUE(w.instant);
    EXPECT_EQ(*w.instant, c.now() + 2 * 3600);
    EXPECT_EQ(w.rest, "check the oven");
    EXPECT_EQ(find_when("in 45 minutes", c).instant, c.now() + 45 * 60);
    EXPECT_EQ(find_when("in an hour", c).instant, c.now() + 3600);
    EXPECT_EQ(find_when("in half an hour", c).instant, c.now() + 1800);
    EXPECT_EQ(find_when("in three days", c).instant, c.now() + 3 * 86400);
    EXPECT_EQ(reminder("in 2 hours", c), "2026-11-25T12:00:00+01:00");
}

TEST(ModelBuiltinWhen, CalendarDatesAreTheNextOnesToCome) {
    const LocalClock c = paris();
    EXPECT_EQ(find_when("on 3 December", c).day, day(2026, 12, 3));
    EXPECT_EQ(find_when("on the 3rd of December", c).day, day(2026, 12, 3));
    EXPECT_EQ(find_when("on December 3rd", c).day, day(2026, 12, 3));
    EXPECT_EQ(find_when("on 2027-02-14", c).day, day(2027, 2, 14));
    EXPECT_EQ(find_when("on 3 November", c).day,
              day(2027, 11, 3));  // passed this year: next year's
    EXPECT_EQ(find_when("on 25 November", c).day, day(2026, 11, 25));  // today is still to come
    EXPECT_FALSE(find_when("on 2026-02-30", c).day);                   // no such date
    EXPECT_EQ(reminder("on 3 December at 10am", c), "2026-12-03T10:00:00+01:00");
}

TEST(ModelBuiltinWhen, Spans) {
    const LocalClock c = paris();
    WhenFound w = find_when("this week", c);
    EXPECT_EQ(w.day, day(2026, 11, 25));
    EXPECT_EQ(w.days, 7);
    w = find_when("next week", c);
    EXPECT_EQ(w.day, day(2026, 11, 30));  // Monday to Sunday
    EXPECT_EQ(w.days, 7);
    w = find_when("this weekend", c);
    EXPECT_EQ(w.day, day(2026, 11, 28));
    EXPECT_EQ(w.days, 2);
}

// ---- reminder_instant -------------------------------------------------------------------------

TEST(ModelBuiltinWhen, AReminderTimeAlreadyPastTodayIsTomorrow) {
    const LocalClock c = paris();  // 10:00
    EXPECT_EQ(reminder("at 9", c), "2026-11-26T09:00:00+01:00");
    EXPECT_EQ(reminder("at 11", c), "2026-11-25T11:00:00+01:00");
    EXPECT_EQ(reminder("at 9pm", c), "2026-11-25T21:00:00+01:00");
    EXPECT_EQ(reminder("tomorrow at 9", c), "2026-11-26T09:00:00+01:00");
    EXPECT_EQ(reminder("tomorrow", c), "2026-11-26T09:00:00+01:00");  // a day alone: 09:00
    EXPECT_EQ(reminder("call the dentist", c), "");
}

TEST(ModelBuiltinWhen, ANamedWeekdayWhoseTimeHasPassedIsNextWeek) {
    const LocalClock c = paris();  // Wednesday 10:00
    EXPECT_EQ(reminder("on Wednesday at 9", c), "2026-12-02T09:00:00+01:00");
    EXPECT_EQ(reminder("on Wednesday at 11", c), "2026-11-25T11:00:00+01:00");
    EXPECT_EQ(reminder("on Friday", c), "2026-11-27T09:00:00+01:00");
}

// ---- daylight saving time ---------------------------------------------------------------------

TEST(ModelBuiltinWhen, SpringForwardInParisGivesSummerOffsets) {
    // Saturday 28 March 2026, 10:00 CET; clocks go from 02:00 +01:00 to 03:00 +02:00 on the 29th.
    const LocalClock c = clock_at("2026-03-28T10:00:00+01:00", "Europe/Paris");
    EXPECT_EQ(reminder("tomorrow at 9", c), "2026-03-29T09:00:00+02:00");
    EXPECT_EQ(reminder("today at 11", c), "2026-03-28T11:00:00+01:00");
    EXPECT_EQ(reminder("on Monday at 9", c), "2026-03-30T09:00:00+02:00");
    // 02:30 on the 29th does not exist: it moves on by the gap.
    EXPECT_EQ(reminder("tomorrow at 2:30am", c), "2026-03-29T03:30:00+02:00");
    // "in 2 hours" across the change is two real hours.
    const LocalClock night = clock_at("2026-03-29T01:30:00+01:00", "Europe/Paris");
    EXPECT_EQ(reminder("in 2 hours", night), "2026-03-29T04:30:00+02:00");
    // The day of the change is 23 hours long.
    EXPECT_EQ(c.midnight(day(2026, 3, 30)) - c.midnight(day(2026, 3, 29)), 23 * 3600);
}

TEST(ModelBuiltinWhen, FallBackInParisGivesWinterOffsets) {
    // Saturday 24 October 2026, 18:00 CEST; clocks go from 03:00 +02:00 back to 02:00 +01:00 on the 25th.
    const LocalClock c = clock_at("2026-10-24T18:00:00+02:00", "Europe/Paris");
    EXPECT_EQ(reminder("tomorrow at 9", c), "2026-10-25T09:00:00+01:00");
    EXPECT_EQ(reminder("at 9pm", c), "2026-10-24T21:00:00+02:00");
    // 02:30 happens twice: the first one (summer time).
    EXPECT_EQ(reminder("tomorrow at 2:30am", c), "2026-10-25T02:30:00+02:00");
    EXPECT_EQ(c.midnight(day(2026, 10, 26)) - c.midnight(day(2026, 10, 25)), 25 * 3600);
}

TEST(ModelBuiltinWhen, OtherZonesAreReadInTheirOwnOffsets) {
    const LocalClock ny =
        clock_at("2026-11-25T22:30:00-05:00", "America/New_York");  // 03:30Z on the 26th
    EXPECT_EQ(ny.today(), day(2026, 11, 25));
    EXPECT_EQ(reminder("tomorrow at 9", ny), "2026-11-26T09:00:00-05:00");
    const LocalClock utc = LocalClock::from_context(nlohmann::json::object(), 1795593600);
    EXPECT_EQ(reminder("tomorrow at 9", utc), "2026-11-26T09:00:00Z");
}

}  // namespace
