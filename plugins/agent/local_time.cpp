#include "local_time.hpp"

#include "common/time/time.hpp"

using platform::json;
namespace pt = common::time;

namespace agent {

LocalTime local_time(const std::string& zone, int64_t now_ms) {
    auto tz = pt::TimeZone::load(zone);
    if (!tz) tz = pt::TimeZone::utc();
    const int64_t secs = now_ms / 1000 - (now_ms % 1000 < 0);
    const int offset = tz->offset_at(secs);
    return {tz->name(), pt::format_rfc3339(secs, offset, pt::ZeroOffset::numeric),
            pt::kWeekdayNames[pt::weekday_of(pt::day_of(secs + offset))]};
}

std::string caller_zone(const platform::Request& r) {
    try {
        auto me = r.host().call("auth", "me", json::object(), r.call());
        if (!me.ok()) return "UTC";
        const json body = json::parse(me.body, nullptr, false);
        if (!body.is_object() || !body.contains("account") || !body["account"].is_object())
            return "UTC";
        const json md = body["account"].value("metadata", json::object());
        if (md.is_object() && md.contains("timezone") && md["timezone"].is_string()) {
            const std::string zone = md["timezone"].get<std::string>();
            if (pt::TimeZone::load(zone)) return zone;
        }
    } catch (const std::exception&) {  // no `auth` service (auth-noop): accounts have no settings
    }
    return "UTC";
}

}  // namespace agent
