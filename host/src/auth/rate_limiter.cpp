#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <platform/host/core/host_store_table.hpp>
#include <platform/host/core/rate_limiter.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/core/status.hpp>
#include <vector>

namespace platform::host {

RateLimiter::RateLimiter(double rate_per_second, double burst, size_t max_clients)
    : rate_(rate_per_second > 0 ? rate_per_second : 1),
      burst_(std::max(1.0, burst > 0 ? burst : rate_per_second)),
      max_clients_(std::max<size_t>(1, max_clients)) {}

namespace {

class StoreCounters : public RateLimitStore {
public:
    explicit StoreCounters(Runtime& rt) : runtime_(rt), table_(rt, "_ratelimit") {}
    platform_status_t get(const std::string& key, int64_t now_ms, std::string& out) override {
        return table_.get(key, now_ms, out);
    }
    platform_status_t cas(const std::string& key, const std::string* expected,
                          const std::string& value, int64_t expires_at_ms,
                          int64_t now_ms) override {
        return table_.cas(key, expected, &value, expires_at_ms, now_ms);
    }
    int64_t now_ms() override { return runtime_.clock().now_ms(); }

private:
    Runtime& runtime_;
    HostStoreTable table_;
};

// How often a shared check re-reads after another replica changed the same bucket.
constexpr int kCasAttempts = 8;

int64_t system_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

int64_t RateLimitStore::now_ms() {
    return system_ms();
}

std::shared_ptr<RateLimitStore> store_rate_counters(Runtime& runtime) {
    return std::make_shared<StoreCounters>(runtime);
}

void RateLimiter::share(std::shared_ptr<RateLimitStore> store, std::string scope,
                        std::function<int64_t()> wall_ms) {
    store_ = std::move(store);
    scope_ = std::move(scope);
    if (!wall_ms) wall_ms = [s = store_.get()] { return s->now_ms(); };
    wall_ms_ = std::move(wall_ms);
}

RateLimiter::Decision RateLimiter::check(const std::string& client, Clock::time_point now) {
    if (store_) {
        Decision d;
        if (check_shared(client, d)) return d;
    }
    return check_local(client, now);
}

void RateLimiter::fail_open(const std::string& why) {
    if (!failing_open_.exchange(true))
        spdlog::warn("rate limit ({}): {}; counting in this process until the store answers again",
                     scope_, why);
}

bool RateLimiter::check_shared(const std::string& client, Decision& out) {
    const std::string key = scope_ + "/" + client;
    const int64_t now = wall_ms_();
    // First from the record this limiter last saw (no read: a compare-and-set against it is the
    // one round trip, and a refusal computed from it is exact, since other replicas only take
    // tokens and a record expires only once full); after a conflict, from a fresh read.
    std::string raw;
    platform_status_t got = PLATFORM_NOT_FOUND;
    {
        std::lock_guard<std::mutex> g(m_);
        if (auto it = seen_.find(key); it != seen_.end()) {
            raw = it->second;
            got = PLATFORM_OK;
        }
    }
    const bool cached = got == PLATFORM_OK;
    for (int attempt = 0; attempt < kCasAttempts; ++attempt) {
        HostStoreTable::wait_after_conflict(attempt);
        if (attempt > 0 || !cached) {
            raw.clear();
            got = store_->get(key, now, raw);
            if (got != PLATFORM_OK && got != PLATFORM_NOT_FOUND) {
                fail_open("the store answered " + std::string(status_info(got).name));
                return false;
            }
        }
        double tokens = burst_;
        long long updated = now;
        if (got == PLATFORM_OK && std::sscanf(raw.c_str(), "%lf %lld", &tokens, &updated) != 2) {
            tokens = burst_;  // not ours: start full
            updated = now;
        }
        if (now > updated)
            tokens = std::min(burst_, tokens + static_cast<double>(now - updated) / 1000.0 * rate_);
        tokens = std::max(0.0, std::min(burst_, tokens));
        if (tokens < 1) {
            if ((attempt > 0 || !cached) && failing_open_.exchange(false))
                spdlog::info("rate limit ({}): counting in the store again", scope_);
            out = {false, std::max(1, static_cast<int>(std::ceil((1 - tokens) / rate_ - 1e-9)))};
            return true;
        }
        tokens -= 1;
        char value[64];
        std::snprintf(value, sizeof value, "%.6f %lld", tokens, static_cast<long long>(now));
        // Absent again once the bucket would be full: an absent bucket is a full one.
        const int64_t full_at =
            now + static_cast<int64_t>(std::ceil((burst_ - tokens) / rate_ * 1000.0)) + 1;
        const platform_status_t st =
            store_->cas(key, got == PLATFORM_OK ? &raw : nullptr, value, full_at, now);
        if (st == PLATFORM_OK) {
            if (failing_open_.exchange(false))
                spdlog::info("rate limit ({}): counting in the store again", scope_);
            remember(key, value);
            out = {true, 0};
            return true;
        }
        if (st != PLATFORM_CONFLICT) {
            fail_open("the store answered " + std::string(status_info(st).name));
            return false;
        }
    }
    fail_open("the store stayed contended for " + key);
    return false;
}

void RateLimiter::remember(const std::string& key, const std::string& raw) {
    std::lock_guard<std::mutex> g(m_);
    if (seen_.size() >= max_clients_ && !seen_.count(key)) seen_.clear();  // bounded, rarely hit
    seen_[key] = raw;
}

RateLimiter::Decision RateLimiter::check_local(const std::string& client, Clock::time_point now) {
    std::lock_guard<std::mutex> g(m_);
    auto it = buckets_.find(client);
    if (it == buckets_.end()) {
        if (buckets_.size() >= max_clients_) evict(now);
        it = buckets_.emplace(client, Bucket{burst_, now}).first;
    }
    Bucket& b = it->second;
    const double elapsed = std::chrono::duration<double>(now - b.updated).count();
    if (elapsed > 0) {
        b.tokens = std::min(burst_, b.tokens + elapsed * rate_);
        b.updated = now;
    }
    if (b.tokens >= 1) {
        b.tokens -= 1;
        return {true, 0};
    }
    const double wait = (1 - b.tokens) / rate_;
    return {false, std::max(1, static_cast<int>(std::ceil(wait - 1e-9)))};
}

size_t RateLimiter::clients() const {
    std::lock_guard<std::mutex> g(m_);
    return buckets_.size();
}

// Drops full buckets, then the least recently updated, down to 90 % of the bound (so eviction
// runs once per many new addresses, not on every one).
void RateLimiter::evict(Clock::time_point now) {
    const double refill_seconds = burst_ / rate_;
    for (auto it = buckets_.begin(); it != buckets_.end();) {
        const double idle = std::chrono::duration<double>(now - it->second.updated).count();
        if (it->second.tokens + idle * rate_ >= burst_ || idle >= refill_seconds)
            it = buckets_.erase(it);
        else
            ++it;
    }
    const size_t target = max_clients_ - 1 - max_clients_ / 10;  // room for the new one
    if (buckets_.size() <= target) return;
    std::vector<std::pair<Clock::time_point, std::string>> order;
    order.reserve(buckets_.size());
    for (const auto& [k, b] : buckets_) order.emplace_back(b.updated, k);
    const size_t drop = buckets_.size() - target;
    std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(drop - 1),
                     order.end());
    for (size_t i = 0; i < drop; ++i) buckets_.erase(order[i].second);
}

}  // namespace platform::host
