#include "schedule.hpp"

#include <algorithm>

namespace calendar {

void occurrences(const Timing& t, const TimeZone& zone, int64_t from_s, int64_t to_s,
                 const std::function<bool(int64_t)>& fn) {
    using common::time::Repeat;
    const Repeat repeat = common::time::repeat_named(t.repeat).value_or(Repeat::none);
    // The first occurrence that can overlap from_s starts after from_s - length.
    for (int64_t k = common::time::index_before(t.start_s, repeat, from_s - t.minutes * 60);; ++k) {
        const int64_t start = common::time::nth_start(t.start_s, repeat, k, zone);
        if (start >= to_s) return;
        if (start + t.minutes * 60 > from_s && !fn(start)) return;
        if (repeat == Repeat::none) return;
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
