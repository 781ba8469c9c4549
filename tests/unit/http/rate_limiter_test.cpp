// Token buckets per client address: burst, refusal with Retry-After, refill, bounded state.
#include <gtest/gtest.h>

#include <platform/host/core/rate_limiter.hpp>

using platform::host::RateLimiter;
using namespace std::chrono_literals;

namespace {

TEST(RateLimiter, BurstThenRefusedWithRetryAfter) {
    RateLimiter rl(1, 2);
    auto t0 = RateLimiter::Clock::now();
    EXPECT_TRUE(rl.check("a", t0).allowed);
    EXPECT_TRUE(rl.check("a", t0).allowed);
    auto third = rl.check("a", t0);
    EXPECT_FALSE(third.allowed);
    EXPECT_EQ(third.retry_after_seconds, 1);
    // Other addresses have their own bucket.
    EXPECT_TRUE(rl.check("b", t0).allowed);
}

TEST(RateLimiter, RefillsAtTheRate) {
    RateLimiter rl(2, 1);  // 2 per second, burst 1
    auto t0 = RateLimiter::Clock::now();
    EXPECT_TRUE(rl.check("a", t0).allowed);
    EXPECT_FALSE(rl.check("a", t0 + 100ms).allowed);
    EXPECT_TRUE(rl.check("a", t0 + 600ms).allowed);
    EXPECT_FALSE(rl.check("a", t0 + 700ms).allowed);
}

TEST(RateLimiter, RetryAfterRoundsUpToWholeSeconds) {
    RateLimiter rl(0.25, 1);  // one token every 4 s
    auto t0 = RateLimiter::Clock::now();
    EXPECT_TRUE(rl.check("a", t0).allowed);
    EXPECT_EQ(rl.check("a", t0).retry_after_seconds, 4);
    EXPECT_EQ(rl.check("a", t0 + 1500ms).retry_after_seconds, 3);
    EXPECT_TRUE(rl.check("a", t0 + 4s).allowed);
}

TEST(RateLimiter, BurstDefaultsToTheRate) {
    RateLimiter rl(3, 0);
    auto t0 = RateLimiter::Clock::now();
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(rl.check("a", t0).allowed);
    EXPECT_FALSE(rl.check("a", t0).allowed);
}

TEST(RateLimiter, StateIsBounded) {
    RateLimiter rl(1, 5, 100);
    auto t0 = RateLimiter::Clock::now();
    for (int i = 0; i < 1000; ++i)
        rl.check("client-" + std::to_string(i), t0 + std::chrono::milliseconds(i));
    EXPECT_LE(rl.clients(), 100u);
    // The most recent client is still tracked: its bucket is not fresh.
    for (int i = 0; i < 4; ++i) rl.check("client-999", t0 + 1000ms);
    EXPECT_FALSE(rl.check("client-999", t0 + 1000ms).allowed);
}

TEST(RateLimiter, IdleBucketsAreDroppedFirst) {
    RateLimiter rl(10, 1, 10);
    auto t0 = RateLimiter::Clock::now();
    for (int i = 0; i < 10; ++i) rl.check("old-" + std::to_string(i), t0);
    // A second later every old bucket has refilled: all of them can go for the new one.
    rl.check("new", t0 + 1s);
    EXPECT_EQ(rl.clients(), 1u);
}

}  // namespace
