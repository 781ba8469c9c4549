// worker_pool.hpp: the elastic pool plugin calls run on.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <platform/host/core/worker_pool.hpp>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;
using platform::host::WorkerPool;

// A count-down latch with timeouts (no sleeps): arrive() counts down, wait_for() waits for zero.
class Latch {
public:
    explicit Latch(int count) : count_(count) {}
    void arrive() {
        std::lock_guard<std::mutex> g(m_);
        if (count_ > 0 && --count_ == 0) cv_.notify_all();
    }
    bool wait_for(std::chrono::milliseconds timeout) {
        std::unique_lock<std::mutex> lock(m_);
        return cv_.wait_for(lock, timeout, [&] { return count_ == 0; });
    }
    // Counts down and then waits for everyone else.
    bool arrive_and_wait(std::chrono::milliseconds timeout) {
        std::unique_lock<std::mutex> lock(m_);
        if (count_ > 0 && --count_ == 0) cv_.notify_all();
        return cv_.wait_for(lock, timeout, [&] { return count_ == 0; });
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    int count_;
};

// Waits until pred() holds, re-checking whenever `cv` is signalled, up to `timeout`.
template <class Pred>
bool wait_until(std::mutex& m, std::condition_variable& cv, std::chrono::milliseconds timeout,
                Pred pred) {
    std::unique_lock<std::mutex> lock(m);
    return cv.wait_for(lock, timeout, pred);
}

TEST(WorkerPool, RunsSubmittedTasks) {
    WorkerPool pool(2, 4);
    constexpr int kTasks = 50;
    std::atomic<int> ran{0};
    Latch done(kTasks);
    for (int i = 0; i < kTasks; ++i)
        pool.submit([&] {
            ran.fetch_add(1);
            done.arrive();
        });
    ASSERT_TRUE(done.wait_for(10s));
    EXPECT_EQ(ran.load(), kTasks);
    EXPECT_GE(pool.threads(), 2u);
    EXPECT_LE(pool.threads(), 4u);
}

// Submits four tasks that each wait (up to 5 s) for all four to have started; returns how many
// saw all four running at once. Only a pool that really has four threads for them gets 4.
int concurrent_of_four(WorkerPool& pool) {
    Latch all_started(4);
    Latch finished(4);
    std::atomic<int> saw_everyone{0};
    for (int i = 0; i < 4; ++i)
        pool.submit([&] {
            if (all_started.arrive_and_wait(5s)) saw_everyone.fetch_add(1);
            finished.arrive();
        });
    EXPECT_TRUE(finished.wait_for(30s));
    return saw_everyone.load();
}

// min 1, max 4: the pool must grow to four threads — a single worker would deadlock (each task's
// wait times out).
TEST(WorkerPool, GrowsToMaxForBlockingTasks) {
    WorkerPool pool(1, 4);
    EXPECT_EQ(concurrent_of_four(pool), 4)
        << "tasks did not run concurrently; threads=" << pool.threads();
    EXPECT_EQ(pool.threads(), 4u);
}

// Same, with the pool warm: its core worker has just finished a task and is (usually) idle when the
// four arrive in a burst. Each idle worker may take only one of them; the rest need new threads.
// Repeated on fresh pools because whether the worker is already back waiting is a race.
TEST(WorkerPool, GrowsWhenCoreWorkerIsIdle) {
    for (int round = 0; round < 50; ++round) {
        WorkerPool pool(1, 4);
        Latch warm(1);
        pool.submit([&] { warm.arrive(); });
        ASSERT_TRUE(warm.wait_for(5s));
        int n = concurrent_of_four(pool);
        ASSERT_EQ(n, 4) << "round " << round
                        << ": tasks did not run concurrently; threads=" << pool.threads();
    }
}

TEST(WorkerPool, NeverExceedsMaxThreads) {
    WorkerPool pool(1, 2);
    std::mutex m;
    std::condition_variable cv;
    bool release = false;
    int running = 0, peak = 0, done = 0;
    for (int i = 0; i < 6; ++i)
        pool.submit([&] {
            std::unique_lock<std::mutex> lock(m);
            peak = std::max(peak, ++running);
            cv.notify_all();
            cv.wait_for(lock, 10s, [&] { return release; });
            --running;
            ++done;
            cv.notify_all();
        });
    // Two tasks get a thread each; the rest queue.
    ASSERT_TRUE(wait_until(m, cv, 5s, [&] { return running == 2; }));
    EXPECT_LE(pool.threads(), 2u);
    {
        std::lock_guard<std::mutex> g(m);
        release = true;
    }
    cv.notify_all();
    ASSERT_TRUE(wait_until(m, cv, 10s, [&] { return done == 6; }));
    EXPECT_EQ(peak, 2);
}

TEST(WorkerPool, StopRunsQueuedTasks) {
    WorkerPool pool(1, 1);
    std::mutex m;
    std::condition_variable cv;
    bool started = false, release = false;
    std::atomic<int> ran{0};
    pool.submit([&] {
        std::unique_lock<std::mutex> lock(m);
        started = true;
        cv.notify_all();
        cv.wait_for(lock, 10s, [&] { return release; });
        ran.fetch_add(1);
    });
    ASSERT_TRUE(wait_until(m, cv, 5s, [&] { return started; }));
    // The only worker is busy: these queue behind it.
    for (int i = 0; i < 5; ++i) pool.submit([&] { ran.fetch_add(1); });
    {
        std::lock_guard<std::mutex> g(m);
        release = true;
    }
    cv.notify_all();
    pool.stop(10000ms);
    EXPECT_EQ(ran.load(), 6);
    EXPECT_EQ(pool.threads(), 0u);
}

TEST(WorkerPool, SubmitAfterStopIsDropped) {
    WorkerPool pool(1, 2);
    pool.stop();
    std::atomic<bool> ran{false};
    pool.submit([&] { ran = true; });
    pool.stop();
    EXPECT_FALSE(ran.load());
}

TEST(WorkerPool, BlockedTaskDoesNotHangStop) {
    std::mutex m;
    std::condition_variable cv;
    bool started = false, release = false, finished = false;
    {
        WorkerPool pool(1, 2);
        pool.submit([&] {
            std::unique_lock<std::mutex> lock(m);
            started = true;
            cv.notify_all();
            cv.wait_for(lock, 30s, [&] { return release; });
            finished = true;
            cv.notify_all();
        });
        ASSERT_TRUE(wait_until(m, cv, 5s, [&] { return started; }));

        const auto t0 = std::chrono::steady_clock::now();
        pool.stop(100ms);  // must return although the task is still blocked
        const auto took = std::chrono::steady_clock::now() - t0;
        EXPECT_LT(took, 10s);
        {
            std::lock_guard<std::mutex> g(m);
            EXPECT_FALSE(finished);
            release = true;
        }
        cv.notify_all();
        // Let the detached worker finish and leave before the pool goes away: a second stop()
        // waits (on the pool's own condition) for the last worker to exit.
        ASSERT_TRUE(wait_until(m, cv, 10s, [&] { return finished; }));
        pool.stop(10000ms);
        EXPECT_EQ(pool.threads(), 0u);
    }
}

// Many threads submit at once (the I/O threads and workers do): every task runs exactly once,
// never on the thread that submitted it.
TEST(WorkerPool, ManyThreadsSubmitExactTotals) {
    WorkerPool pool(4, 16);
    const size_t cores = std::max(1u, std::thread::hardware_concurrency());
    EXPECT_EQ(pool.shards(), std::min<size_t>({4, cores, 8}));
    constexpr int kThreads = 8, kEach = 2000;
    std::atomic<int> ran{0}, on_submitter{0};
    Latch done(kThreads * kEach);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&] {
            const auto me = std::this_thread::get_id();
            for (int i = 0; i < kEach; ++i)
                pool.submit([&, me] {
                    on_submitter += std::this_thread::get_id() == me;
                    ran.fetch_add(1);
                    done.arrive();
                });
        });
    for (auto& th : threads) th.join();
    ASSERT_TRUE(done.wait_for(30s));
    pool.stop();
    EXPECT_EQ(ran.load(), kThreads * kEach);
    EXPECT_EQ(on_submitter.load(), 0);
    EXPECT_EQ(pool.threads(), 0u);
}

