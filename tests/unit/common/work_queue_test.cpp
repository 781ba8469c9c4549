// common::WorkQueue (plugins/common/work_queue): jobs run in order on one thread, a full or stopped
// queue refuses, stop() drops what still waits, and a job that throws does not stop the worker.
#include "common/work_queue/work_queue.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Record {
    std::mutex m;
    std::condition_variable cv;
    std::vector<std::string> seen;
    void add(const std::string& what) {
        std::lock_guard<std::mutex> g(m);
        seen.push_back(what);
        cv.notify_all();
    }
    bool wait_for(size_t n) {
        std::unique_lock<std::mutex> lock(m);
        return cv.wait_for(lock, std::chrono::seconds(10), [&] { return seen.size() >= n; });
    }
};

TEST(WorkQueue, RunsJobsInOrderAndGoesOnAfterOneThrows) {
    Record r;
    common::WorkQueue q(8, [&](const std::string& why) { r.add("warn: " + why); });
    EXPECT_FALSE(q.has_room()) << "not started";
    EXPECT_FALSE(q.push({[&] { r.add("early"); }, {}}));
    q.start();
    ASSERT_TRUE(q.push({[&] { r.add("one"); }, [&] { r.add("dropped one"); }}));
    ASSERT_TRUE(q.push({[] { throw std::runtime_error("boom"); }, {}}));
    ASSERT_TRUE(q.push({[&] { r.add("three"); }, {}}));
    ASSERT_TRUE(r.wait_for(3));
    q.stop();
    EXPECT_EQ(r.seen, (std::vector<std::string>{"one", "warn: boom", "three"}));
}

TEST(WorkQueue, AFullQueueRefusesAndStopDropsWhatWaits) {
    Record r;
    std::mutex gate;
    std::unique_lock<std::mutex> hold(gate);  // the first job waits here until released
    common::WorkQueue q(2, {});
    q.start();
    ASSERT_TRUE(q.push({[&] {
                            r.add("running");
                            std::lock_guard<std::mutex> g(gate);
                        },
                        {}}));
    ASSERT_TRUE(r.wait_for(1));  // the worker holds the first job; two may wait
    ASSERT_TRUE(q.push({[&] { r.add("a"); }, [&] { r.add("dropped a"); }}));
    ASSERT_TRUE(q.push({[&] { r.add("b"); }, [&] { r.add("dropped b"); }}));
    EXPECT_FALSE(q.has_room());
    EXPECT_FALSE(q.push({[&] { r.add("c"); }, [&] { r.add("dropped c"); }}));
    EXPECT_EQ(q.waiting(), 2u);
    std::thread stopper([&] { q.stop(); });
    // stop() takes the waiting jobs at once, then waits for the running one: release it then.
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (q.waiting() != 0 && std::chrono::steady_clock::now() < limit) std::this_thread::yield();
    EXPECT_EQ(q.waiting(), 0u);
    hold.unlock();
    stopper.join();
    EXPECT_EQ(r.seen, (std::vector<std::string>{"running", "dropped a", "dropped b"}));
}

}  // namespace
