// host_table.hpp (host-internal) — the host's functions behind platform_host_api_t and its
// privileged sub-tables, one per member of the lists in host_protocol.hpp, declared from those
// lists with each member's own type. make_host_api (host_api.cpp) puts them in the tables.
//
// Where they are defined: host_api.cpp (log, config, clock, get_service, the MCP notification),
// host_api_store.cpp (the plugin's store table and the "store" sub-table), host_api_calls.cpp (the
// functions on a call: info, answers, MCP, tools, grant_create), host_api_services.cpp (calls to
// other services, grants, broker, events, outbound HTTP, the model), host_api_privileged.cpp (the
// "registry", "network", "secrets" and "clock" sub-tables). Every function finds its runtime and
// plugin through the HostCtx, or its call through the CallTable; all are thread-safe.
#pragma once

#include <memory>
#include <platform/host/core/host_protocol.hpp>
#include <platform/host/core/runtime.hpp>
#include <string>
#include <string_view>

namespace platform::host::host_table {

PLATFORM_HOST_DECLARE_TABLES
PLATFORM_HOST_DEFINE_TABLES

// Shared by the definitions.
inline HostCtx& hctx(platform_host_ctx_t* c) {
    return *reinterpret_cast<HostCtx*>(c);
}
inline std::string str(platform_str_t s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}
inline platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}
inline std::string_view view_of(platform_str_t s) {
    return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}
inline int64_t now(platform_host_ctx_t* c) {
    return hctx(c).runtime->clock().now_ms();
}
inline std::shared_ptr<Call> find_call(platform_call_t* call) {
    return CallTable::global().find(call);
}

}  // namespace platform::host::host_table
