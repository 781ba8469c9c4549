#include "schedule.hpp"

#include <algorithm>

namespace calendar {

namespace {

// Start of occurrence k (k >= 0).
int64_t nth(const Timing& t, const TimeZone& zone, int64_t k) {
    if (t.repeat == "hourly") return t.start_s + k * 3600;
    const int64_t local = t.start_s + zone.offset_at(t.start_s);
    int64_t day = local / 86400, secs = local % 86400;
    if (secs < 0) secs += 86400, --day;
    if (t.repeat == "daily") return zone.to_utc((day + k) * 86400 + secs);
    if (t.repeat == "weekly") return zone.to_utc((day + 7 * k) * 86400 + secs);
    const CivilDate c = civil_from_days(day);
    const int64_t months = static_cast<int64_t>(c.year) * 12 + (c.month - 1) + k;
    const int y = static_cast<int>(months / 12), m = static_cast<int>(months % 12) + 1;
    return zone.to_utc(days_from_civil(y, m, std::min(c.day, days_in_month(y, m))) * 86400 + secs);
}

// An index at or before the first occurrence that can overlap from_s.
int64_t first_index(const Timing& t, int64_t from_s) {
    const int64_t span = from_s - t.start_s - t.minutes * 60;
    if (t.repeat.empty() || span <= 0) return 0;
    int64_t period = 3600;
    if (t.repeat == "daily")
        period = 86400;
    else if (t.repeat == "weekly")
        period = 7 * 86400;
    else if (t.repeat == "monthly")
        period = 31 * 86400;
    return std::max<int64_t>(0, span / period - 2);  // two periods of slack for DST shifts
}

}  // namespace

void occurrences(const Timing& t, const TimeZone& zone, int64_t from_s, int64_t to_s,
                 const std::function<bool(int64_t)>& fn) {
    for (int64_t k = first_index(t, from_s);; ++k) {
        const int64_t start = nth(t, zone, k);
        if (start >= to_s) return;
        if (start + t.minutes * 60 > from_s && !fn(start)) return;
        if (t.repeat.empty()) return;
    }
}

std::optional<int64_t> next_occurrence(const Timing& t, const TimeZone& zone, int64_t now_s) {
    std::optional<int64_t> out;
    const int64_t horizon = t.repeat.empty() ? INT64_MAX : now_s + 62 * 86400 + t.minutes * 60;
    occurrences(t, zone, now_s, std::max(horizon, t.start_s + 1), [&](int64_t s) {
        out = s;
        return false;
    });
    return out;
}

std::optional<int64_t> start_after(const Timing& t, const TimeZone& zone, int64_t after_s) {
    if (t.repeat.empty())
        return t.start_s > after_s ? std::optional<int64_t>(t.start_s) : std::nullopt;
    // start > after_s exactly when the occurrence overlaps from after_s + its length.
    const int64_t from = std::max(after_s, t.start_s - 1) + t.minutes * 60;
    std::optional<int64_t> out;
    occurrences(t, zone, from, from + 400 * 86400, [&](int64_t s) {
        out = s;
        return false;
    });
    return out;
}

}  // namespace calendar
