// platform/host/core/host_protocol.hpp — the host table (platform_host_api_t and its privileged
// sub-tables, abi.h) written once: which members each table has, and the op a worker sends for
// each (worker_protocol.hpp). Three places are made from these lists:
//   - make_host_api (core/host_api.cpp) fills every member with the host's function of the same
//     name in namespace platform::host::host_table (sub-tables: host_table::<sub-table>);
//   - make_proxy_api (worker/proxy_api.cpp) fills every member with the worker's stub of the same
//     name in namespace platform::worker::proxy, which sends the member's op to the host;
//   - serve_host_call (isolation/worker_host_calls.cpp) looks the op's wire name up in a map built
//     from PLATFORM_HOST_OPS and runs the serving function named after the op.
// Adding a host-table function is one line in its table's member list, one in PLATFORM_HOST_OPS
// (unless it reuses an op) and the three functions. The lists declare the functions, so one left
// undefined is a link error that names it; a line naming an op not in PLATFORM_HOST_OPS does not
// compile; and the unit test HostProtocol.EveryMemberOfEveryTableHasALine
// (tests/unit/host/host_protocol_test.cpp) fails for a member that has no line in its list.
//
// PLATFORM_HOST_OPS(X) — X(op, wire_name, kind), every op a worker sends for the host table.
//   op         the identifier of the op: op::<op> is its wire name, host_calls::<op> (host) serves it
//   wire_name  the "op" field on the wire, written nowhere else
//   kind       request: one reply {"code", ...results}; notify: a notification, never answered
//
// PLATFORM_<TABLE>_MEMBERS(X) — X(member, op), every function-pointer member of the struct, in the
//   struct's order. op names the PLATFORM_HOST_OPS entry the worker's stub sends, or in_worker for
//   members a worker answers itself from the call record the host sent (call_info, call_header).
//   Several members may share an op: the "store" sub-table's get..batch send the host table's
//   store ops with a "table" field.
//
// Each wire format (the fields of a request and of its reply) lives in the two functions that
// speak it: the worker's stub (proxy_api.cpp, proxy_subtables.cpp) and the host's serving function
// (host_calls_*.cpp). No state; any thread. host_serves is defined beside serve_host_call.
#pragma once

#include <platform/abi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

// clang-format off
#define PLATFORM_HOST_OPS(X)                                    \
    X(log, "log", notify)                                       \
    X(config_get, "config_get", request)                        \
    X(store_get, "store_get", request)                          \
    X(store_put, "store_put", request)                          \
    X(store_delete, "store_delete", request)                    \
    X(store_scan, "store_scan", request)                        \
    X(store_cas, "store_cas", request)                          \
    X(store_batch, "store_batch", request)                      \
    X(store_tables, "store.tables", request)                    \
    X(broker_publish, "broker_publish", request)                \
    X(broker_subscribe, "broker_subscribe", request)            \
    X(broker_unsubscribe, "broker_unsubscribe", request)        \
    X(clock_now_ms, "clock_now_ms", request)                    \
    X(respond, "respond", request)                              \
    X(respond_raw, "respond_raw", request)                      \
    X(respond_raw_headers, "respond_raw_headers", request)      \
    X(respond_chunk, "respond_chunk", request)                  \
    X(respond_end, "respond_end", request)                      \
    X(get_service, "get_service", request)                      \
    X(call_service, "call_service", request)                    \
    X(http_fetch, "http_fetch", request)                        \
    X(events_publish, "events_publish", request)                \
    X(events_read, "events_read", request)                      \
    X(events_wait, "events_wait", request)                      \
    X(call_progress, "call_progress", request)                  \
    X(call_log, "call_log", request)                            \
    X(call_client_request, "call_client_request", request)      \
    X(resource_updated, "resource_updated", notify)             \
    X(model_complete, "model_complete", request)                \
    X(call_tools, "call_tools", request)                        \
    X(grant_create, "grant_create", request)                    \
    X(grant_call_service, "grant_call_service", request)        \
    X(grant_revoke, "grant_revoke", request)                    \
    X(registry_list, "registry.list", request)                  \
    X(registry_get, "registry.get", request)                    \
    X(registry_register, "registry.register", request)          \
    X(registry_deregister, "registry.deregister", request)      \
    X(registry_watch, "registry.watch", request)                \
    X(registry_unwatch, "registry.unwatch", request)            \
    X(network_nodes, "network.nodes", request)                  \
    X(secrets_seal, "secrets.seal", request)                    \
    X(secrets_open, "secrets.open", request)                    \
    X(clock_is_manual, "clock.is_manual", request)              \
    X(clock_set, "clock.set", request)                          \
    X(clock_advance, "clock.advance", request)

