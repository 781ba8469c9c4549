// schedule — when an event happens: its first start, length and repeat, unrolled into
// occurrences. Hourly repeats add 3600 s; daily, weekly and monthly ones keep the wall-clock time
// of the first start in the owner's time zone (09:00 stays 09:00 across a DST change), and a
// monthly event on the 31st falls on the last day of shorter months.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "tz.hpp"

namespace calendar {

struct Timing {
    int64_t start_s;     // first occurrence, UTC seconds
    int64_t minutes;     // length
    std::string repeat;  // "", hourly, daily, weekly, monthly
};

// Calls fn(start) for every occurrence overlapping [from_s, to_s), in order; stops early when fn
// returns false.
void occurrences(const Timing& t, const TimeZone& zone, int64_t from_s, int64_t to_s,
                 const std::function<bool(int64_t)>& fn);

// The start of the first occurrence that has not ended at now_s (one still running counts).
std::optional<int64_t> next_occurrence(const Timing& t, const TimeZone& zone, int64_t now_s);

// The first start strictly later than after_s (nullopt: a one-off that has already started).
std::optional<int64_t> start_after(const Timing& t, const TimeZone& zone, int64_t after_s);

}  // namespace calendar
