// platform/host/core/http_settings.hpp — the profile's `http:` section: limits, CORS, access
// log, rate limits and the shutdown drain of both listening ports (docs/reliability.md).
//
//   http:
//     max_request_bytes: 1114112   # whole request (head + body); default: largest endpoint body + 64 KiB
//     max_header_count: 100        # more header fields -> 431
//     max_header_bytes: 16384      # request line + header fields -> 431 (414 for a longer request line)
//     header_timeout_ms: 60000     # the whole request must arrive within this, from its first byte -> 408
//     idle_timeout_ms: 300000      # from the latest request's arrival: closed when no new one started
//                                  # (also while a slow reader holds its answer; streams go on)
//     max_connections: 10000       # beyond: 503 and the connection is closed
//     cors: {origins: [https://app.example]}   # browser origins that may read answers (http_cors.hpp);
//                                  # none by default; `cors: false`: no CORS at all
//     access_log: true             # one JSON line per request (stderr, access_log_writer.hpp)
//     rate_limit: {requests_per_second: 50, burst: 100}   # per client address; absent = off
//     account_rate_limit: {requests_per_second: 20, burst: 40}   # per signed-in account; absent = off
//                                  # either with `shared: true`: counted in the store, so that
//                                  # replicas on one store together admit the rate (decision 72)
//     drain_ms: 10000              # SIGTERM: in-flight requests get this long to finish
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace platform::host {

struct RateLimitSettings {
    double requests_per_second = 0;  // 0 = off
    double burst = 0;                // 0 = requests_per_second (at least 1)
    // Counted in the store provider (table `_ratelimit`, compare-and-set; rate_limiter.hpp), so
    // every replica on that store draws from one bucket per client; false = in this process.
    bool shared = false;
    bool enabled() const { return requests_per_second > 0; }
};

// `http.cors`: which browser pages on other origins may read answers (http_cors.hpp).
struct CorsSettings {
    bool enabled = true;  // false (`cors: false`): no CORS headers, OPTIONS routed like any request
    // Origins (scheme://host[:port], lower case) whose pages may read answers, the user's cookie
    // session included; "*" = any other origin, without credentials. Empty: none.
    std::vector<std::string> origins;
};

// Why `origin` cannot be listed in http.cors.origins ("" when it can): "*", or
// scheme://host[:port] in lower case with scheme http or https, no path, never `null`. The
// profile checks it when it loads (profile.cpp).
std::string cors_origin_problem(const std::string& origin);

struct HttpSettings {
    uint64_t max_request_bytes = 0;  // 0 = the largest endpoint body + 64 KiB
    uint32_t max_header_count = 100;
    uint32_t max_header_bytes = 16 * 1024;
    int64_t header_timeout_ms = 60000;
    int64_t idle_timeout_ms = 300000;
    uint32_t max_connections = 10000;
    CorsSettings cors;
    bool access_log = true;
    RateLimitSettings rate_limit;
    RateLimitSettings account_rate_limit;
    int64_t drain_ms = 10000;
};

}  // namespace platform::host
