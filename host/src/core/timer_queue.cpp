#include <chrono>
#include <platform/host/core/clock.hpp>
#include <platform/host/core/timer_queue.hpp>

namespace platform::host {

TimerQueue::TimerQueue() : thread_([this] { run(); }) {}

TimerQueue::~TimerQueue() {
    stop();
}

TimerQueue::Id TimerQueue::at(int64_t at_ms, std::function<void()> fn) {
    Id id;
    bool earliest;
    {
        std::lock_guard<std::mutex> g(m_);
        id = Id{at_ms, seq_++};
        auto it = items_.emplace_hint(items_.end(), Key{id.at, id.seq}, std::move(fn));
        earliest = it == items_.begin();
    }
    // Only a new earliest deadline changes how long the timer thread waits.
    if (earliest) cv_.notify_one();
    return id;
}

bool TimerQueue::cancel(Id id) {
    if (!id) return false;
    std::function<void()> fn;  // destroyed after the lock is released: it may hold anything
    {
        std::lock_guard<std::mutex> g(m_);
        auto it = items_.find(Key{id.at, id.seq});
        if (it == items_.end()) return false;
        fn = std::move(it->second);
        items_.erase(it);
    }
    return true;
}

size_t TimerQueue::size() const {
    std::lock_guard<std::mutex> g(m_);
    return items_.size();
}

void TimerQueue::stop() {
    {
        std::lock_guard<std::mutex> g(m_);
        stopping_ = true;
    }
    cv_.notify_one();
    if (thread_.joinable()) thread_.join();
}

void TimerQueue::run() {
    std::unique_lock<std::mutex> lock(m_);
    while (!stopping_) {
        if (items_.empty()) {
            cv_.wait(lock);
            continue;
        }
        auto first = items_.begin();
        int64_t wait = first->first.first - Clock::monotonic_ms();
        if (wait > 0) {
            cv_.wait_for(lock, std::chrono::milliseconds(wait));
            continue;
        }
        auto fn = std::move(first->second);
        items_.erase(first);
        lock.unlock();
        fn();
        fn = nullptr;  // what the callback held goes before the lock is taken again
        lock.lock();
    }
}

}  // namespace platform::host
