// events-nats — the platform_events_provider_t on NATS JetStream (cnats), persistent.
//
// One JetStream stream per topic, on file storage, named `<stream_prefix>_<name>` and bound to the
// one subject `<subject_prefix>.<name>`, where <name> is the topic's hex (topics are bytes; hex
// keeps any topic a valid stream name and subject token), or for a topic over 64 bytes "h" and the
// hex of its SHA-256 (stream names are file names on the server). The stream's description holds
// the topic's hex, which `topics` reads back. An event's offset is its stream sequence: the server assigns
// sequences one at a time, so concurrent appends from any number of processes get unique, gapless
// offsets from 1. The stream is created on the topic's first append.
//
// Each stored message is an envelope (envelope.hpp): id, timestamp, metadata, then the payload.
// read gets messages one by one by sequence (JetStream's "get message" request); wait subscribes to
// the topic's subject (core NATS sees every JetStream publish), then re-checks the stream, so an
// append between the check and the subscription is not missed.
#pragma once

#include <nats/nats.h>
#include <platform/abi.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <platform/sdk/host.hpp>
#include <set>
#include <string>
#include <string_view>

namespace events_nats {

// Receives one event (views valid during the call); returns false to stop.
using EventFn = std::function<bool(const platform_event_t&)>;

class NatsEvents {
public:
    // config: {"url": "nats://host:port" (else $PLATFORM_NATS_URL, else nats://127.0.0.1:4222),
    //          "stream_prefix": "PLATFORM_EVENTS", "subject_prefix": "platform.events",
    //          "replicas": 1, "timeout_ms": 5000}. Throws naming the URL when it cannot connect.
    NatsEvents(const platform::Host& host, const platform::json& config);
    ~NatsEvents();
    NatsEvents(const NatsEvents&) = delete;
    NatsEvents& operator=(const NatsEvents&) = delete;

    uint64_t append(const platform_event_t& e);
    void read(std::string_view topic, uint64_t from_offset, uint32_t limit, const EventFn& fn);
    // True once the topic has an event after `after_offset`, false after timeout_ms; throws
    // UNAVAILABLE once the provider is stopping.
    bool wait(std::string_view topic, uint64_t after_offset, int32_t timeout_ms);
    std::string topics();
    void stop();  // waiters notice within kStopSliceMs

    static constexpr int kStopSliceMs = 100;        // how often a waiter checks for stop
    static constexpr size_t kHexTopicBytes = 64;    // longer topics are named by their SHA-256
    static constexpr size_t kMaxTopicBytes = 1024;  // its hex fits a stream description (4 KB)
    static constexpr const char* kDescriptionPrefix = "platform events topic (hex): ";

private:
    static std::string name_of(std::string_view topic);
    std::string stream_of(std::string_view topic) const;
    std::string subject_of(std::string_view topic) const;
    void ensure_stream(std::string_view topic, const std::string& stream,
                       const std::string& subject);
    // The stream's last sequence (0 when it does not exist or is empty); first sequence in *first.
    uint64_t last_seq(const std::string& stream, uint64_t* first = nullptr);
    [[noreturn]] void fail(const char* op, natsStatus s, jsErrCode code = jsErrCode(0)) const;

    platform::Host host_;
    std::string url_, stream_prefix_, subject_prefix_;
    int64_t replicas_ = 1, timeout_ms_ = 5000;
    natsConnection* nc_ = nullptr;
    jsCtx* js_ = nullptr;
    std::mutex mutex_;               // guards created_
    std::set<std::string> created_;  // streams this instance has created or seen
    std::atomic<bool> stopping_{false};
};

}  // namespace events_nats