#define PLATFORM_HOST_API_MEMBERS(X)                            \
    X(log, log)                                                 \
    X(config_get, config_get)                                   \
    X(store_get, store_get)                                     \
    X(store_put, store_put)                                     \
    X(store_delete, store_delete)                               \
    X(store_scan, store_scan)                                   \
    X(broker_publish, broker_publish)                           \
    X(broker_subscribe, broker_subscribe)                       \
    X(broker_unsubscribe, broker_unsubscribe)                   \
    X(clock_now_ms, clock_now_ms)                               \
    X(call_info, in_worker)                                     \
    X(call_header, in_worker)                                   \
    X(respond, respond)                                         \
    X(respond_raw, respond_raw)                                 \
    X(respond_chunk, respond_chunk)                             \
    X(respond_end, respond_end)                                 \
    X(get_service, get_service)                                 \
    X(call_service, call_service)                               \
    X(http_fetch, http_fetch)                                   \
    X(events_publish, events_publish)                           \
    X(events_read, events_read)                                 \
    X(events_wait, events_wait)                                 \
    X(store_cas, store_cas)                                     \
    X(store_batch, store_batch)                                 \
    X(call_progress, call_progress)                             \
    X(call_log, call_log)                                       \
    X(call_client_request, call_client_request)                 \
    X(resource_updated, resource_updated)                       \
    X(model_complete, model_complete)                           \
    X(call_tools, call_tools)                                   \
    X(grant_create, grant_create)                               \
    X(grant_call_service, grant_call_service)                   \
    X(grant_revoke, grant_revoke)                               \
    X(respond_raw_headers, respond_raw_headers)

#define PLATFORM_REGISTRY_API_MEMBERS(X)                        \
    X(list_services, registry_list)                             \
    X(get_service, registry_get)                                \
    X(register_service, registry_register)                      \
    X(deregister_service, registry_deregister)                  \
    X(watch, registry_watch)                                    \
    X(unwatch, registry_unwatch)

#define PLATFORM_STORE_API_MEMBERS(X)                           \
    X(get, store_get)                                           \
    X(put, store_put)                                           \
    X(del, store_delete)                                        \
    X(scan, store_scan)                                         \
    X(tables, store_tables)                                     \
    X(cas, store_cas)                                           \
    X(batch, store_batch)

#define PLATFORM_SECRETS_API_MEMBERS(X)                         \
    X(seal, secrets_seal)                                       \
    X(open, secrets_open)

#define PLATFORM_NETWORK_API_MEMBERS(X)                         \
    X(nodes, network_nodes)

#define PLATFORM_CLOCK_API_MEMBERS(X)                           \
    X(is_manual, clock_is_manual)                               \
    X(set_ms, clock_set)                                        \
    X(advance_ms, clock_advance)
// clang-format on

