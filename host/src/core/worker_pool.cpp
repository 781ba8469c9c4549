#include <platform/host/core/worker_pool.hpp>

namespace platform::host {

WorkerPool::WorkerPool(size_t min_threads, size_t max_threads) : s_(std::make_shared<State>()) {
    s_->min = min_threads ? min_threads : 1;
    s_->max = max_threads < s_->min ? s_->min : max_threads;
    std::lock_guard<std::mutex> g(s_->m);
    for (size_t i = 0; i < s_->min; ++i) spawn(s_, true);
}

WorkerPool::~WorkerPool() {
    stop();
}

void WorkerPool::spawn(const std::shared_ptr<State>& s, bool core) {
    ++s->live;
    s->threads.emplace_back([s, core] { run(s, core); });
}

void WorkerPool::submit(std::function<void()> task) {
    std::lock_guard<std::mutex> g(s_->m);
    if (s_->stopping) return;
    s_->tasks.push_back(std::move(task));
    // idle workers may not have woken for earlier submissions yet: compare with the queue length
    if (s_->tasks.size() > s_->idle && s_->live < s_->max) spawn(s_, false);
    s_->cv.notify_one();
}

void WorkerPool::stop(std::chrono::milliseconds grace) {
    std::vector<std::thread> joining;
    bool all_exited;
    {
        std::unique_lock<std::mutex> lock(s_->m);
        s_->stopping = true;
        joining.swap(s_->threads);
        s_->cv.notify_all();
        all_exited = s_->exited.wait_for(lock, grace, [&] { return s_->live == 0; });
    }
    // A worker stuck in a plugin past the grace period is left behind: the process is exiting.
    for (auto& t : joining)
        if (t.joinable()) all_exited ? t.join() : t.detach();
}

size_t WorkerPool::threads() const {
    std::lock_guard<std::mutex> g(s_->m);
    return s_->live;
}

void WorkerPool::run(std::shared_ptr<State> s, bool core) {
    std::unique_lock<std::mutex> lock(s->m);
    for (;;) {
        ++s->idle;
        bool woke = s->cv.wait_for(lock, std::chrono::seconds(30),
                                   [&] { return s->stopping || !s->tasks.empty(); });
        --s->idle;
        if (s->tasks.empty()) {
            if (s->stopping || (!woke && !core)) break;
            continue;
        }
        auto task = std::move(s->tasks.front());
        s->tasks.pop_front();
        lock.unlock();
        task();
        lock.lock();
    }
    --s->live;
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
