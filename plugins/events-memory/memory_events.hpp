// events-memory — the platform_events_provider_t kept in process memory (not persistent).
//
// One vector of events per topic; an event's offset is its index + 1. Events are immutable once
// appended and shared (shared_ptr), so a read copies pointers under the lock and calls the sink
// after releasing it: a sink may call back into the provider. One condition variable, notified by
// every append, wakes waiters; each waiter re-checks its own topic.
#pragma once

#include <platform/abi.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <platform/sdk/host.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace events_memory {

// One stored event; the offset is implied by its position.
struct Stored {
    std::string id;
    int64_t timestamp_ms = 0;
    std::string metadata;  // JSON object text
    std::string payload;   // bytes
};

// Receives one event (views valid during the call); returns false to stop.
using EventFn = std::function<bool(const platform_event_t&)>;

class MemoryEvents {
public:
    MemoryEvents(const platform::Host& host, const platform::json& config);

    // Appends a copy of the event (id, timestamp, metadata and payload) and returns its offset.
    uint64_t append(const platform_event_t& e);
    // Events of `topic` with offset >= from_offset (0 is read as 1), at most `limit` (0 = all).
    void read(std::string_view topic, uint64_t from_offset, uint32_t limit,
              const EventFn& fn) const;
    // True once the topic holds an event after `after_offset`; false when timeout_ms passes.
    // Throws UNAVAILABLE once the provider is stopping.
    bool wait(std::string_view topic, uint64_t after_offset, int32_t timeout_ms) const;
    // JSON array of {topic, events, last_offset}, ordered by topic.
    std::string topics() const;
    // Wakes every waiter; waits then fail with UNAVAILABLE at once (a waiting consumer ends).
    void stop();

private:
    using Topic = std::vector<std::shared_ptr<const Stored>>;
    uint64_t size_locked(std::string_view topic) const;

    platform::Host host_;
    mutable std::mutex mutex_;
    mutable std::condition_variable appended_;
    std::map<std::string, Topic, std::less<>> topics_;
    bool stopping_ = false;
};

}  // namespace events_memory
