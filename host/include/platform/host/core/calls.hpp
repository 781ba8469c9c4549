// platform/host/core/calls.hpp — in-flight plugin calls and the handles plugins hold.
//
// A plugin never holds a pointer into host memory: platform_call_t* is a numeric id. Every host
// function taking a call looks the id up, so answering twice, answering after the deadline, or
// answering a call the host already forgot is a clean INVALID_ARGUMENT, never a use-after-free.
// An entry lives until it is answered (by the plugin or by the deadline) AND on_call returned
// AND any on_cancel returned, so views lent by call_info/call_header stay valid for the handler.
#pragma once

#include <platform/abi.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <platform/host/core/identity.hpp>
#include <platform/host/core/timer_queue.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace platform::host {

struct Plugin;

// What a call produced.
struct Outcome {
    Outcome(platform_status_t code_ = PLATFORM_OK, std::string body_ = {},
            std::string content_type_ = {}, bool raw_ = false, bool streamed_ = false)
        : code(code_),
          body(std::move(body_)),
          content_type(std::move(content_type_)),
          raw(raw_),
          streamed(streamed_) {}
    platform_status_t code = PLATFORM_OK;
    std::string body;          // JSON result, raw bytes, or the error message
    std::string content_type;  // set for raw replies; "" means JSON
    bool raw = false;
    bool streamed = false;  // chunks already went out through the call's chunk sink
    // Answer headers the host adds (WWW-Authenticate, Retry-After, PAYMENT-REQUIRED,
    // PAYMENT-RESPONSE...). A failure with `raw` set is sent with `body` as it is (a 402 challenge).
    std::vector<std::pair<std::string, std::string>> headers;
};

struct Call;

// The MCP client a call came from (tools/call through /mcp; mcp.hpp), reached by the host table's
// call_progress, call_log and call_client_request (ABI 1.4). Null for every other call.
class CallClient {
public:
    virtual ~CallClient() = default;
    // The dispatcher created the call (it may now be cancelled through Runtime::abandon).
    virtual void attached(const std::shared_ptr<Call>& call) = 0;
    virtual platform_status_t progress(double done, double total, std::string_view message) = 0;
    virtual platform_status_t log(std::string_view level, std::string_view logger,
                                  std::string_view data_json) = 0;
    // `reply` runs exactly once unless this returns an error.
    virtual platform_status_t request(
        std::string_view method, std::string_view params_json, int64_t timeout_ms,
        std::function<void(platform_status_t, std::string)> reply) = 0;
};

struct Call {
    uint64_t id = 0;
    std::string service, endpoint, account, scopes, request_id;
    // Who the call runs as, token restrictions included: calls it makes as its caller
    // (call_service with a parent) and the tools it may use (call_tools) follow them.
    Identity caller;
    std::map<std::string, std::string> headers;  // lower-case names
    int64_t deadline_ms = 0;                     // monotonic
    // The deadline's timer (set under m): cancelled when the call is answered, so an answered call
    // leaves nothing in the timer queue until its deadline.
    TimerQueue* timers = nullptr;
    TimerQueue::Id deadline_timer;
    Plugin* plugin = nullptr;
    std::function<void(Outcome)> done;
    // Streams chunks to the client as they come; false once the client is gone. Unset: buffered.
    std::function<bool(std::string_view)> chunk_sink;
    bool chunked = false;                // a chunk went through chunk_sink
    std::shared_ptr<CallClient> client;  // set for calls from MCP clients

    std::mutex m;
    std::string stream;  // respond_chunk buffer
    bool answered = false, handler_returned = false, cancelling = false;
};

// Process-wide: call handles carry no context, so there is one table per process. It is sharded
// by call id, each shard with its own lock, so calls made on different threads (ids come from
// per-thread blocks) rarely meet on a lock; no lock covers the whole table.
class CallTable {
public:
    static CallTable& global();
    std::shared_ptr<Call> create();
    std::shared_ptr<Call> find(platform_call_t* handle) const;
    static platform_call_t* handle(const Call& c) {
        return reinterpret_cast<platform_call_t*>(static_cast<uintptr_t>(c.id));
    }

    // Delivers the outcome once and cancels the call's deadline timer; false if the call was
    // already answered.
    bool answer(const std::shared_ptr<Call>& call, Outcome outcome);
    // Marks on_call as returned / on_cancel as finished; forgets the call when nothing holds it.
    void handler_returned(const std::shared_ptr<Call>& call);
    void cancel_finished(const std::shared_ptr<Call>& call);
    size_t size() const;

private:
    void forget_if_done(const std::shared_ptr<Call>& call, std::unique_lock<std::mutex>& lock);

    static constexpr size_t kShards = 64;
    struct alignas(64) Shard {
        std::mutex m;
        std::unordered_map<uint64_t, std::shared_ptr<Call>> calls;
    };
    Shard& shard(uint64_t id) const { return shards_[id % kShards]; }

    mutable std::array<Shard, kShards> shards_;
    std::atomic<uint64_t> next_block_{1};  // ids are taken by each thread kIdBlock at a time
};

}  // namespace platform::host
