// worker_state.hpp — the state of `platform-worker`: one plugin, one socket to the host
// (worker_protocol.hpp), the calls it is running and the callbacks the host may still deliver.
//
// One WorkerState per process (state()); everything in it is thread-safe. The plugin's
// platform_host_ctx_t* is &state() (never dereferenced by the plugin).
#pragma once

#include <platform/abi.h>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <platform/host/core/plugin.hpp>
#include <platform/host/core/worker_pool.hpp>
#include <platform/host/isolation/worker_channel.hpp>
#include <string>
#include <thread>

namespace platform::worker {

using nlohmann::json;

// A call the host sent. Views lent by call_info/call_header point into it; it is forgotten once
// answered (or cancelled) and on_call returned, as the host's CallTable does.
struct CallRecord {
    uint64_t id = 0;
    std::string service, endpoint, account, scopes, request_id;
    std::map<std::string, std::string> headers;  // lower-case names
    int64_t deadline_ms = 0;
    bool answered = false, returned = false;
};

// A callback the host delivers repeatedly (broker subscription, registry watch). remove() waits
// for a delivery in progress on another thread, so after it returns the plugin's function is
// never called again (the ABI's promise for broker_unsubscribe and unwatch).
struct Listener {
    platform_message_fn message = nullptr;
    platform_bytes_sink_fn sink = nullptr;
    void* user = nullptr;
    std::mutex m;
    std::condition_variable cv;
    bool active = true;
    int running = 0;
    std::thread::id runner;
};

struct WorkerState {
    std::shared_ptr<host::worker::Channel> channel;
    host::Plugin* plugin = nullptr;
    void* instance = nullptr;
    bool privileged = false;
    platform_host_api_t api{};

    host::WorkerPool handlers{2, 32};   // on_create, on_start, on_call, on_cancel
    host::WorkerPool callbacks{1, 16};  // call_service / client request replies
    host::WorkerPool deliveries{1, 1};  // broker messages and watch events, in order

    std::mutex m;
    std::map<uint64_t, std::shared_ptr<CallRecord>> calls;
    std::map<uint64_t, std::pair<platform_reply_fn, void*>> replies;  // by token
    std::map<uint64_t, std::shared_ptr<Listener>> listeners;          // by token
    std::map<uint64_t, uint64_t> listener_of_sub;                     // host sub/watch id -> token
    uint64_t next_token = 1;

    std::shared_ptr<CallRecord> find_call(platform_call_t* call);
    // Marks answered / returned and forgets the record when both hold.
    void answered(uint64_t id);
    void returned(uint64_t id);
    uint64_t add_reply(platform_reply_fn fn, void* user);
    uint64_t add_listener(std::shared_ptr<Listener> l);
    void remove_listener(uint64_t host_id);
    void deliver(uint64_t token, const std::function<void(Listener&)>& fn);
};

WorkerState& state();
platform_host_ctx_t* ctx();

// Sends a request to the host and waits for the reply; {"code": UNAVAILABLE} when the host is gone.
json ask(json request);
platform_status_t code_of(const json& reply);
json bytes(platform_str_t s);
platform_str_t view(const std::string& s);
// The reply's code; when it is OK, reply["out"] (empty when absent) is lent to sink (if any).
platform_status_t lend(const json& reply, platform_bytes_sink_fn sink, void* user);

// Shared by the host table and the privileged "store" / "registry" sub-tables (table: NULL = the
// plugin's own store table).
json scan_request(const platform_scan_t* scan, const platform_str_t* table);
platform_status_t scan_records(const json& reply, platform_record_sink_fn sink, void* user);
json cas_request(const platform_str_t* table, platform_str_t key, const platform_str_t* expected,
                 const platform_str_t* value, int64_t expires_at_ms);
json batch_request(const platform_str_t* table, const platform_store_op_t* ops, uint32_t count,
                   uint32_t stride);  // null: bad ops
// Registers `l` under a new token, sends `request` with it and writes the host's id to *out.
platform_status_t subscribe_listener(json request, std::shared_ptr<Listener> l, uint64_t* out);

// The proxied host table (proxy_api.cpp; its functions and privileged sub-tables: proxy_table.hpp).
platform_host_api_t make_proxy_api();

}  // namespace platform::worker
