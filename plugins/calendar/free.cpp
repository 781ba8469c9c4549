#include <algorithm>

#include "calendar.hpp"
#include "due.hpp"
#include "firing.hpp"
#include "schedule.hpp"

using platform::json;
using namespace calendar;

namespace {

constexpr int64_t kMaxSpanDays = 92;

int64_t instant_arg(platform::Request& r, const char* name, int64_t fallback) {
    if (!r.args().contains(name)) return fallback;
    auto at = parse_rfc3339(r.str(name));
    if (!at)
        throw platform::invalid_argument(std::string(name) +
                                         ": must be RFC 3339 with a time-zone offset");
    return at->utc_s;
}

}  // namespace

std::shared_ptr<const TimeZone> Calendar::owner_zone(platform::Request& r) {
    try {
        return zone_from_me(r.host().call("auth", "me", json::object(), r.call()));
    } catch (const platform::Error&) {  // no `auth` service (auth-noop): accounts have no settings
    }
    return TimeZone::utc();
}

json Calendar::free(platform::Request& r) {
    const auto& a = r.args();
    const int64_t from = instant_arg(r, "from", host_.now_ms() / 1000);
    const int64_t to = instant_arg(r, "to", from + 7 * 86400);
    const int64_t minutes = a.value("minutes", 30), day_start = a.value("day_start", 9),
                  day_end = a.value("day_end", 18);
    if (to <= from) throw platform::invalid_argument("to: must be after from");
    if (to - from > kMaxSpanDays * 86400)
        throw platform::invalid_argument("to: must be at most " + std::to_string(kMaxSpanDays) +
                                         " days after from");
    if (day_end <= day_start)
        throw platform::invalid_argument("day_end: must be later than day_start");
    const auto zone = owner_zone(r);

    // Busy intervals: every occurrence of every event overlapping [from, to), merged.
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (const auto& [id, e] : r.owned(kCollection).list()) {
        if (!parse_rfc3339(e.value("when", ""))) continue;
        const Timing t = timing_of(e);
        occurrences(t, *zone, from, to, [&](int64_t s) {
            busy.emplace_back(s, s + t.minutes * 60);
            return true;
        });
    }
    std::sort(busy.begin(), busy.end());

    // Each local day's working hours, minus the busy intervals.
    json slots = json::array();
    auto emit = [&](int64_t s, int64_t e) {
        if (e - s < minutes * 60) return;
        slots.push_back({{"start", format_rfc3339(s, zone->offset_at(s))},
                         {"end", format_rfc3339(e, zone->offset_at(e))},
                         {"minutes", (e - s) / 60}});
    };
    const int64_t first = common::time::day_of(zone->to_local(from)),
                  last = common::time::day_of(zone->to_local(to));
    size_t b = 0;
    for (int64_t day = first; day <= last; ++day) {
        int64_t s = std::max(from, zone->to_utc(day * 86400 + day_start * 3600));
        const int64_t e = std::min(to, zone->to_utc(day * 86400 + day_end * 3600));
        if (s >= e) continue;
        while (b < busy.size() && busy[b].second <= s) ++b;
        for (size_t k = b; k < busy.size() && busy[k].first < e; ++k) {
            if (busy[k].first > s) emit(s, busy[k].first);
            s = std::max(s, busy[k].second);
            if (s >= e) break;
        }
        if (s < e) emit(s, e);
    }
    return {{"timezone", zone->name()},
            {"from", format_rfc3339(from, zone->offset_at(from))},
            {"to", format_rfc3339(to, zone->offset_at(to))},
            {"minutes", minutes},
            {"slots", slots}};
}
