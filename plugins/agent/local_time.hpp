// local_time — the caller's time zone and "now" in it, for the agent's system prompt and the
// model request's context (abi.h, platform_model_provider_t: context.now / context.timezone).
//
// The zone is metadata.timezone of the caller's account, read from the `auth` service's `me`
// (as the caller) — the way tasks and calendar read it; UTC when there is no such service
// (auth-noop, the test profile), no setting, or a name the system's tz database lacks. Zones come
// from /usr/share/zoneinfo through common/time/time.hpp.
#pragma once

#include <cstdint>
#include <platform/sdk.hpp>
#include <string>

namespace agent {

struct LocalTime {
    std::string zone;     // IANA name, "UTC" by default
    std::string now;      // RFC 3339 with the zone's offset: "2026-01-01T09:30:00+01:00"
    std::string weekday;  // "Thursday"
};

// `now_ms` (Unix milliseconds, business clock) in `zone`; UTC when the zone is unknown.
LocalTime local_time(const std::string& zone, int64_t now_ms);

// The caller's zone (see above).
std::string caller_zone(const platform::Request& r);

}  // namespace agent
