// due.hpp — the `due` of a task: RFC 3339, or `YYYY-MM-DD HH:MM` in the owner's time zone.
//
// Time zones come from the system's TZif files (/usr/share/zoneinfo, RFC 8536): the transitions
// listed in the file are used, and the last one's offset holds after it (the files Debian ships
// list transitions up to 2037; the POSIX TZ footer for later years is not read).
#pragma once

#include <cstdint>
#include <optional>
#include <platform/sdk/text.hpp>
#include <string>

namespace tasks {

// Unix milliseconds of an RFC 3339 date-time ("2026-03-01T09:30:00Z", "…:00.5+01:00"; `T`, `t`
// or a space between date and time); nullopt when `text` is not one.
std::optional<int64_t> parse_rfc3339(const std::string& text);

// Date and time of `YYYY-MM-DD HH:MM` as Unix seconds read as if in UTC; nullopt otherwise.
std::optional<int64_t> parse_local_layout(const std::string& text);

// The UTC offset in seconds of IANA zone `zone` at Unix second `t`; nullopt for an unknown zone
// (or a name that is not a plain zone path). "UTC" and "" are 0.
std::optional<int32_t> utc_offset(const std::string& zone, int64_t t);

// Unix seconds of local wall time `local` (seconds as if UTC) in `zone`. A time skipped by a
// change to summer time is read with the offset before the change (so it lands after the gap);
// a repeated hour takes its first occurrence. nullopt for an unknown zone.
std::optional<int64_t> local_to_utc(const std::string& zone, int64_t local);

using platform::rfc3339;  // "YYYY-MM-DDTHH:MM:SSZ" (platform/sdk/text.hpp)

}  // namespace tasks