// PLATFORM_HOST_SUB_TABLES(X) — X(sub, type, service, version, members), every privileged
//   sub-table: the namespace its functions live in, its struct, the name get_service knows it by,
//   the version this host offers and its member list.
// clang-format off
#define PLATFORM_HOST_SUB_TABLES(X)                                                                   \
    X(registry, platform_registry_api_t, PLATFORM_SERVICE_REGISTRY, 2, PLATFORM_REGISTRY_API_MEMBERS) \
    X(store, platform_store_api_t, PLATFORM_SERVICE_STORE, 2, PLATFORM_STORE_API_MEMBERS)             \
    X(secrets, platform_secrets_api_t, PLATFORM_SERVICE_SECRETS, 1, PLATFORM_SECRETS_API_MEMBERS)     \
    X(network, platform_network_api_t, PLATFORM_SERVICE_NETWORK, 1, PLATFORM_NETWORK_API_MEMBERS)     \
    X(clock, platform_clock_api_t, PLATFORM_SERVICE_CLOCK, 1, PLATFORM_CLOCK_API_MEMBERS)
// clang-format on

// Declares `member` as a function of exactly the member's type, for the namespaces that define a
// table's functions: `using Table = platform_..._api_t;` then PLATFORM_<TABLE>_MEMBERS(this).
#define PLATFORM_HOST_DECLARE_MEMBER(member, op) \
    std::remove_pointer_t<decltype(Table::member)> member;
#define PLATFORM_HOST_DECLARE_SUB_TABLE(sub, type, service, version, members) \
    namespace sub {                                                           \
    using Table = type;                                                       \
    members(PLATFORM_HOST_DECLARE_MEMBER)                                     \
    }
// Declares, in the enclosing namespace, one function per member of every table: the host table's
// there, each sub-table's in the namespace named after it (registry::list_services...). The host
// (core/host_table.hpp) and the worker (worker/proxy_table.hpp) each define a set.
#define PLATFORM_HOST_DECLARE_TABLES                        \
    using Table = platform_host_api_t;                      \
    PLATFORM_HOST_API_MEMBERS(PLATFORM_HOST_DECLARE_MEMBER) \
    PLATFORM_HOST_SUB_TABLES(PLATFORM_HOST_DECLARE_SUB_TABLE)

// Fills `table.member` with the function of the same name in the namespace where it expands.
#define PLATFORM_HOST_FILL_MEMBER(member, op) table.member = &member;
#define PLATFORM_HOST_OFFER_SUB_TABLE(sub, type, service, version_, members) \
    if (name == service) {                                                   \
        static const type table = [] {                                       \
            type t{};                                                        \
            t.struct_size = sizeof t;                                        \
            t.version = version_;                                            \
            sub::fill(t);                                                    \
            return t;                                                        \
        }();                                                                 \
        return min_version <= table.version ? &table : nullptr;              \
    }
#define PLATFORM_HOST_DEFINE_SUB_FILL(sub, type, service, version, members) \
    namespace sub {                                                         \
    inline void fill(type& table) {                                         \
        members(PLATFORM_HOST_FILL_MEMBER)                                  \
    }                                                                       \
    }
// Defines, in the enclosing namespace (where PLATFORM_HOST_DECLARE_TABLES declared the functions):
//   void fill(platform_host_api_t& table)   every member of the host table, and
//   const void* sub_table(std::string_view name, uint32_t min_version)
//                                           the sub-table `name` filled once with that namespace's
//                                           functions, when its version is at least min_version;
//                                           nullptr otherwise and for a name it does not know.
#define PLATFORM_HOST_DEFINE_TABLES                                                                            \
    inline void fill(platform_host_api_t& table){PLATFORM_HOST_API_MEMBERS(                                    \
        PLATFORM_HOST_FILL_MEMBER)} PLATFORM_HOST_SUB_TABLES(PLATFORM_HOST_DEFINE_SUB_FILL) inline const void* \
    sub_table(std::string_view name, uint32_t min_version) {                                                   \
        PLATFORM_HOST_SUB_TABLES(PLATFORM_HOST_OFFER_SUB_TABLE)                                                \
        return nullptr;                                                                                        \
    }

