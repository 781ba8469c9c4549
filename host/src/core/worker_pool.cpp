#include <algorithm>
#include <platform/host/core/thread_turn.hpp>
#include <platform/host/core/worker_pool.hpp>

namespace platform::host {

WorkerPool::WorkerPool(size_t min_threads, size_t max_threads) {
    const size_t min = min_threads ? min_threads : 1;
    const size_t max = std::max(max_threads, min);
    const size_t cores = std::max<size_t>(1, std::thread::hardware_concurrency());
    const size_t n = std::min({min, cores, size_t{8}});
    for (size_t i = 0; i < n; ++i) {
        auto s = std::make_shared<State>();
        s->min = min / n + (i < min % n);
        s->max = std::max(s->min, max / n + (i < max % n));
        std::lock_guard<std::mutex> g(s->m);
        for (size_t k = 0; k < s->min; ++k) spawn(s, true);
        shards_.push_back(std::move(s));
    }
}

WorkerPool::~WorkerPool() {
    stop();
}

void WorkerPool::spawn(const std::shared_ptr<State>& s, bool core) {
    ++s->live;
    s->room_hint.store(s->live < s->max, std::memory_order_relaxed);
    s->idle_hint.store(++s->idle, std::memory_order_relaxed);  // idle from now: it will take a task
    s->threads.emplace_back([s, core] { run(s, core); });
}

void WorkerPool::submit(std::function<void()> task) {
    const size_t n = shards_.size();
    size_t pick = n == 1 ? 0 : thread_turn() % n;
    if (n > 1 && shards_[pick]->idle_hint.load(std::memory_order_relaxed) == 0)
        pick = other_shard(pick);
    // The hints may be behind (idle workers already promised to tasks queued before): a shard
    // that would only queue the task passes it on to one that can run it, if any can.
    for (size_t i = 0; i < n; ++i) {
        const size_t at = (pick + i) % n;
        State& s = *shards_[at];
        std::lock_guard<std::mutex> g(s.m);
        if (s.stopping) return;
        const bool runs = s.tasks.size() < s.idle || s.live < s.max;
        if (!runs && i + 1 < n) continue;
        s.tasks.push_back(std::move(task));
        // idle workers may not have woken for earlier submissions yet: compare with the queue
        if (s.tasks.size() > s.idle && s.live < s.max) spawn(shards_[at], false);
        s.cv.notify_one();
        return;
    }
}

size_t WorkerPool::other_shard(size_t own) const {
    const size_t n = shards_.size();
    for (size_t i = 1; i < n; ++i)
        if (shards_[(own + i) % n]->idle_hint.load(std::memory_order_relaxed) > 0)
            return (own + i) % n;
    if (shards_[own]->room_hint.load(std::memory_order_relaxed)) return own;
    for (size_t i = 1; i < n; ++i)
        if (shards_[(own + i) % n]->room_hint.load(std::memory_order_relaxed)) return (own + i) % n;
    return own;
}

void WorkerPool::stop(std::chrono::milliseconds grace) {
    const auto until = std::chrono::steady_clock::now() + grace;
    std::vector<std::thread> joining;
    for (auto& s : shards_) {
        std::lock_guard<std::mutex> g(s->m);
        s->stopping = true;
        for (auto& t : s->threads) joining.push_back(std::move(t));
        s->threads.clear();
        s->cv.notify_all();
    }
    bool all_exited = true;
    for (auto& s : shards_) {
        std::unique_lock<std::mutex> lock(s->m);
        all_exited &= s->exited.wait_until(lock, until, [&] { return s->live == 0; });
    }
    // A worker stuck in a plugin past the grace period is left behind: the process is exiting.
    for (auto& t : joining)
        if (t.joinable()) all_exited ? t.join() : t.detach();
}

size_t WorkerPool::threads() const {
    size_t n = 0;
    for (auto& s : shards_) {
        std::lock_guard<std::mutex> g(s->m);
        n += s->live;
    }
    return n;
}

// A worker counts as idle (State::idle) from spawn until it takes a task and again after each:
// one still starting will take a task, so `tasks.size() < idle` means a queued task has a worker
// coming, and a shard whose new threads have not run yet is not taken for full.
void WorkerPool::run(std::shared_ptr<State> s, bool core) {
    std::unique_lock<std::mutex> lock(s->m);
    for (;;) {  // counted idle (by spawn, then after each task) until it takes a task
        bool woke = s->cv.wait_for(lock, std::chrono::seconds(30),
                                   [&] { return s->stopping || !s->tasks.empty(); });
        if (s->tasks.empty()) {
            if (s->stopping || (!woke && !core)) break;
            continue;
        }
        s->idle_hint.store(--s->idle, std::memory_order_relaxed);
        auto task = std::move(s->tasks.front());
        s->tasks.pop_front();
        lock.unlock();
        task();
        lock.lock();
        s->idle_hint.store(++s->idle, std::memory_order_relaxed);
    }
    s->idle_hint.store(--s->idle, std::memory_order_relaxed);
    --s->live;
    s->room_hint.store(s->live < s->max, std::memory_order_relaxed);
    s->exited.notify_all();
    // A retired elastic worker detaches itself unless stop() already took the handles.
    if (!s->stopping) {
        auto self = std::this_thread::get_id();
        for (auto it = s->threads.begin(); it != s->threads.end(); ++it)
            if (it->get_id() == self) {
                it->detach();
                s->threads.erase(it);
                break;
            }
    }
}

}  // namespace platform::host
