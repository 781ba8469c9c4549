// fetch_state.hpp — private to host/src/outbound: what one Outbound::fetch carries from step to
// step (fetch_request -> provider_target -> redirects -> curl_exchange) and the answer it ends
// with. Plain values, owned by the fetch that made them; one fetch runs on one thread.
#pragma once

#include <platform/abi.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace platform::host::outbound {

using Clock = std::chrono::steady_clock;

// The answer a fetch hands to `done`: status is the fetch's own result, http the response's
// status (0 when none arrived), headers a JSON object with lower-case names.
struct Reply {
    platform_status_t status = PLATFORM_OK;
    int32_t http = 0;
    std::string headers = "{}", body, error, final_url;
};

// A refusal or failure: no response, `error` says why.
inline Reply failure(platform_status_t status, std::string error, std::string final_url = {}) {
    Reply r;
    r.status = status;
    r.error = std::move(error);
    r.final_url = std::move(final_url);
    return r;
}

// The request as the next hop sends it: the method in upper case, the body, the caller's headers
// (validated, in the caller's order). A redirect may turn it into a GET without a body.
struct Hop {
    std::string method, body;
    std::vector<std::pair<std::string, std::string>> headers;
};

// Where the first hop goes and what it carries for its origin only.
struct Target {
    std::string url;             // absolute, not yet parsed
    bool operator_kind = false;  // an operator or provider URL: outbound.allow may trust it
    std::string key_header;      // "Name: value" with the provider key, or empty
};

// The limits of one fetch, redirects included.
struct Limits {
    int32_t timeout_ms = 0;
    uint64_t max_response_bytes = 0;
    Clock::time_point deadline;
    bool follow_redirects = true;
};

// `s` as a std::string (empty for a null view).
inline std::string text(platform_str_t s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}

// `s` without the spaces, tabs and line breaks around it.
inline std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace platform::host::outbound
