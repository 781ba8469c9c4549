// events — the state of one consumer group on one topic, and its rules.
//
// Every offset up to `committed` is acknowledged; every offset below `next` was delivered at
// least once. Between them, an offset is either in flight (delivered, waiting for its ack until
// `due_ms`, business time) or acknowledged out of order (`acked`). An in-flight event whose due
// time has passed, or that was nacked (due 0), is delivered again to the next consumer that asks.
// The window `next - committed - 1` is capped at kMaxPending: a group with that many events
// delivered but not acknowledged gets redeliveries only, until acks move `committed`.
//
// The state is one JSON record in the service's store table; the service serialises changes
// with a mutex (see events.hpp for what that means across replicas).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace events_service {

struct InFlight {
    int64_t due_ms = 0;       // business time after which it is delivered again; 0 = now (nacked)
    uint32_t deliveries = 0;  // how many times it was delivered
};

struct GroupState {
    static constexpr uint64_t kMaxPending = 1000;

    uint64_t committed = 0;
    uint64_t next = 1;
    std::map<uint64_t, InFlight> inflight;
    std::set<uint64_t> acked;

    // A group that starts at `offset` (the first offset it will be given).
    static GroupState starting_at(uint64_t offset);
    // Moves the group to `offset`, forgetting deliveries and acks.
    void seek(uint64_t offset);

    // The lowest in-flight offset due at `now_ms`, or 0.
    uint64_t due(int64_t now_ms) const;
    // No new offset may be delivered until acks move `committed`.
    bool window_full() const { return next - committed - 1 >= kMaxPending; }
    // Records a delivery of `offset` (a redelivery, or `next`, which then advances) due back at due_ms.
    // Returns the delivery count.
    uint32_t deliver(uint64_t offset, int64_t due_ms);
    // A delivery that never reached its consumer: due again at once, not counted.
    void release(uint64_t offset);

    enum class Outcome { done, already_acked, unknown };
    // Acknowledges; `committed` advances over the contiguous acknowledged prefix.
    Outcome ack(uint64_t offset);
    // Hands an in-flight event back for redelivery now.
    Outcome nack(uint64_t offset);

    nlohmann::json to_json() const;
    static GroupState from_json(const nlohmann::json& j);  // throws on a malformed record
};

}  // namespace events_service
