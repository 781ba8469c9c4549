#include "work_queue.hpp"

namespace common {

WorkQueue::WorkQueue(std::size_t max_waiting, std::function<void(const std::string&)> warn)
    : max_waiting_(max_waiting), warn_(std::move(warn)) {}

WorkQueue::~WorkQueue() {
    stop();
}

void WorkQueue::start() {
    std::lock_guard<std::mutex> g(m_);
    if (thread_.joinable()) return;
    stopping_ = false;
    thread_ = std::thread([this] { work(); });
}

void WorkQueue::stop() {
    std::deque<Job> left;
    {
        std::lock_guard<std::mutex> g(m_);
        stopping_ = true;
        left.swap(waiting_);
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    for (Job& j : left)
        if (j.drop) j.drop();
}

bool WorkQueue::has_room() const {
    std::lock_guard<std::mutex> g(m_);
    return !stopping_ && waiting_.size() < max_waiting_;
}

std::size_t WorkQueue::waiting() const {
    std::lock_guard<std::mutex> g(m_);
    return waiting_.size();
}

bool WorkQueue::push(Job job) {
    {
        std::lock_guard<std::mutex> g(m_);
        if (stopping_ || waiting_.size() >= max_waiting_) return false;
        waiting_.push_back(std::move(job));
    }
    cv_.notify_all();
    return true;
}

void WorkQueue::work() {
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
        cv_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
        if (stopping_) return;
        Job job = std::move(waiting_.front());
        waiting_.pop_front();
        lock.unlock();
        try {
            if (job.run) job.run();
        } catch (const std::exception& e) {
            if (warn_) warn_(e.what());
        }
        lock.lock();
    }
}

}  // namespace common
