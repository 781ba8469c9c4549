// platform/host/http/stop_gate.hpp — "the transport still exists", without a process-wide lock.
//
// Every write to a connection (an answer's pieces, a stream's chunks, a relay or WebSocket taking
// the socket) must not start once stop() has begun tearing Pistache's transports down, and stop()
// must not tear them down while a write is inside Pistache. A writer holds a Pass for the length
// of its call into Pistache and asks it open() first; close() makes every later open() false and
// returns once the writers already inside have left.
//
// The gate is split into shards, each its own cache line and read-write lock; a writer takes its
// thread's shard (thread_turn), so writers on different threads never touch the same lock. close()
// takes every shard in turn, exclusively: any writer that got a shard after that shard's turn sees
// the closed flag, stored before the first turn. Thread-safe.
#pragma once

#include <array>
#include <atomic>
#include <mutex>
#include <platform/host/core/thread_turn.hpp>
#include <shared_mutex>

namespace platform::host::front {

class StopGate {
public:
    // Held by one writer for the length of one call into the transport.
    class Pass {
    public:
        explicit Pass(const StopGate& gate)
            : gate_(gate), lock_(gate.shards_[thread_turn() % kShards].m) {}
        // False once close() began: the transport may be going away; write nothing.
        bool open() const { return !gate_.closed_.load(std::memory_order_acquire); }

    private:
        const StopGate& gate_;
        std::shared_lock<std::shared_mutex> lock_;
    };

    // Makes every later Pass closed and waits for the passes already held to end.
    void close() {
        closed_.store(true, std::memory_order_release);
        for (auto& s : shards_) std::unique_lock<std::shared_mutex> wait_out(s.m);
    }
    bool closed() const { return closed_.load(std::memory_order_acquire); }

private:
    static constexpr unsigned kShards = 16;
    struct alignas(64) Shard {
        mutable std::shared_mutex m;
    };
    std::array<Shard, kShards> shards_;
    std::atomic<bool> closed_{false};
};

}  // namespace platform::host::front
