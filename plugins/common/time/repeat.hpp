// repeat — the starts of a repeating series (hourly, daily, weekly, monthly) from its first start,
// in a time zone. Part of common/time/time.hpp.
//
// Hourly repeats add 3600 s. Daily, weekly and monthly ones keep the wall-clock time of the first
// start in the zone (09:00 stays 09:00 across a DST change; a time the change skips moves forward
// by the gap, a repeated one is its earlier instant), and monthly ones its day of the month, on
// the last day of shorter months (from the 31st: 28 or 29 February, 30 April).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/time/time_zone.hpp"

namespace common::time {

enum class Repeat { none, hourly, daily, weekly, monthly };

// "" (none), "hourly", "daily", "weekly", "monthly"; nullopt for any other name.
std::optional<Repeat> repeat_named(std::string_view name);

// The start of occurrence k (k >= 0; 0 is `first_s` itself). A series that does not repeat has
// only occurrence 0.
int64_t nth_start(int64_t first_s, Repeat repeat, int64_t k, const TimeZone& zone);

// An index k >= 0 whose start is at or before `at_s` when any is (0 otherwise), a few periods
// short of the last such at most (DST changes and months make periods uneven): where a scan for
// the starts after at_s can begin.
int64_t index_before(int64_t first_s, Repeat repeat, int64_t at_s);

}  // namespace common::time
