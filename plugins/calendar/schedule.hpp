// schedule — when an event happens: its first start, length and repeat, unrolled into
// occurrences. The repeats are platform/common/time's (repeat.hpp there): hourly adds 3600 s;
// daily, weekly and monthly keep the wall-clock time of the first start in the owner's time zone
// (09:00 stays 09:00 across a DST change), and a monthly event on the 31st falls on the last day
// of shorter months.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "common/time/time.hpp"

namespace calendar {

// The time library's names used throughout this plugin.
using common::time::format_rfc3339;
using common::time::Instant;
using common::time::parse_rfc3339;
using common::time::TimeZone;

struct Timing {
    int64_t start_s;     // first occurrence, UTC seconds
    int64_t minutes;     // length
    std::string repeat;  // "", hourly, daily, weekly, monthly (another name: a one-off)
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
