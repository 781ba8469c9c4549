#include "local_time.hpp"

#include <cstdio>
#include <cstdlib>

#include "../calendar/tz.hpp"

using platform::json;

namespace agent {

LocalTime local_time(const std::string& zone, int64_t now_ms) {
    auto tz = calendar::TimeZone::load(zone);
    if (!tz) tz = calendar::TimeZone::utc();
    int64_t secs = now_ms / 1000 - (now_ms % 1000 < 0);
    const int offset = tz->offset_at(secs);
    const int64_t local = secs + offset;
    const int64_t days = local / 86400 - (local % 86400 < 0);
    const int64_t in_day = local - days * 86400;
    const auto date = calendar::civil_from_days(days);
    static const char* names[] = {"Thursday", "Friday",  "Saturday", "Sunday",
                                  "Monday",   "Tuesday", "Wednesday"};
    const int abs_off = std::abs(offset);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", date.year,
                  date.month, date.day, static_cast<int>(in_day / 3600),
                  static_cast<int>(in_day / 60 % 60), static_cast<int>(in_day % 60),
                  offset < 0 ? '-' : '+', abs_off / 3600, abs_off / 60 % 60);
    return {tz->name(), buf, names[((days % 7) + 7) % 7]};
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
            if (calendar::TimeZone::load(zone)) return zone;
        }
    } catch (const std::exception&) {  // no `auth` service (auth-noop): accounts have no settings
    }
    return "UTC";
}

}  // namespace agent
