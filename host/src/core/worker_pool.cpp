#include <platform/host/worker_pool.hpp>

#include <chrono>

namespace platform::host {

WorkerPool::WorkerPool(size_t min_threads, size_t max_threads)
    : min_(min_threads ? min_threads : 1), max_(max_threads < min_ ? min_ : max_threads) {
    std::lock_guard<std::mutex> g(m_);
    for (size_t i = 0; i < min_; ++i) {
        ++live_;
        threads_.emplace_back([this] { run(true); });
    }
}

WorkerPool::~WorkerPool() { stop(); }

void WorkerPool::submit(std::function<void()> task) {
    std::lock_guard<std::mutex> g(m_);
    if (stopping_) return;
    tasks_.push_back(std::move(task));
    if (idle_ == 0 && live_ < max_) {
        ++live_;
        threads_.emplace_back([this] { run(false); });
    } else {
        cv_.notify_one();
    }
}

void WorkerPool::stop(std::chrono::milliseconds grace) {
    std::vector<std::thread> joining;
    bool all_exited;
    {
        std::unique_lock<std::mutex> lock(m_);
        stopping_ = true;
        joining.swap(threads_);
        cv_.notify_all();
        all_exited = exited_.wait_for(lock, grace, [&] { return live_ == 0; });
    }
    // A worker stuck in a plugin past the grace period is left behind: the process is exiting.
    for (auto& t : joining)
        if (t.joinable()) all_exited ? t.join() : t.detach();
}

size_t WorkerPool::threads() const {
    std::lock_guard<std::mutex> g(m_);
    return live_;
}

void WorkerPool::run(bool core) {
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
        ++idle_;
        bool woke = cv_.wait_for(lock, std::chrono::seconds(30),
                                 [&] { return stopping_ || !tasks_.empty(); });
        --idle_;
        if (tasks_.empty()) {
            if (stopping_ || (!woke && !core)) break;
            continue;
        }
        auto task = std::move(tasks_.front());
        tasks_.pop_front();
        lock.unlock();
        task();
        lock.lock();
    }
    --live_;
    exited_.notify_all();
    // A retired elastic worker detaches itself unless stop() already took the handles.
    if (!stopping_) {
        auto self = std::this_thread::get_id();
        for (auto it = threads_.begin(); it != threads_.end(); ++it)
            if (it->get_id() == self) {
                it->detach();
                threads_.erase(it);
                break;
            }
    }
}

}  // namespace platform::host
