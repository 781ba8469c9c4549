// common/work_queue — one worker thread that runs a plugin's queued jobs in order, for work a
// handler answers before doing (chat's @agent replies, mail's letters to the agent). A library
// linked by chat and mail; not a plugin.
//
// A job is two closures: `run`, called on the worker thread, and `drop`, called instead when the
// job never runs because the queue stopped first (each may be empty). An exception out of `run`
// is caught and given to `warn`; the worker goes on with the next job. At most `max_waiting` jobs
// wait; push() refuses more.
//
// Threads: push(), has_room(), start() and stop() from any thread. stop() lets the running job
// finish, calls `drop` of every waiting job on the calling thread, and joins the worker; start()
// after stop() starts again. The destructor stops.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace common {

class WorkQueue {
public:
    struct Job {
        std::function<void()> run, drop;
    };

    WorkQueue(std::size_t max_waiting, std::function<void(const std::string&)> warn);
    ~WorkQueue();
    WorkQueue(const WorkQueue&) = delete;
    WorkQueue& operator=(const WorkQueue&) = delete;

    void start();
    void stop();
    // Whether push() would take a job now (started, not stopping, fewer than max_waiting waiting).
    bool has_room() const;
    // Queues `job`; false (nothing called, the job is the caller's to drop) when it has no room.
    bool push(Job job);
    // Jobs waiting now (not the one running).
    std::size_t waiting() const;

private:
    void work();

    const std::size_t max_waiting_;
    const std::function<void(const std::string&)> warn_;
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::deque<Job> waiting_;
    std::thread thread_;
    bool stopping_ = true;  // until start()
};

}  // namespace common
