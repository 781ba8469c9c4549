// due.hpp — the `due` of a task: RFC 3339, or `YYYY-MM-DD HH:MM` in the owner's time zone. Dates,
// RFC 3339 and zones are common/time/time.hpp's; this is the local layout and its reading.
#pragma once

#include <cstdint>
#include <optional>
#include <platform/sdk/text.hpp>
#include <string>

namespace tasks {

// Date and time of `YYYY-MM-DD HH:MM` as Unix seconds read as if in UTC; nullopt otherwise.
std::optional<int64_t> parse_local_layout(const std::string& text);

// Unix milliseconds of wall time `local` (seconds as if UTC) in IANA zone `zone`, or in UTC when
// the zone is "" or unknown here. A time skipped by a change to summer time is read with the
// offset before the change (so it lands after the gap); a repeated hour takes its first
// occurrence.
int64_t local_due_ms(int64_t local, const std::string& zone);

using platform::rfc3339;  // "YYYY-MM-DDTHH:MM:SSZ" (platform/sdk/text.hpp)

}  // namespace tasks
