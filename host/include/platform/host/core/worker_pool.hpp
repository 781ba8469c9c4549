// platform/host/core/worker_pool.hpp — the threads plugin calls run on (never Pistache's I/O
// threads).
//
// Elastic: it starts `min_threads` workers and adds one whenever queued tasks outnumber idle
// workers, up to `max_threads`, so one slow plugin (a model call, an outbound fetch, a handler that
// sleeps) cannot starve the others. Extra workers retire after 30 s idle. Tasks beyond max queue.
// Workers share the pool's state by reference count, so one still stuck in a plugin after stop()
// gave up on it never touches freed memory.
//
// No lock covers the whole pool: it is split into shards (one per core, at most min_threads and
// 8), each with its own queue, lock, workers and share of min and max, and each elastic on its
// own. A thread submits to its own shard (threads are spread over the shards) unless that shard
// has no idle worker and another has: then to that one; when no shard has an idle worker, to its
// own if it may still grow, else to one that may. Those hints are read without a lock and may be
// behind, so a shard that finds under its lock that it could only queue the task passes it to the
// next (queued only when no shard can run it). So the pool as a whole reaches max_threads
// however the submitting threads happen to fall on the shards, and tasks queue only when every
// shard is at its maximum. A pool with min_threads 1 has one shard, so its tasks run in the order
// they were submitted, one at a time when max_threads is 1.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace platform::host {

class WorkerPool {
public:
    WorkerPool(size_t min_threads, size_t max_threads);
    ~WorkerPool();  // stop()
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    void submit(std::function<void()> task);
    // Finishes queued tasks and joins; workers still busy after `grace` are detached.
    void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(5000));
    size_t threads() const;
    size_t shards() const { return shards_.size(); }

private:
    struct State {
        size_t min = 1, max = 1;
        std::mutex m;
        std::condition_variable cv, exited;
        std::deque<std::function<void()>> tasks;
        std::vector<std::thread> threads;
        size_t live = 0, idle = 0;
        // `idle` and whether live < max, as last written under m, read without the lock by
        // submit() to pick a shard.
        std::atomic<size_t> idle_hint{0};
        std::atomic<bool> room_hint{true};
        bool stopping = false;
    };
    static void run(std::shared_ptr<State> s, bool core);
    static void spawn(const std::shared_ptr<State>& s, bool core);  // with s->m held
    // The shard for a task when shard `own` has no idle worker (the rule above), from the hints.
    size_t other_shard(size_t own) const;

    std::vector<std::shared_ptr<State>> shards_;
};

}  // namespace platform::host