namespace platform::host::protocol {

// op::<op>: the wire name of each op; op::in_worker (empty) for members no op carries.
namespace op {
#define PLATFORM_HOST_OP_NAME(id, wire, kind) inline constexpr char id[] = wire;
PLATFORM_HOST_OPS(PLATFORM_HOST_OP_NAME)
#undef PLATFORM_HOST_OP_NAME
inline constexpr char in_worker[] = "";
}  // namespace op

enum class OpKind { request, notify };

// One line of PLATFORM_HOST_OPS.
struct OpEntry {
    const char* wire;
    OpKind kind;
};
inline constexpr OpEntry kOps[] = {
#define PLATFORM_HOST_OP_ENTRY(id, wire, kind) {op::id, OpKind::kind},
    PLATFORM_HOST_OPS(PLATFORM_HOST_OP_ENTRY)
#undef PLATFORM_HOST_OP_ENTRY
};

// One line of a member list: the member's name, its offset in the struct, its op's wire name
// ("" for in_worker).
struct MemberEntry {
    const char* member;
    size_t offset;
    const char* op;
};

// TableMembers<T>::all: the member list of table T, as MemberEntry values.
template <typename T>
struct TableMembers;

#define PLATFORM_HOST_MEMBER_ENTRY(member, op_id) {#member, offsetof(Table, member), op::op_id},
#define PLATFORM_HOST_TABLE_MEMBERS(type, list)                                  \
    template <>                                                                  \
    struct TableMembers<type> {                                                  \
        using Table = type;                                                      \
        static constexpr MemberEntry all[] = {list(PLATFORM_HOST_MEMBER_ENTRY)}; \
    };
PLATFORM_HOST_TABLE_MEMBERS(platform_host_api_t, PLATFORM_HOST_API_MEMBERS)
PLATFORM_HOST_TABLE_MEMBERS(platform_registry_api_t, PLATFORM_REGISTRY_API_MEMBERS)
PLATFORM_HOST_TABLE_MEMBERS(platform_store_api_t, PLATFORM_STORE_API_MEMBERS)
PLATFORM_HOST_TABLE_MEMBERS(platform_secrets_api_t, PLATFORM_SECRETS_API_MEMBERS)
PLATFORM_HOST_TABLE_MEMBERS(platform_network_api_t, PLATFORM_NETWORK_API_MEMBERS)
PLATFORM_HOST_TABLE_MEMBERS(platform_clock_api_t, PLATFORM_CLOCK_API_MEMBERS)
#undef PLATFORM_HOST_TABLE_MEMBERS
#undef PLATFORM_HOST_MEMBER_ENTRY

// Every table starts with two uint32_t fields (struct_size, then abi_version or version); its
// function pointers follow.
inline constexpr size_t kTableHeaderBytes = 2 * sizeof(uint32_t);

// call_info (abi.h) from a call record that has the strings service, endpoint, account, scopes and
// request_id and the number deadline_ms (the host's Call, the worker's copy of it; null: none is
// known). Writes what `out` has room for (its struct_size) and sets struct_size to that; the
// strings point into the record, which the caller keeps alive for the call's duration.
template <typename Record>
void write_call_info(const Record* c, platform_call_info_t* out) {
    if (!out) return;
    auto view = [](const std::string& s) { return platform_str_t{s.data(), s.size()}; };
    platform_call_info_t info{};
    info.struct_size = sizeof info;
    if (c) {
        info.service = view(c->service);
        info.endpoint = view(c->endpoint);
        info.account = view(c->account);
        info.scopes = view(c->scopes);
        info.request_id = view(c->request_id);
        info.deadline_ms = c->deadline_ms;
    }
    const size_t n = std::min<size_t>(out->struct_size, sizeof info);
    std::memcpy(out, &info, n);
    out->struct_size = static_cast<uint32_t>(n);
}

// Whether serve_host_call has a serving function for the op named `wire` (its dispatch map).
bool host_serves(std::string_view wire);

}  // namespace platform::host::protocol
