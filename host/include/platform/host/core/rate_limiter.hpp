// platform/host/core/rate_limiter.hpp — per-client-address token buckets (profile
// `http.rate_limit`).
//
// Each address has a bucket of `burst` tokens refilled at `rate` per second (real monotonic time,
// not business time); a request takes one token, and without one it is refused with the seconds
// until the next token as Retry-After (at least 1). State is bounded: past `max_clients`
// addresses, buckets that have refilled (idle long enough to be indistinguishable from new ones)
// are dropped, then the least recently seen. The counters live in this process only.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace platform::host {

class RateLimiter {
public:
    using Clock = std::chrono::steady_clock;
    struct Decision {
        bool allowed = true;
        int retry_after_seconds = 0;  // when refused
    };

    RateLimiter(double rate_per_second, double burst, size_t max_clients = 65536);

    Decision check(const std::string& client, Clock::time_point now = Clock::now());
    size_t clients() const;

private:
    struct Bucket {
        double tokens;
        Clock::time_point updated;
    };
    void evict(Clock::time_point now);

    const double rate_, burst_;
    const size_t max_clients_;
    mutable std::mutex m_;
    std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace platform::host
