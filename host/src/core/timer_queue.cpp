#include <chrono>
#include <platform/host/core/clock.hpp>
#include <platform/host/core/thread_turn.hpp>
#include <platform/host/core/timer_queue.hpp>

namespace platform::host {

TimerQueue::TimerQueue() : thread_([this] { run(); }) {}

TimerQueue::~TimerQueue() {
    stop();
}

TimerQueue::Id TimerQueue::at(int64_t at_ms, std::function<void()> fn) {
    const Id id{at_ms, seq_.fetch_add(1, std::memory_order_relaxed),
                static_cast<uint32_t>(thread_turn() % kShards)};
    Shard& s = shards_[id.shard];
    {
        std::lock_guard<std::mutex> g(s.m);
        s.items.emplace(Key{id.at, id.seq}, std::move(fn));
    }
    // Only a deadline before the one the timer thread waits for changes how long it waits. The
    // thread sets wake_at_ to INT64_MAX before it looks, so a timer it may have missed wakes it.
    int64_t wake = wake_at_.load();
    while (at_ms < wake)
        if (wake_at_.compare_exchange_weak(wake, at_ms)) {
            {
                std::lock_guard<std::mutex> g(wake_m_);
                changed_ = true;
            }
            cv_.notify_one();
            break;
        }
    return id;
}

bool TimerQueue::cancel(Id id) {
    if (!id || id.shard >= kShards) return false;
    std::function<void()> fn;  // destroyed after the lock is released: it may hold anything
    Shard& s = shards_[id.shard];
    {
        std::lock_guard<std::mutex> g(s.m);
        auto it = s.items.find(Key{id.at, id.seq});
        if (it == s.items.end()) return false;
        fn = std::move(it->second);
        s.items.erase(it);
    }
    return true;
}

size_t TimerQueue::size() const {
    size_t n = 0;
    for (auto& s : shards_) {
        std::lock_guard<std::mutex> g(s.m);
        n += s.items.size();
    }
    return n;
}

void TimerQueue::stop() {
    {
        std::lock_guard<std::mutex> g(wake_m_);
        stopping_ = true;
    }
    cv_.notify_one();
    if (thread_.joinable()) thread_.join();
}

void TimerQueue::run() {
    std::unique_lock<std::mutex> lock(wake_m_);
    while (!stopping_) {
        changed_ = false;
        wake_at_.store(INT64_MAX);
        // The earliest timer over all shards.
        Shard* first = nullptr;
        Key key{INT64_MAX, 0};
        for (auto& s : shards_) {
            std::lock_guard<std::mutex> g(s.m);
            if (!s.items.empty() && s.items.begin()->first < key) {
                key = s.items.begin()->first;
                first = &s;
            }
        }
        const int64_t wait = first ? key.first - Clock::monotonic_ms() : 0;
        if (first && wait <= 0) {
            std::function<void()> fn;
            {
                std::lock_guard<std::mutex> g(first->m);
                auto it = first->items.find(key);  // gone if cancelled meanwhile
                if (it == first->items.end()) continue;
                fn = std::move(it->second);
                first->items.erase(it);
            }
            lock.unlock();
            fn();
            fn = nullptr;  // what the callback held goes before the lock is taken again
            lock.lock();
            continue;
        }
        wake_at_.store(key.first);
        auto woken = [this] { return changed_ || stopping_; };
        if (first)
            cv_.wait_for(lock, std::chrono::milliseconds(wait), woken);
        else
            cv_.wait(lock, woken);
    }
}

}  // namespace platform::host
