// platform/host/worker_pool.hpp — the threads plugin calls run on (never Pistache's I/O threads).
//
// Elastic: it starts `min_threads` workers and adds one whenever a task arrives with none idle,
// up to `max_threads`, so one slow plugin (a model call, an outbound fetch, a handler that sleeps)
// cannot starve the others. Extra workers retire after 30 s idle. Tasks beyond max_threads queue.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace platform::host {

class WorkerPool {
public:
    WorkerPool(size_t min_threads, size_t max_threads);
    ~WorkerPool();  // finishes queued tasks, then joins
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    void submit(std::function<void()> task);
    // Finishes queued tasks and joins; workers still busy after `grace` are detached.
    void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(5000));
    size_t threads() const;

private:
    void run(bool core);

    size_t min_, max_;
    mutable std::mutex m_;
    std::condition_variable cv_, exited_;
    std::deque<std::function<void()>> tasks_;
    std::vector<std::thread> threads_;
    size_t live_ = 0, idle_ = 0;
    bool stopping_ = false;
};

}  // namespace platform::host
