// stop_gate.hpp: writers hold passes on their threads' shards; close() shuts every later pass and
// waits for the passes already held.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <platform/host/http/stop_gate.hpp>
#include <thread>
#include <vector>

namespace {

using platform::host::front::StopGate;
using namespace std::chrono_literals;

TEST(StopGate, PassesAreOpenUntilClose) {
    StopGate gate;
    EXPECT_TRUE(StopGate::Pass(gate).open());
    gate.close();
    EXPECT_TRUE(gate.closed());
    EXPECT_FALSE(StopGate::Pass(gate).open());
}

// close() does not return while a writer is inside with an open pass, on whatever shard it is.
TEST(StopGate, CloseWaitsForEveryHeldPass) {
    constexpr int kWriters = 20;  // more than the shards, so threads share shards too
    StopGate gate;
    std::mutex m;
    std::condition_variable cv;
    int holding = 0;
    bool release = false;
    std::vector<std::thread> writers;
    for (int i = 0; i < kWriters; ++i)
        writers.emplace_back([&] {
            StopGate::Pass pass(gate);
            EXPECT_TRUE(pass.open());
            std::unique_lock<std::mutex> lock(m);
            ++holding;
            cv.notify_all();
            cv.wait_for(lock, 30s, [&] { return release; });
        });
    {
        std::unique_lock<std::mutex> lock(m);
        ASSERT_TRUE(cv.wait_for(lock, 10s, [&] { return holding == kWriters; }));
    }
    std::atomic<bool> closed{false};
    std::thread closer([&] {
        gate.close();
        closed = true;
    });
    // close() has begun (its flag is up) but must still be waiting for the writers inside.
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!gate.closed() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    ASSERT_TRUE(gate.closed());
    EXPECT_FALSE(closed.load()) << "close() returned while passes were held";
    {
        std::lock_guard<std::mutex> g(m);
        release = true;
    }
    cv.notify_all();
    for (auto& w : writers) w.join();
    closer.join();
    EXPECT_TRUE(closed.load());
}

}  // namespace
