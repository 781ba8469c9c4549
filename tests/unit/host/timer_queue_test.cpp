// timer_queue.hpp: callbacks at monotonic deadlines, in deadline order, on one thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <platform/host/core/clock.hpp>
#include <platform/host/core/timer_queue.hpp>
#include <set>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;
using platform::host::Clock;
using platform::host::TimerQueue;

struct Recorder {
    std::mutex m;
    std::condition_variable cv;
    std::vector<int> order;
    std::vector<std::thread::id> threads;
    std::vector<int64_t> ran_at;

    std::function<void()> record(int id) {
        return [this, id] {
            std::lock_guard<std::mutex> g(m);
            order.push_back(id);
            threads.push_back(std::this_thread::get_id());
            ran_at.push_back(Clock::monotonic_ms());
            cv.notify_all();
        };
    }
    bool wait_for_count(size_t n, std::chrono::milliseconds timeout) {
        std::unique_lock<std::mutex> lock(m);
        return cv.wait_for(lock, timeout, [&] { return order.size() >= n; });
    }
};

TEST(TimerQueue, RunsInDeadlineOrder) {
    Recorder rec;
    TimerQueue q;
    const int64_t now = Clock::monotonic_ms();
    // Submitted out of order; equal deadlines keep submission order.
    q.at(now + 90, rec.record(4));
    q.at(now + 30, rec.record(1));
    q.at(now + 60, rec.record(2));
    q.at(now + 60, rec.record(3));
    q.at(now + 10, rec.record(0));
    ASSERT_TRUE(rec.wait_for_count(5, 10s));
    EXPECT_EQ(rec.order, (std::vector<int>{0, 1, 2, 3, 4}));
    // None ran before its deadline.
    const int64_t deadline[] = {now + 10, now + 30, now + 60, now + 60, now + 90};
    for (size_t i = 0; i < rec.order.size(); ++i) EXPECT_GE(rec.ran_at[i], deadline[rec.order[i]]);
    // All on the one timer thread, never the caller's.
    for (auto id : rec.threads) {
        EXPECT_EQ(id, rec.threads.front());
        EXPECT_NE(id, std::this_thread::get_id());
    }
}

TEST(TimerQueue, EarlierItemAddedLaterRunsFirst) {
    Recorder rec;
    TimerQueue q;
    const int64_t now = Clock::monotonic_ms();
    q.at(now + 60000, rec.record(2));  // far away: must not block the next one
    q.at(now + 20, rec.record(1));
    ASSERT_TRUE(rec.wait_for_count(1, 10s));
    std::lock_guard<std::mutex> g(rec.m);
    EXPECT_EQ(rec.order, (std::vector<int>{1}));
}

TEST(TimerQueue, PastDeadlineRunsPromptly) {
    Recorder rec;
    TimerQueue q;
    q.at(Clock::monotonic_ms() - 1000, rec.record(7));
    // "Promptly": well before any real timer would matter (the test fails on a 5 s wait).
    ASSERT_TRUE(rec.wait_for_count(1, 5s));
    EXPECT_EQ(rec.order, (std::vector<int>{7}));
}

TEST(TimerQueue, StopReturnsWithPendingItems) {
    std::atomic<bool> ran{false};
    auto t0 = std::chrono::steady_clock::now();
    {
        TimerQueue q;
        q.at(Clock::monotonic_ms() + 3600 * 1000, [&] { ran = true; });
        q.at(Clock::monotonic_ms() + 7200 * 1000, [&] { ran = true; });
        q.stop();
        q.stop();  // idempotent; the destructor stops a third time
    }
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
    EXPECT_FALSE(ran.load());
}

TEST(TimerQueue, StopWithEmptyQueueReturns) {
    TimerQueue q;
    q.stop();
    SUCCEED();
}

TEST(TimerQueue, CancelledTimerIsGoneAtOnceAndNeverRuns) {
    Recorder rec;
    TimerQueue q;
    const int64_t now = Clock::monotonic_ms();
    auto held = std::make_shared<int>(1);
    auto far = q.at(now + 3600 * 1000, [held] { (void)held; });
    auto soon = q.at(now + 30, rec.record(1));
    q.at(now + 60, rec.record(2));
    EXPECT_EQ(q.size(), 3u);
    EXPECT_EQ(held.use_count(), 2);
    EXPECT_TRUE(q.cancel(far));
    // The entry and what its callback held are freed by cancel itself, not at the deadline.
    EXPECT_EQ(q.size(), 2u);
    EXPECT_EQ(held.use_count(), 1);
    EXPECT_FALSE(q.cancel(far));  // once
    EXPECT_TRUE(q.cancel(soon));
    EXPECT_EQ(q.size(), 1u);
    ASSERT_TRUE(rec.wait_for_count(1, 10s));
    std::lock_guard<std::mutex> g(rec.m);
    EXPECT_EQ(rec.order, (std::vector<int>{2}));  // the cancelled one never ran
}

