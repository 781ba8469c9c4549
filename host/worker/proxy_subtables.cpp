// The privileged sub-tables as a plugin in a worker sees them, and the store request shapes the
// host table shares with them. get_service asks the host (which knows whether the plugin is
// privileged and which versions it has) and lends the worker's proxy table.
#include <cstring>
#include <platform/host/core/store_ops.hpp>

#include "proxy_table.hpp"
#include "worker_state.hpp"

namespace platform::worker {

namespace op = host::protocol::op;

namespace {
std::string text(const json& v) {
    return host::worker::bytes_of(v);
}
platform_status_t lend_error(const json& reply, platform_bytes_sink_fn sink, void* user) {
    platform_status_t st = code_of(reply);
    if (st != PLATFORM_OK && sink && reply.contains("error")) {
        std::string e = text(reply["error"]);
        sink(user, view(e));
    }
    return st;
}
json with_table(json request, platform_str_t table) {
    request["table"] = bytes(table);
    return request;
}

}  // namespace

namespace proxy {

namespace registry {
platform_status_t list_services(platform_host_ctx_t*, platform_bytes_sink_fn sink, void* user) {
    return lend(ask({{"op", op::registry_list}}), sink, user);
}
platform_status_t get_service(platform_host_ctx_t*, platform_str_t name,
                              platform_bytes_sink_fn sink, void* user) {
    return lend(ask({{"op", op::registry_get}, {"arg", bytes(name)}}), sink, user);
}
platform_status_t register_service(platform_host_ctx_t*, platform_str_t service, int64_t ttl_s,
                                   platform_bytes_sink_fn sink, void* user) {
    return lend_error(
        ask({{"op", op::registry_register}, {"arg", bytes(service)}, {"ttl_s", ttl_s}}), sink,
        user);
}
platform_status_t deregister_service(platform_host_ctx_t*, platform_str_t service,
                                     platform_bytes_sink_fn sink, void* user) {
    return lend_error(ask({{"op", op::registry_deregister}, {"arg", bytes(service)}}), sink, user);
}
platform_status_t watch(platform_host_ctx_t*, platform_bytes_sink_fn fn, void* user,
                        uint64_t* out) {
    if (!fn || !out) return PLATFORM_INVALID_ARGUMENT;
    auto l = std::make_shared<Listener>();
    l->sink = fn;
    l->user = user;
    return subscribe_listener({{"op", op::registry_watch}}, l, out);
}
platform_status_t unwatch(platform_host_ctx_t*, uint64_t id) {
    platform_status_t st = code_of(ask({{"op", op::registry_unwatch}, {"sub", id}}));
    state().remove_listener(id);
    return st;
}

}  // namespace registry

namespace store {
platform_status_t get(platform_host_ctx_t*, platform_str_t t, platform_str_t k,
                      platform_bytes_sink_fn sink, void* user) {
    return lend(ask(with_table({{"op", op::store_get}, {"key", bytes(k)}}, t)), sink, user);
}
platform_status_t put(platform_host_ctx_t*, platform_str_t t, platform_str_t k, platform_str_t v,
                      int64_t ttl) {
    return code_of(ask(with_table(
        {{"op", op::store_put}, {"key", bytes(k)}, {"value", bytes(v)}, {"ttl_ms", ttl}}, t)));
}
platform_status_t del(platform_host_ctx_t*, platform_str_t t, platform_str_t k) {
    return code_of(ask(with_table({{"op", op::store_delete}, {"key", bytes(k)}}, t)));
}
platform_status_t scan(platform_host_ctx_t*, platform_str_t t, const platform_scan_t* scan,
                       platform_record_sink_fn sink, void* user) {
    if (!scan) return PLATFORM_INVALID_ARGUMENT;
    return scan_records(ask(scan_request(scan, &t)), sink, user);
}
platform_status_t tables(platform_host_ctx_t*, platform_bytes_sink_fn sink, void* user) {
    return lend(ask({{"op", op::store_tables}}), sink, user);
}
platform_status_t cas(platform_host_ctx_t*, platform_str_t t, platform_str_t k,
                      const platform_str_t* expected, const platform_str_t* value,
                      int64_t expires_at_ms) {
    return code_of(ask(cas_request(&t, k, expected, value, expires_at_ms)));
}
platform_status_t batch(platform_host_ctx_t*, platform_str_t t, const platform_store_op_t* ops,
                        uint32_t count, uint32_t stride) {
    json request = batch_request(&t, ops, count, stride);
    return request.is_null() ? PLATFORM_INVALID_ARGUMENT : code_of(ask(std::move(request)));
}

}  // namespace store

namespace secrets {
platform_status_t seal(platform_host_ctx_t*, platform_str_t plain, platform_bytes_sink_fn sink,
                       void* user) {
    return lend(ask({{"op", op::secrets_seal}, {"arg", bytes(plain)}}), sink, user);
}
platform_status_t open(platform_host_ctx_t*, platform_str_t sealed, platform_bytes_sink_fn sink,
                       void* user) {
    return lend(ask({{"op", op::secrets_open}, {"arg", bytes(sealed)}}), sink, user);
}
}  // namespace secrets

namespace network {
platform_status_t nodes(platform_host_ctx_t*, platform_bytes_sink_fn sink, void* user) {
    return lend(ask({{"op", op::network_nodes}}), sink, user);
}
}  // namespace network

namespace clock {
bool is_manual(platform_host_ctx_t*) {
    json r = ask({{"op", op::clock_is_manual}});
    return r.contains("out") && r["out"].is_boolean() && r["out"].get<bool>();
}
platform_status_t set_ms(platform_host_ctx_t*, int64_t ms) {
    return code_of(ask({{"op", op::clock_set}, {"ms", ms}}));
}
platform_status_t advance_ms(platform_host_ctx_t*, int64_t ms) {
    return code_of(ask({{"op", op::clock_advance}, {"ms", ms}}));
}

}  // namespace clock

}  // namespace proxy

json scan_request(const platform_scan_t* scan, const platform_str_t* table) {
    platform_scan_t s{};
    std::memcpy(&s, scan, std::min<size_t>(scan->struct_size, sizeof s));
    json r = {{"op", op::store_scan},
              {"prefix", bytes(s.prefix)},
              {"order", s.order},
              {"limit", s.limit},
              {"offset", s.offset}};
    if (table) r["table"] = bytes(*table);
    return r;
}

platform_status_t scan_records(const json& reply, platform_record_sink_fn sink, void* user) {
    if (sink && reply.contains("records") && reply["records"].is_array())
        for (const auto& rec : reply["records"]) {
            if (!rec.is_array() || rec.size() != 2) continue;
            std::string k = text(rec[0]), v = text(rec[1]);
            if (!sink(user, view(k), view(v))) break;
        }
    return code_of(reply);
}

json cas_request(const platform_str_t* table, platform_str_t key, const platform_str_t* expected,
                 const platform_str_t* value, int64_t expires_at_ms) {
    json r = {{"op", op::store_cas}, {"key", bytes(key)}, {"expires_at_ms", expires_at_ms}};
    if (expected) r["expected"] = bytes(*expected);
    if (value) r["value"] = bytes(*value);
    if (table) r["table"] = bytes(*table);
    return r;
}

json batch_request(const platform_str_t* table, const platform_store_op_t* ops, uint32_t count,
                   uint32_t stride) {
    json list = json::array();
    for (uint32_t i = 0; i < count; ++i) {
        platform_store_op_t op;
        if (!host::read_store_op(ops, stride, i, op)) return nullptr;
        list.push_back({{"kind", op.kind},
                        {"key", bytes(op.key)},
                        {"value", bytes(op.value)},
                        {"expires_at_ms", op.expires_at_ms}});
    }
    json r = {{"op", op::store_batch}, {"ops", std::move(list)}};
    if (table) r["table"] = bytes(*table);
    return r;
}

platform_status_t subscribe_listener(json request, std::shared_ptr<Listener> l, uint64_t* out) {
    const uint64_t token = state().add_listener(l);
    request["token"] = token;
    json reply = ask(std::move(request));
    platform_status_t st = code_of(reply);
    std::lock_guard<std::mutex> g(state().m);
    if (st != PLATFORM_OK) {
        state().listeners.erase(token);
        return st;
    }
    *out = reply.value("sub", uint64_t{0});
    state().listener_of_sub[*out] = token;
    return st;
}

namespace proxy {

const void* get_service(platform_host_ctx_t*, platform_str_t name, uint32_t min_version) {
    const std::string n(name.ptr ? name.ptr : "", name.len);
    const void* table = sub_table(n, 0);  // the host decides min_version: it knows the versions
    if (!table || !state().privileged) return nullptr;
    return code_of(ask({{"op", op::get_service}, {"name", n}, {"min_version", min_version}})) ==
                   PLATFORM_OK
               ? table
               : nullptr;
}

}  // namespace proxy

}  // namespace platform::worker
