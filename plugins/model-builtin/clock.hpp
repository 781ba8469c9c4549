// clock — "now" and the account's time zone for model-builtin, read from the request's context
// (abi.h, platform_model_provider_t: context.now, context.timezone), and the ways an instant is
// written back: RFC 3339 with the zone's offset for tools, "Friday 27 November at 09:00" for people.
//
// Zones come from the system tz database through common/time/time.hpp, so offsets are right
// on either side of a DST change. When context.timezone is absent or unknown, the offset written
// in context.now is used as a fixed zone; without context.now the provider's fallback clock (the
// host's business clock) and UTC.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/time/time.hpp"

namespace builtin {

class LocalClock {
public:
    // `zone` nullptr = a fixed offset of `fixed_offset_s` seconds east of UTC.
    LocalClock(int64_t now_s, std::shared_ptr<const common::time::TimeZone> zone,
               int fixed_offset_s = 0);

    // From the request's `context` object (see above); `fallback_now_s` when context.now is
    // missing or not RFC 3339.
    static LocalClock from_context(const nlohmann::json& context, int64_t fallback_now_s);

    int64_t now() const { return now_s_; }
    std::string zone_name() const;
    int offset_at(int64_t utc_s) const;
    // The instant whose wall clock reads `local_s` (seconds since 1970 as if local were UTC); a
    // time skipped by a DST change moves forward by the gap, a repeated one is its first instant.
    int64_t to_utc(int64_t local_s) const;

    // Local day numbers (days since 1970-01-01 on the wall clock) and their weekday (0 = Sunday).
    int64_t day_of(int64_t utc_s) const;
    int64_t today() const { return day_of(now_s_); }
    static int weekday_of(int64_t day) { return common::time::weekday_of(day); }
    // The instant of local midnight starting `day` (the first instant of the day after a gap).
    int64_t midnight(int64_t day) const { return to_utc(day * 86400); }

    // "2026-03-29T09:00:00+01:00" ("Z" for a zero offset).
    std::string rfc3339(int64_t utc_s) const;
    // "Sunday 29 March" (with the year when it is not this year's).
    std::string day_text(int64_t day) const;
    // "09:00", 24-hour wall clock.
    std::string time_text(int64_t utc_s) const;
    // "Sunday 29 March at 09:00".
    std::string moment_text(int64_t utc_s) const {
        return day_text(day_of(utc_s)) + " at " + time_text(utc_s);
    }

private:
    int64_t now_s_;
    std::shared_ptr<const common::time::TimeZone> zone_;
    int fixed_offset_s_;
};

// Reads an RFC 3339 date-time with an offset into Unix seconds; false when `text` is not one.
bool parse_instant(const std::string& text, int64_t& utc_s);

}  // namespace builtin
