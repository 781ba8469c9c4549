// platform/host/core/timer_queue.hpp — one thread running callbacks at monotonic deadlines.
// Used for per-call deadlines (504). Callbacks must be short; heavy work goes to the pool.
//
// A timer can be cancelled: its entry (and what its callback holds) is freed at once, so a call
// that answered long before its 30 s deadline leaves nothing behind in the queue.
//
// No lock covers the whole queue: timers live in shards, each thread scheduling into its own
// (threads are spread over the shards), and a timer is cancelled in the shard its Id names. The
// timer thread looks over the shards for the earliest deadline. A new timer takes the timer
// thread's lock only when it is due before the time that thread sleeps until — a per-call 30 s
// deadline behind the host's periodic timers never does.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace platform::host {

class TimerQueue {
public:
    // Names one scheduled callback (its shard, its deadline and its place among equal
    // deadlines). A default-constructed Id names nothing; cancelling it does nothing.
    struct Id {
        int64_t at = 0;
        uint64_t seq = 0;  // 0: no timer
        uint32_t shard = 0;
        explicit operator bool() const { return seq != 0; }
    };

    TimerQueue();
    ~TimerQueue();
    TimerQueue(const TimerQueue&) = delete;
    TimerQueue& operator=(const TimerQueue&) = delete;

    // Runs fn on the timer thread at monotonic time `at_ms` (Clock::monotonic_ms()). Equal
    // deadlines run in the order they were scheduled.
    Id at(int64_t at_ms, std::function<void()> fn);
    // Removes a callback that has not started yet and frees it (on the caller's thread, after the
    // shard's lock is released). True if it was removed: it will never run. False if it already
    // ran, is running now, was cancelled before, or the queue stopped.
    bool cancel(Id id);
    // Callbacks waiting to run.
    size_t size() const;
    void stop();

private:
    using Key = std::pair<int64_t, uint64_t>;  // deadline, then submission order
    static constexpr size_t kShards = 16;
    struct alignas(64) Shard {
        std::mutex m;
        std::map<Key, std::function<void()>> items;
    };
    void run();

    mutable std::array<Shard, kShards> shards_;
    std::atomic<uint64_t> seq_{1};
    // What the timer thread sleeps until (INT64_MAX while it looks over the shards or runs a
    // callback): a timer due before it wakes the thread.
    std::atomic<int64_t> wake_at_{INT64_MAX};
    std::mutex wake_m_;  // the timer thread's; guards changed_ and stopping_
    std::condition_variable cv_;
    bool changed_ = false, stopping_ = false;
    std::thread thread_;
};

}  // namespace platform::host