// A pool of one worker keeps the order tasks were submitted in (the isolation worker's deliveries
// pool relies on it).
TEST(WorkerPool, OneWorkerRunsTasksInOrder) {
    WorkerPool pool(1, 1);
    EXPECT_EQ(pool.shards(), 1u);
    std::vector<int> order;
    Latch done(1000);
    for (int i = 0; i < 1000; ++i)
        pool.submit([&, i] {
            order.push_back(i);
            done.arrive();
        });
    ASSERT_TRUE(done.wait_for(10s));
    pool.stop();
    ASSERT_EQ(order.size(), 1000u);
    for (int i = 0; i < 1000; ++i) EXPECT_EQ(order[i], i);
}

// A task blocked in one shard does not hold up the next task submitted from the same thread.
TEST(WorkerPool, ABlockedTaskDoesNotHoldUpTheNext) {
    WorkerPool pool(2, 4);
    std::mutex m;
    std::condition_variable cv;
    bool started = false, release = false;
    pool.submit([&] {
        std::unique_lock<std::mutex> lock(m);
        started = true;
        cv.notify_all();
        cv.wait_for(lock, 30s, [&] { return release; });
    });
    ASSERT_TRUE(wait_until(m, cv, 5s, [&] { return started; }));
    Latch second(1);
    pool.submit([&] { second.arrive(); });
    EXPECT_TRUE(second.wait_for(10s));
    {
        std::lock_guard<std::mutex> g(m);
        release = true;
    }
    cv.notify_all();
    pool.stop(10000ms);  // both tasks done before what they use goes out of scope
}

// One thread submits max_threads blocking tasks (an I/O thread does, with the 200 slow requests of
// tests/integration/drain_test.cpp): its own shard reaches its share of the maximum while the
// others have no idle worker left, and the rest must still get threads of the other shards, not
// queue behind tasks that block.
TEST(WorkerPool, OneSubmitterReachesTheWholeMaximumOverTheShards) {
    constexpr int kMax = 16;
    WorkerPool pool(4, kMax);
    std::mutex m;
    std::condition_variable cv;
    bool release = false;
    int running = 0, done = 0;
    for (int i = 0; i < kMax; ++i)
        pool.submit([&] {
            std::unique_lock<std::mutex> lock(m);
            ++running;
            cv.notify_all();
            cv.wait_for(lock, 30s, [&] { return release; });
            ++done;
            cv.notify_all();
        });
    EXPECT_TRUE(wait_until(m, cv, 10s, [&] { return running == kMax; }))
        << running << " of " << kMax << " tasks running over " << pool.shards()
        << " shards; threads=" << pool.threads();
    EXPECT_EQ(pool.threads(), static_cast<size_t>(kMax));
    {
        std::lock_guard<std::mutex> g(m);
        release = true;
    }
    cv.notify_all();
    ASSERT_TRUE(wait_until(m, cv, 30s, [&] { return done == kMax; }));
    pool.stop(10000ms);
}

}  // namespace
