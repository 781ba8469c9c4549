// platform/host/core/rate_limiter.hpp — per-client token buckets (profile `http.rate_limit` per
// client address, `http.account_rate_limit` per signed-in account).
//
// Each client has a bucket of `burst` tokens refilled at `rate` per second; a request takes one
// token, and without one it is refused with the seconds until the next token as Retry-After (at
// least 1).
//
// In this process (the default): buckets on the monotonic clock; state is bounded: past
// `max_clients` clients, buckets that have refilled (idle long enough to be indistinguishable from
// new ones) are dropped, then the least recently seen.
//
// Shared (`shared: true`, share()): every bucket is one record in a RateLimitStore — the store
// provider's `_ratelimit` table, "<scope>/<client>" -> "<tokens> <updated unix ms>" — changed
// only by compare-and-set, so replicas on one store draw from one bucket per client and together
// admit the configured rate, not N times it. A check costs one compare-and-set against the
// record this limiter last wrote (plus a read when another replica wrote since); a refusal from
// that record costs none. Time is the business clock (RateLimitStore::now_ms: the runtime's
// clock, real in any deployment, so the replicas' clocks must agree to within a fraction of
// 1/rate; the store purges by it, like every other record). A record expires when its bucket would be full again, so
// idle clients leave nothing behind. When the store fails (or stays contended), the check falls
// back to this process's bucket for that client — fail open — and logs it once until the store
// answers again.
#pragma once

#include <platform/abi.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace platform::host {

class Runtime;

// Where shared buckets live: records with expiry, changed by compare-and-set. The store
// provider's (store_rate_counters) or a test's.
class RateLimitStore {
public:
    virtual ~RateLimitStore() = default;
    // OK with `out` set, NOT_FOUND when absent (or expired by now_ms), or a failure.
    virtual platform_status_t get(const std::string& key, int64_t now_ms, std::string& out) = 0;
    // Writes `value` when the live value is `*expected` (nullptr: absent): OK, CONFLICT, or a
    // failure.
    virtual platform_status_t cas(const std::string& key, const std::string* expected,
                                  const std::string& value, int64_t expires_at_ms,
                                  int64_t now_ms) = 0;
    // The time its records expire by, Unix ms: the system clock unless the store says otherwise
    // (the runtime's store: its business clock).
    virtual int64_t now_ms();
};

// The runtime's store provider, table `_ratelimit` (looked up at each call, so it may be made
// before the providers start).
std::shared_ptr<RateLimitStore> store_rate_counters(Runtime& runtime);

class RateLimiter {
public:
    using Clock = std::chrono::steady_clock;
    struct Decision {
        bool allowed = true;
        int retry_after_seconds = 0;  // when refused
    };

    RateLimiter(double rate_per_second, double burst, size_t max_clients = 65536);

    // Counts in `store` from now on, under "<scope>/<client>" (scope: "address", "account").
    // `wall_ms` is the time in Unix milliseconds (a test's clock); default store->now_ms().
    void share(std::shared_ptr<RateLimitStore> store, std::string scope,
               std::function<int64_t()> wall_ms = nullptr);

    Decision check(const std::string& client, Clock::time_point now = Clock::now());
    // Buckets in this process (the local ones, and the fail-open ones of a shared limiter).
    size_t clients() const;
    // Whether a shared limiter is counting in this process because its store failed.
    bool failing_open() const { return failing_open_; }

private:
    struct Bucket {
        double tokens;
        Clock::time_point updated;
    };
    void evict(Clock::time_point now);
    Decision check_local(const std::string& client, Clock::time_point now);
    // The shared bucket's answer in `out`; false when the store failed or stayed contended.
    bool check_shared(const std::string& client, Decision& out);
    void fail_open(const std::string& why);
    void remember(const std::string& key, const std::string& raw);

    const double rate_, burst_;
    const size_t max_clients_;
    mutable std::mutex m_;
    std::unordered_map<std::string, Bucket> buckets_;
    std::shared_ptr<RateLimitStore> store_;  // null: in this process only
    // The record this limiter last wrote per shared key ("<scope>/<client>"): what its next
    // compare-and-set expects, saving a read when no other replica wrote since.
    std::unordered_map<std::string, std::string> seen_;
    std::string scope_;
    std::function<int64_t()> wall_ms_;
    std::atomic<bool> failing_open_{false};
};

}  // namespace platform::host
