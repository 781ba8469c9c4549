// platform/host/core/timer_queue.hpp — one thread running callbacks at monotonic deadlines.
// Used for per-call deadlines (504). Callbacks must be short; heavy work goes to the pool.
//
// A timer can be cancelled: its entry (and what its callback holds) is freed at once, so a call
// that answered long before its 30 s deadline leaves nothing behind in the queue.
#pragma once

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
    // Names one scheduled callback (its deadline and its place among equal deadlines). A
    // default-constructed Id names nothing; cancelling it does nothing.
    struct Id {
        int64_t at = 0;
        uint64_t seq = 0;  // 0: no timer
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
    // queue's lock is released). True if it was removed: it will never run. False if it already
    // ran, is running now, was cancelled before, or the queue stopped.
    bool cancel(Id id);
    // Callbacks waiting to run.
    size_t size() const;
    void stop();

private:
    using Key = std::pair<int64_t, uint64_t>;  // deadline, then submission order
    void run();

    mutable std::mutex m_;
    std::condition_variable cv_;
    std::map<Key, std::function<void()>> items_;
    uint64_t seq_ = 1;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace platform::host
