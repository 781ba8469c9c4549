// events-memory — append, read, wait and the topic list over per-topic vectors.
#include "memory_events.hpp"

#include <chrono>
#include <platform/sdk/error.hpp>

namespace events_memory {

namespace {

std::string_view sv(platform_str_t s) {
    return platform::view(s);
}
platform_str_t bytes(std::string_view s) {
    return platform_str_t{s.empty() ? "" : s.data(), s.size()};
}

}  // namespace

MemoryEvents::MemoryEvents(const platform::Host& host, const platform::json&) : host_(host) {}

uint64_t MemoryEvents::append(const platform_event_t& e) {
    if (!e.topic.len) throw platform::invalid_argument("topic: must not be empty");
    auto ev = std::make_shared<Stored>();
    ev->id = platform::copy(e.id);
    ev->timestamp_ms = e.timestamp_ms;
    ev->metadata = e.metadata_json.len ? platform::copy(e.metadata_json) : std::string("{}");
    ev->payload = platform::copy(e.payload);
    uint64_t offset = 0;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = topics_.find(sv(e.topic));
        if (it == topics_.end()) it = topics_.emplace(platform::copy(e.topic), Topic{}).first;
        it->second.push_back(std::move(ev));
        offset = it->second.size();
    }
    appended_.notify_all();
    return offset;
}

void MemoryEvents::read(std::string_view topic, uint64_t from_offset, uint32_t limit,
                        const EventFn& fn) const {
    if (from_offset == 0) from_offset = 1;
    std::vector<std::shared_ptr<const Stored>> batch;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = topics_.find(topic);
        if (it == topics_.end() || from_offset > it->second.size()) return;
        size_t first = static_cast<size_t>(from_offset - 1);
        size_t n = it->second.size() - first;
        if (limit && n > limit) n = limit;
        batch.assign(it->second.begin() + static_cast<std::ptrdiff_t>(first),
                     it->second.begin() + static_cast<std::ptrdiff_t>(first + n));
    }
    uint64_t offset = from_offset;
    for (const auto& ev : batch) {
        platform_event_t out{};
        out.struct_size = sizeof out;
        out.id = bytes(ev->id);
        out.topic = bytes(topic);
        out.offset = offset++;
        out.timestamp_ms = ev->timestamp_ms;
        out.metadata_json = bytes(ev->metadata);
        out.payload = bytes(ev->payload);
        if (!fn(out)) break;
    }
}

uint64_t MemoryEvents::size_locked(std::string_view topic) const {
    auto it = topics_.find(topic);
    return it == topics_.end() ? 0 : it->second.size();
}

bool MemoryEvents::wait(std::string_view topic, uint64_t after_offset, int32_t timeout_ms) const {
    std::unique_lock<std::mutex> lock(mutex_);
    if (timeout_ms > 0)
        appended_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                           [&] { return stopping_ || size_locked(topic) > after_offset; });
    if (stopping_) throw platform::unavailable("events-memory: the provider is stopping");
    return size_locked(topic) > after_offset;
}

std::string MemoryEvents::topics() const {
    platform::json out = platform::json::array();
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [name, events] : topics_)
        out.push_back({{"topic", name}, {"events", events.size()}, {"last_offset", events.size()}});
    return out.dump(-1, ' ', false, platform::json::error_handler_t::replace);
}

void MemoryEvents::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    appended_.notify_all();
}

}  // namespace events_memory
