// events — conversions shared by the endpoints: time, ids, argument checks, event JSON.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <platform/sdk/events.hpp>
#include <string>
#include <string_view>

namespace events_service {

using json = nlohmann::json;

// Unix milliseconds as RFC 3339 UTC: "2026-01-01T00:00:00Z", with ".123" when the milliseconds
// are not zero.
std::string rfc3339(int64_t unix_ms);
// Parses an RFC 3339 date-time ("2026-01-01T10:00:00.5+02:00", "...Z"; "T" between date and
// time, the fraction cut to milliseconds, second 60 read as :59.999) with common/time/time.hpp;
// throws platform::invalid_argument naming `arg` when the text is not one.
int64_t parse_rfc3339(std::string_view text, const char* arg);
// A `timestamp` argument: an RFC 3339 string or integer Unix milliseconds (>= 1).
int64_t timestamp_arg(const json& value);

// An integer argument within [min, max], or nullopt when absent or null. The host validates
// arguments against the schema first; this repeats the checks for callers that skip it (the fake
// host, internal calls) and throws invalid_argument naming the argument.
std::optional<int64_t> integer_arg(const json& args, const char* name, int64_t min, int64_t max);

// A random event id (UUID version 4 text).
std::string new_id();

// Topic and group names: 1-200 characters of [A-Za-z0-9._-]. Throws invalid_argument naming `arg`.
void check_name(const json& value, const char* arg);

// An event as the endpoints return it: {id, topic, offset, timestamp (RFC 3339), metadata,
// payload}. The payload is parsed as JSON (it is stored as JSON text by publish); bytes that are not
// JSON (published by another plugin) come back as a string.
json event_json(const platform::Event& e);

}  // namespace events_service
