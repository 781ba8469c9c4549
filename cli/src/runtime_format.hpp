// runtime_format.hpp — how `platform status` prints the runtime's objects, as micro's CLI does
// (docs/cli.md, "Runtime").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace platform::cli {

// micro's fmtDuration: 15 -> "15s", 75 -> "1m15s", 4532 -> "1h15m32s", 86400 -> "1d0h0m0s".
// Negative durations print as "0s".
std::string format_duration(int64_t seconds);

// One status row: NAME VERSION SOURCE STATUS BUILD UPDATED METADATA. VERSION, SOURCE and BUILD
// are "n/a" when empty (BUILD cut to 7 characters); UPDATED is "<duration> ago" from `now_ms`
// ("unknown" without a time); METADATA is "owner=<o>, group=<g>" plus ", error=<e>" when set.
std::vector<std::string> status_row(const nlohmann::json& record, int64_t now_ms);

// The line of a build failure a person reads first: the first line holding "error:" (the
// compiler's, CMake's, git's), else the first non-empty line; trimmed, at most 300 characters.
std::string first_error(const std::string& text);

}  // namespace platform::cli
