// broker-memory — the publish queue and the dispatcher thread.
#include <platform/sdk/error.hpp>

#include "broker.hpp"

namespace broker_memory {

MemoryBroker::MemoryBroker(const platform::Host& host, const platform::json& config)
    : host_(host), max_pending_(65536) {
    if (auto it = config.find("max_pending"); it != config.end()) {
        if (!it->is_number_integer() || it->get<int64_t>() < 1)
            throw std::runtime_error(
                "broker-memory: config `max_pending` must be a positive integer");
        max_pending_ = it->get<size_t>();
    }
    thread_ = std::thread([this] { run(); });
}

MemoryBroker::~MemoryBroker() {
    {
        std::lock_guard<std::mutex> lock(queue_mutex_);
        stopping_ = true;
    }
    queue_cv_.notify_all();
    if (thread_.get_id() == std::this_thread::get_id())
        thread_.detach();  // destroyed from a callback
    else if (thread_.joinable())
        thread_.join();
}

void MemoryBroker::publish(std::string_view topic, std::string_view body,
                           std::string_view headers) {
    if (topic.empty()) throw platform::invalid_argument("topic: must not be empty");
    Message m{std::string(topic), std::string(body), headers.empty() ? "{}" : std::string(headers)};
    if (!has_subscribers(m.topic)) return;  // nobody listens: fire-and-forget
    {
        std::lock_guard<std::mutex> lock(queue_mutex_);
        if (stopping_) throw platform::unavailable("broker-memory: stopping");
        if (queue_.size() >= max_pending_)
            throw platform::unavailable("broker-memory: delivery queue full (max_pending " +
                                        std::to_string(max_pending_) + ")");
        queue_.push_back(std::move(m));
    }
    queue_cv_.notify_one();
}

void MemoryBroker::run() {
    for (;;) {
        Message m;
        {
            std::unique_lock<std::mutex> lock(queue_mutex_);
            queue_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            m = std::move(queue_.front());
            queue_.pop_front();
        }
        deliver(m);
    }
}

void MemoryBroker::deliver(const Message& m) {
    std::vector<std::string> groups;
    for (const auto& s : plain_of(m.topic, groups)) invoke(*s, m);
    for (const auto& g : groups) {
        // A member picked here may be unsubscribed before it runs; then it has left the group,
        // so the next pick sees the group without it.
        while (auto s = pick(m.topic, g))
            if (invoke(*s, m)) break;
    }
}

}  // namespace broker_memory
