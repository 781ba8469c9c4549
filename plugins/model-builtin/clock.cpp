#include "clock.hpp"

#include <cstdio>

namespace builtin {

using nlohmann::json;
namespace pt = common::time;

namespace {

std::string text_of(const json& context, const char* key) {
    return context.is_object() && context.contains(key) && context[key].is_string()
               ? context[key].get<std::string>()
               : "";
}

}  // namespace

LocalClock::LocalClock(int64_t now_s, std::shared_ptr<const pt::TimeZone> zone, int fixed_offset_s)
    : now_s_(now_s), zone_(std::move(zone)), fixed_offset_s_(fixed_offset_s) {}

LocalClock LocalClock::from_context(const json& context, int64_t fallback_now_s) {
    int64_t now = fallback_now_s;
    int offset = 0;
    if (auto at = pt::parse_rfc3339(text_of(context, "now")))
        now = at->utc_s, offset = at->offset_s;
    const std::string name = text_of(context, "timezone");
    auto zone = name.empty() ? nullptr : pt::TimeZone::load(name);
    return LocalClock(now, std::move(zone), offset);
}

std::string LocalClock::zone_name() const {
    if (zone_) return zone_->name();
    const int a = fixed_offset_s_ < 0 ? -fixed_offset_s_ : fixed_offset_s_;
    char buf[16];
    std::snprintf(buf, sizeof buf, "UTC%c%02d:%02d", fixed_offset_s_ < 0 ? '-' : '+', a / 3600,
                  a / 60 % 60);
    return fixed_offset_s_ == 0 ? "UTC" : buf;
}

int LocalClock::offset_at(int64_t utc_s) const {
    return zone_ ? zone_->offset_at(utc_s) : fixed_offset_s_;
}

int64_t LocalClock::to_utc(int64_t local_s) const {
    return zone_ ? zone_->to_utc(local_s) : local_s - fixed_offset_s_;
}

int64_t LocalClock::day_of(int64_t utc_s) const {
    return pt::day_of(utc_s + offset_at(utc_s));
}

std::string LocalClock::rfc3339(int64_t utc_s) const {
    return pt::format_rfc3339(utc_s, offset_at(utc_s));
}

std::string LocalClock::day_text(int64_t day) const {
    const pt::CivilDate d = pt::civil_from_days(day), now = pt::civil_from_days(today());
    std::string out = std::string(pt::kWeekdayNames[weekday_of(day)]) + " " +
                      std::to_string(d.day) + " " + pt::kMonthNames[d.month - 1];
    if (d.year != now.year) out += " " + std::to_string(d.year);
    return out;
}

std::string LocalClock::time_text(int64_t utc_s) const {
    const int in_day = pt::seconds_into_day(utc_s + offset_at(utc_s));
    char buf[16];
    std::snprintf(buf, sizeof buf, "%02d:%02d", in_day / 3600, in_day / 60 % 60);
    return buf;
}

bool parse_instant(const std::string& text, int64_t& utc_s) {
    auto at = pt::parse_rfc3339(text);
    if (!at) return false;
    utc_s = at->utc_s;
    return true;
}

}  // namespace builtin
