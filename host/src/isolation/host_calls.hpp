// host_calls.hpp (host-internal) — the host half of the proxied host table: one serving function
// per op of PLATFORM_HOST_OPS (host_protocol.hpp), named after the op, which answers the request a
// worker sent by calling the real host table (core/host_api.cpp) as the worker's plugin. The
// fields each reads and answers are those the worker's stub (worker/proxy_api.cpp,
// proxy_subtables.cpp) writes and reads.
//
// serve_host_call (worker_host_calls.cpp) finds the function in a map built from PLATFORM_HOST_OPS.
// Defined in host_calls_store.cpp (the store ops, own table and "store" sub-table),
// host_calls_call.cpp (ops that name a call the worker was sent, and calls to other services),
// host_calls_services.cpp (log, config, clock, broker, events, outbound HTTP, the model) and
// host_calls_privileged.cpp (the "registry", "network", "secrets" and "clock" sub-tables).
// A function returns the reply ({"code", ...results}), or null for a notification. They run on the
// plugin's pool, any number at once.
#pragma once

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <platform/host/core/host_protocol.hpp>
#include <platform/host/isolation/worker_protocol.hpp>
#include <string>

#include "worker_process.hpp"

namespace platform::host::worker {

// The request's fields, read leniently: a missing or mistyped field reads as empty or zero.
struct Args {
    const nlohmann::json& m;
    std::string s(const char* k) const { return m.contains(k) ? bytes_of(m[k]) : std::string(); }
    int64_t i(const char* k) const {
        return m.contains(k) && m[k].is_number() ? m[k].get<int64_t>() : 0;
    }
    double d(const char* k) const {
        return m.contains(k) && m[k].is_number() ? m[k].get<double>() : 0.0;
    }
    bool has(const char* k) const { return m.contains(k) && !m[k].is_null(); }
};

// One request being served: the host table and plugin to call, the worker that asked, its fields.
struct HostCall {
    const HostSide& h;
    WorkerProcess& p;
    Args a;
};

namespace host_calls {
#define PLATFORM_HOST_CALL_DECLARE(op, wire, kind) nlohmann::json op(const HostCall& call);
PLATFORM_HOST_OPS(PLATFORM_HOST_CALL_DECLARE)
#undef PLATFORM_HOST_CALL_DECLARE
}  // namespace host_calls

// Shared by the serving functions.
inline platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}
inline std::string text_of(platform_str_t v) {
    return std::string(v.ptr ? v.ptr : "", v.len);
}
// A platform_bytes_sink_fn appending to the std::string at `u`.
void append(void* u, platform_str_t b);
// {"code": code}, with "out": bytes(*text) when code is OK and text is given.
nlohmann::json out(platform_status_t code, const std::string* text = nullptr);
// The call handle behind a call id on the wire.
inline platform_call_t* handle(uint64_t id) {
    return reinterpret_cast<platform_call_t*>(static_cast<uintptr_t>(id));
}
// Whether the worker may name call `id`: it was sent the call and it is not forgotten yet.
bool owns(WorkerProcess& p, uint64_t id);
// The worker gave the call's final answer.
void mark_answered(WorkerProcess& p, uint64_t id);
// The worker's broker subscriptions or registry watches (WorkerProcess::subscriptions, ::watches).
using Relays = std::map<uint64_t, std::unique_ptr<Relay>> WorkerProcess::*;
// Subscribes with a relay for the request's "token": `start` calls the host with the relay and
// writes the host's id; the relay is kept in (call.p.*relays) until unsubscribed. {"code", "sub"}.
nlohmann::json subscribe_relay(const HostCall& call, Relays relays,
                               const std::function<platform_status_t(Relay*, uint64_t*)>& start);
// Ends the relay of the request's "sub" (NOT_FOUND when the worker has none) with `stop`.
nlohmann::json unsubscribe_relay(const HostCall& call, Relays relays,
                                 const std::function<platform_status_t(uint64_t)>& stop);
// A privileged sub-table of at least `version`, or NULL (unprivileged plugin, older table).
template <typename T>
const T* sub(const HostSide& h, const char* name, uint32_t version) {
    return static_cast<const T*>(h.api->get_service(h.ctx, {name, std::strlen(name)}, version));
}

}  // namespace platform::host::worker
