// dates — the calendar rules of markets/history and markets/convert, apart from any upstream so
// that they can be tested alone (tests/unit/markets/dates_test.cpp). Days are day numbers (days
// since 1970-01-01, common/time/civil.hpp); "today" is the business clock's UTC day.
//
//   history   start (default today - 30), end (default today, inclusive); start after end, end
//             after today, or more than 366 days counting both ends (2025-01-01..2026-01-02 is
//             367) is the 400 naming start and end and the rule.
//   convert   date back to 1999-01-04, the first day of the euro reference rates; not after today.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace markets {

// The longest history a call may ask for, counting both ends.
inline constexpr int64_t kMaxRangeDays = 366;
// The default history: the 30 days before today, and today.
inline constexpr int64_t kDefaultDaysBack = 30;
// The first day of the ECB's euro foreign exchange reference rates.
inline constexpr const char* kFirstRateDay = "1999-01-04";

// The day number of a YYYY-MM-DD `text`; platform::invalid_argument naming `name` for anything
// else (2026-02-30 included).
int64_t parse_day(const std::string& name, const std::string& text);
// YYYY-MM-DD of a day number.
std::string day_text(int64_t day);
// The UTC day of a business time in milliseconds.
int64_t day_of_ms(int64_t unix_ms);

struct Range {
    int64_t first = 0, last = 0;  // day numbers, both included
    int64_t days() const { return last - first + 1; }
};

// The range history answers for, from its optional arguments, or the 400.
Range history_range(const std::optional<std::string>& start, const std::optional<std::string>& end,
                    int64_t today);

// The day of convert's `date`, or the 400 (before 1999-01-04, after today).
int64_t convert_day(const std::string& date, int64_t today);

}  // namespace markets
