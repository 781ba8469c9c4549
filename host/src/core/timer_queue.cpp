#include <chrono>
#include <platform/host/core/clock.hpp>
#include <platform/host/core/timer_queue.hpp>

namespace platform::host {

TimerQueue::TimerQueue() : thread_([this] { run(); }) {}

TimerQueue::~TimerQueue() {
    stop();
}

void TimerQueue::at(int64_t at_ms, std::function<void()> fn) {
    {
        std::lock_guard<std::mutex> g(m_);
        items_.push(Item{at_ms, seq_++, std::move(fn)});
    }
    cv_.notify_one();
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
        int64_t wait = items_.top().at - Clock::monotonic_ms();
        if (wait > 0) {
            cv_.wait_for(lock, std::chrono::milliseconds(wait));
            continue;
        }
        auto fn = items_.top().fn;
        items_.pop();
        lock.unlock();
        fn();
        lock.lock();
    }
}

}  // namespace platform::host
