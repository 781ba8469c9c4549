// events — the platform's built-in `events` service (go.core.api.events): ordered, persistent
// streams per topic, read live or replayed from an offset, over the host's events functions.
//
//   publish  POST  topic, payload, metadata, timestamp      → {id, topic, offset, timestamp}
//   read     GET   topic, offset, limit                     → {events, next_offset}
//   consume  GET   topic, offset, group, limit, wait_ms, ack_ms → a stream, one event per chunk
//   ack/nack POST  topic, group, offset                     → {acked|nacked: offset}
//   topics   GET                                            → {topics: [{topic, events, last_offset}]}
//
// Storage: events live in the profile's events provider (through Host::publish_event /
// read_events / wait_events); this service's own store table keeps the topics it has seen
// (`topic/<topic>`) and consumer groups (`group/<topic>/<group>`, see groups.hpp).
//
// Consumer groups are coordinated by one mutex per process: consumers of one group on different
// replicas share its stored position but may race (the store has no compare-and-set); run one
// replica per group, or give each replica its own group.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <platform/sdk.hpp>
#include <set>
#include <string>

#include "groups.hpp"

class Events {
public:
    static void describe(platform::ServiceSpec<Events>& s);
    explicit Events(const platform::Host& host) : host_(host) {}
    void stop();

    platform::json publish(platform::Request& r);
    platform::json read(platform::Request& r);
    void consume(platform::Request& r, platform::Responder out);
    platform::json ack(platform::Request& r);
    platform::json nack(platform::Request& r);
    platform::json topics(platform::Request& r);

    static constexpr int64_t kDefaultWaitMs = 30000, kMaxWaitMs = 300000;
    static constexpr int64_t kDefaultAckMs = 30000, kMaxAckMs = 86400000;
    static constexpr int64_t kDeadlineMarginMs =
        500;                                  // a stream ends this long before the call's deadline
    static constexpr int64_t kSliceMs = 250;  // consumers re-check (groups, stop) this often

private:
    struct Claim {
        std::optional<platform::Event> event;
        uint32_t deliveries = 0;
        uint64_t next = 1;  // the group's next new offset
        bool full = false;  // window full: only redeliveries until acks arrive
    };

    uint64_t last_offset(const std::string& topic);
    bool has_event(const std::string& topic, uint64_t offset) const;
    void remember_topic(const std::string& topic);

    std::optional<events_service::GroupState> load_group(const std::string& topic,
                                                         const std::string& group) const;
    void save_group(const std::string& topic, const std::string& group,
                    const events_service::GroupState& g) const;
    uint64_t start_group(const std::string& topic, const std::string& group,
                         std::optional<uint64_t> offset);
    Claim claim(const std::string& topic, const std::string& group, int64_t ack_ms);
    void release(const std::string& topic, const std::string& group, uint64_t offset);
    platform::json settle(platform::Request& r, bool ack);

    platform::Host host_;
    std::mutex groups_mutex_;  // every read-modify-write of a group record
    std::condition_variable
        groups_changed_;  // acks and nacks (and stop) wake waiting group consumers
    std::mutex topics_mutex_;
    std::set<std::string> topics_seen_;
    std::map<std::string, uint64_t> last_seen_;  // hint for last_offset
    std::atomic<bool> stopping_{false};
};
