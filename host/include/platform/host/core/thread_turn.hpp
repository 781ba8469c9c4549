// platform/host/core/thread_turn.hpp — which shard a thread uses when it has no better reason.
//
// Threads take numbers in the order they first ask (0, 1, 2, …), each keeping its own for its
// life; `thread_turn() % shards` spreads the threads that schedule timers or submit work over a
// structure's shards evenly, with no lock and no shared write after a thread's first call. Used by
// the timer queue (timer_queue.cpp) and the worker pool (worker_pool.cpp).
#pragma once

#include <atomic>
#include <cstdint>

namespace platform::host {

inline uint32_t thread_turn() {
    static std::atomic<uint32_t> next{0};
    thread_local const uint32_t mine = next.fetch_add(1, std::memory_order_relaxed);
    return mine;
}

}  // namespace platform::host