TEST(TimerQueue, CancelAfterItRanIsFalse) {
    Recorder rec;
    TimerQueue q;
    auto id = q.at(Clock::monotonic_ms() - 1, rec.record(1));
    ASSERT_TRUE(rec.wait_for_count(1, 10s));
    EXPECT_FALSE(q.cancel(id));
    EXPECT_FALSE(q.cancel(TimerQueue::Id{}));  // names nothing
    EXPECT_EQ(q.size(), 0u);
}

TEST(TimerQueue, ThousandsOfScheduleAndCancelLeaveItEmpty) {
    // What every answered call does with its deadline timer, from several threads at once.
    TimerQueue q;
    std::atomic<int> ran{0};
    std::atomic<int> cancelled{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 5000; ++i) {
                auto id = q.at(Clock::monotonic_ms() + 30000, [&] { ++ran; });
                if (q.cancel(id)) ++cancelled;
            }
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(cancelled.load(), 20000);
    EXPECT_EQ(q.size(), 0u);
    EXPECT_EQ(ran.load(), 0);
}

TEST(TimerQueue, CancelRacingTheDeadlineRunsOrRemovesExactlyOnce) {
    // Deadlines already due: the timer thread and cancel race; each callback either runs or is
    // cancelled, never both, never neither.
    TimerQueue q;
    std::atomic<int> ran{0};
    int cancelled = 0;
    const int n = 2000;
    for (int i = 0; i < n; ++i) {
        auto id = q.at(Clock::monotonic_ms(), [&] { ++ran; });
        if (q.cancel(id)) ++cancelled;
    }
    Recorder rec;
    q.at(Clock::monotonic_ms(), rec.record(0));  // runs after all the others (same or later time)
    ASSERT_TRUE(rec.wait_for_count(1, 10s));
    EXPECT_EQ(ran.load() + cancelled, n);
    EXPECT_EQ(q.size(), 0u);
}

// Timers from many threads (each schedules into its own shard): every one runs exactly once, on
// the timer thread, and the runs follow the deadlines across shards.
TEST(TimerQueue, ManyThreadsEachTimerRunsOnceInDeadlineOrder) {
    TimerQueue q;
    constexpr int kThreads = 8, kEach = 500;
    std::mutex m;
    std::condition_variable cv;
    std::vector<int64_t> deadlines;  // in the order the callbacks ran
    std::set<std::thread::id> ran_on;
    // The timer thread is held in a first callback until every timer is in: then all are due or
    // waiting, and only their deadlines decide the order.
    bool all_in = false;
    q.at(Clock::monotonic_ms(), [&] {
        std::unique_lock<std::mutex> lock(m);
        cv.wait_for(lock, 20s, [&] { return all_in; });
    });
    const int64_t base = Clock::monotonic_ms() + 20;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < kEach; ++i) {
                const int64_t at = base + (i * 7 + t * 13) % 200;
                q.at(at, [&, at] {
                    std::lock_guard<std::mutex> g(m);
                    deadlines.push_back(at);
                    ran_on.insert(std::this_thread::get_id());
                    cv.notify_all();
                });
            }
        });
    for (auto& th : threads) th.join();
    std::unique_lock<std::mutex> lock(m);
    all_in = true;
    cv.notify_all();
    ASSERT_TRUE(cv.wait_for(lock, 20s, [&] { return deadlines.size() == kThreads * kEach; }));
    EXPECT_TRUE(std::is_sorted(deadlines.begin(), deadlines.end()));
    EXPECT_EQ(ran_on.size(), 1u);
    EXPECT_EQ(q.size(), 0u);
}

// A timer due before everything else, scheduled from another thread while the timer thread sleeps
// towards a far deadline, wakes it.
TEST(TimerQueue, AnEarlierTimerFromAnotherThreadWakesTheTimerThread) {
    TimerQueue q;
    Recorder rec;
    q.at(Clock::monotonic_ms() + 60000, rec.record(1));
    for (int t = 0; t < 4; ++t) {
        std::thread([&, t] { q.at(Clock::monotonic_ms() + 5, rec.record(10 + t)); }).join();
        ASSERT_TRUE(rec.wait_for_count(size_t(t) + 1, 10s)) << t;
    }
    EXPECT_EQ(q.size(), 1u);  // the 60 s one
}

}  // namespace
