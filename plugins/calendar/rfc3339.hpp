// rfc3339 — the timestamps events take and give: "2027-03-28T09:30:00+01:00" (RFC 3339 with a
// time-zone offset; "Z" counts as one). Fractions of a second are accepted and dropped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace calendar {

struct Instant {
    int64_t utc_s;  // seconds since 1970 UTC
    int offset_s;   // the offset it was written with, seconds east of UTC
};

// Nullopt unless `text` is a valid RFC 3339 date-time with an offset.
std::optional<Instant> parse_rfc3339(const std::string& text);
// "YYYY-MM-DDTHH:MM:SS" and "Z" (offset 0) or "+hh:mm"/"-hh:mm".
std::string format_rfc3339(int64_t utc_s, int offset_s);

}  // namespace calendar
