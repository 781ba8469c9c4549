#include "common/time/repeat.hpp"

#include <algorithm>

#include "common/time/civil.hpp"

namespace common::time {

std::optional<Repeat> repeat_named(std::string_view name) {
    if (name.empty()) return Repeat::none;
    if (name == "hourly") return Repeat::hourly;
    if (name == "daily") return Repeat::daily;
    if (name == "weekly") return Repeat::weekly;
    if (name == "monthly") return Repeat::monthly;
    return std::nullopt;
}

int64_t nth_start(int64_t first_s, Repeat repeat, int64_t k, const TimeZone& zone) {
    if (k <= 0 || repeat == Repeat::none) return first_s;
    if (repeat == Repeat::hourly) return first_s + k * 3600;
    const int64_t local = zone.to_local(first_s);
    const int64_t day = day_of(local);
    const int secs = seconds_into_day(local);
    if (repeat == Repeat::daily) return zone.to_utc((day + k) * 86400 + secs);
    if (repeat == Repeat::weekly) return zone.to_utc((day + 7 * k) * 86400 + secs);
    const CivilDate c = civil_from_days(day);
    const int64_t months = static_cast<int64_t>(c.year) * 12 + (c.month - 1) + k;
    const int y = static_cast<int>(months / 12), m = static_cast<int>(months % 12) + 1;
    return zone.to_utc(days_from_civil(y, m, std::min(c.day, days_in_month(y, m))) * 86400 + secs);
}

int64_t index_before(int64_t first_s, Repeat repeat, int64_t at_s) {
    const int64_t span = at_s - first_s;
    if (repeat == Repeat::none || span <= 0) return 0;
    int64_t period = 3600;
    if (repeat == Repeat::daily)
        period = 86400;
    else if (repeat == Repeat::weekly)
        period = 7 * 86400;
    else if (repeat == Repeat::monthly)
        period = 31 * 86400;                         // the longest month
    return std::max<int64_t>(0, span / period - 2);  // two periods of slack for DST changes
}

}  // namespace common::time
