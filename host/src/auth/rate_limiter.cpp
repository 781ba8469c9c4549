#include <algorithm>
#include <cmath>
#include <platform/host/core/rate_limiter.hpp>
#include <vector>

namespace platform::host {

RateLimiter::RateLimiter(double rate_per_second, double burst, size_t max_clients)
    : rate_(rate_per_second > 0 ? rate_per_second : 1),
      burst_(std::max(1.0, burst > 0 ? burst : rate_per_second)),
      max_clients_(std::max<size_t>(1, max_clients)) {}

RateLimiter::Decision RateLimiter::check(const std::string& client, Clock::time_point now) {
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
