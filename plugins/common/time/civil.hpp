// civil — proleptic Gregorian dates as day numbers (days since 1970-01-01) and back, and the
// split of a second count at midnight. Part of common/time/time.hpp.
#pragma once

#include <cstdint>

namespace common::time {

struct CivilDate {
    int year, month, day;  // month 1..12, day 1..31
};

// The day number of year-month-day. A day past the month's end counts on into the next month
// (February 30 is March 2 or 1); check it with valid_date first where that matters.
int64_t days_from_civil(int year, int month, int day);
CivilDate civil_from_days(int64_t days);
int days_in_month(int year, int month);  // month 1..12
// True when month is 1..12 and day is within that month of that year.
bool valid_date(int year, int month, int day);
// 0 = Sunday .. 6 = Saturday.
int weekday_of(int64_t days);

// A second count (UTC or local) split at midnight: its day number (rounded down, also before
// 1970) and the seconds into that day (0..86399).
int64_t day_of(int64_t seconds);
int seconds_into_day(int64_t seconds);

// English names, indexed by weekday_of() and by month - 1.
extern const char* const kWeekdayNames[7];  // "Sunday".."Saturday"
extern const char* const kMonthNames[12];   // "January".."December"

}  // namespace common::time
