// platform/validation/json_depth.hpp — how deeply JSON text nests, checked before it is parsed.
//
// nlohmann::json parses iteratively but copies (and dumps) recursively, one stack frame per
// level: a 200 KB request body of `[[[[…` parsed fine, then overflowed the thread's stack when the
// arguments were copied, and the host died (found by tests/fuzz, http_request and mcp_message).
// Every surface that parses a client's JSON — request bodies (request_args.hpp), the /rpc
// envelope's `request` string, MCP messages, JSON literals in query strings and form bodies —
// refuses text nested deeper than kMaxJsonDepth first, with a 400 saying so. The validator
// allows 100 levels for values no schema describes, so nothing valid is lost.
#pragma once

#include <cstddef>
#include <string_view>

namespace platform::validation {

inline constexpr std::size_t kMaxJsonDepth = 256;

// True when `text` opens at most `max_depth` arrays and objects inside one another, counting
// '[' and '{' outside strings. A lenient scan: text that is not JSON gets an answer too, and the
// parser refuses it afterwards.
inline bool json_depth_ok(std::string_view text, std::size_t max_depth = kMaxJsonDepth) {
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth) return false;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return true;
}

}  // namespace platform::validation
