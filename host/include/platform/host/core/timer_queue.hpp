// platform/host/core/timer_queue.hpp — one thread running callbacks at monotonic deadlines.
// Used for per-call deadlines (504). Callbacks must be short; heavy work goes to the pool.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

namespace platform::host {

class TimerQueue {
public:
    TimerQueue();
    ~TimerQueue();
    TimerQueue(const TimerQueue&) = delete;
    TimerQueue& operator=(const TimerQueue&) = delete;

    // Runs fn on the timer thread at monotonic time `at_ms` (Clock::monotonic_ms()).
    void at(int64_t at_ms, std::function<void()> fn);
    void stop();

private:
    struct Item {
        int64_t at;
        uint64_t seq;
        std::function<void()> fn;
        bool operator>(const Item& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    void run();

    std::mutex m_;
    std::condition_variable cv_;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> items_;
    uint64_t seq_ = 0;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace platform::host
