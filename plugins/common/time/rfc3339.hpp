// rfc3339 — date-times as text: "2027-03-28T09:30:00+01:00", "2026-01-01T00:00:00.250Z" (RFC 3339
// with a time-zone offset). Part of common/time/time.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace common::time {

struct Instant {
    int64_t utc_s;  // seconds since 1970 UTC
    int millis;     // 0..999: the fraction of the second, cut to milliseconds
    int offset_s;   // the offset it was written with, seconds east of UTC ("Z": 0)

    int64_t utc_ms() const { return utc_s * 1000 + millis; }
};

// What may stand between the date and the time: RFC 3339's "T" (or "t"), and, unless t_only, a
// space too (RFC 3339 allows it for readability).
enum class DateTimeSeparator { t_or_space, t_only };

// `text` read as "YYYY-MM-DD" separator "hh:mm:ss", an optional fraction ("." and one digit or
// more), then "Z" (or "z") or "+hh:mm" / "-hh:mm". Second 60 is a leap second, read as the last
// millisecond of the minute (hh:mm:59.999). Nullopt for anything else: no offset, a field of the
// wrong width, a date that does not exist, an hour past 23.
std::optional<Instant> parse_rfc3339(std::string_view text,
                                     DateTimeSeparator separator = DateTimeSeparator::t_or_space);

// How a zero offset is written: "Z", or "+00:00".
enum class ZeroOffset { z, numeric };

// "2027-03-28T09:30:00+01:00": the wall clock `offset_s` east of UTC, to the second (an offset's
// own seconds, as in some zones' 19th-century local mean time, are not written).
std::string format_rfc3339(int64_t utc_s, int offset_s = 0, ZeroOffset zero = ZeroOffset::z);
// UTC from Unix milliseconds: "2026-01-01T00:00:00Z", with ".250" when the milliseconds are not 0.
std::string format_rfc3339_ms(int64_t utc_ms);

}  // namespace common::time
