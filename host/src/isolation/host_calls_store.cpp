// Serving the store ops: with a "table" field they go to the privileged "store" sub-table
// (PERMISSION_DENIED without it), else to the plugin's own table.
#include <string>
#include <vector>

#include "host_calls.hpp"

namespace platform::host::worker::host_calls {

using nlohmann::json;

namespace {

// The "store" sub-table when the request names a table; `denied` is set when it names one the
// plugin may not reach.
const platform_store_api_t* admin_store(const HostCall& c, uint32_t version, bool& denied) {
    if (!c.a.has("table")) return nullptr;
    auto* store = sub<platform_store_api_t>(c.h, PLATFORM_SERVICE_STORE, version);
    denied = !store;
    return store;
}

}  // namespace

json store_get(const HostCall& c) {
    bool denied = false;
    auto* store = admin_store(c, 1, denied);
    if (denied) return out(PLATFORM_PERMISSION_DENIED);
    std::string k = c.a.s("key"), t = c.a.s("table"), text;
    return out(store ? store->get(c.h.ctx, view(t), view(k), append, &text)
                     : c.h.api->store_get(c.h.ctx, view(k), append, &text),
               &text);
}

json store_put(const HostCall& c) {
    bool denied = false;
    auto* store = admin_store(c, 1, denied);
    if (denied) return out(PLATFORM_PERMISSION_DENIED);
    std::string k = c.a.s("key"), t = c.a.s("table"), v = c.a.s("value");
    return out(store ? store->put(c.h.ctx, view(t), view(k), view(v), c.a.i("ttl_ms"))
                     : c.h.api->store_put(c.h.ctx, view(k), view(v), c.a.i("ttl_ms")));
}

json store_delete(const HostCall& c) {
    bool denied = false;
    auto* store = admin_store(c, 1, denied);
    if (denied) return out(PLATFORM_PERMISSION_DENIED);
    std::string k = c.a.s("key"), t = c.a.s("table");
    return out(store ? store->del(c.h.ctx, view(t), view(k))
                     : c.h.api->store_delete(c.h.ctx, view(k)));
}

json store_scan(const HostCall& c) {
    bool denied = false;
    auto* store = admin_store(c, 1, denied);
    if (denied) return out(PLATFORM_PERMISSION_DENIED);
    std::string prefix = c.a.s("prefix"), table = c.a.s("table");
    platform_scan_t sc{};
    sc.struct_size = sizeof sc;
    sc.prefix = view(prefix);
    sc.order = static_cast<platform_order_t>(c.a.i("order"));
    sc.limit = static_cast<uint32_t>(c.a.i("limit"));
    sc.offset = static_cast<uint32_t>(c.a.i("offset"));
    json records = json::array();
    auto sink = [](void* u, platform_str_t k, platform_str_t v) {
        static_cast<json*>(u)->push_back(json::array({bytes(text_of(k)), bytes(text_of(v))}));
        return true;
    };
    platform_status_t st = store ? store->scan(c.h.ctx, view(table), &sc, sink, &records)
                                 : c.h.api->store_scan(c.h.ctx, &sc, sink, &records);
    return {{"code", st}, {"records", std::move(records)}};
}

json store_cas(const HostCall& c) {
    bool denied = false;
    auto* store = admin_store(c, 2, denied);
    if (denied) return out(PLATFORM_PERMISSION_DENIED);
    std::string key = c.a.s("key"), expected = c.a.s("expected"), value = c.a.s("value"),
                table = c.a.s("table");
    platform_str_t e = view(expected), v = view(value);
    const platform_str_t* ep = c.a.has("expected") ? &e : nullptr;
    const platform_str_t* vp = c.a.has("value") ? &v : nullptr;
    return out(store ? store->cas(c.h.ctx, view(table), view(key), ep, vp, c.a.i("expires_at_ms"))
                     : c.h.api->store_cas(c.h.ctx, view(key), ep, vp, c.a.i("expires_at_ms")));
}

json store_batch(const HostCall& c) {
    bool denied = false;
    auto* store = admin_store(c, 2, denied);
    if (denied) return out(PLATFORM_PERMISSION_DENIED);
    std::vector<std::string> keep;
    std::vector<platform_store_op_t> ops;
    const json& list = c.a.m.contains("ops") ? c.a.m["ops"] : json::array();
    keep.reserve(list.size() * 2);
    for (const auto& o : list) {
        platform_store_op_t op{};
        op.struct_size = sizeof op;
        op.kind = o.contains("kind") && o["kind"].is_number() ? o["kind"].get<uint32_t>() : 0;
        keep.push_back(o.contains("key") ? bytes_of(o["key"]) : "");
        op.key = view(keep.back());
        keep.push_back(o.contains("value") ? bytes_of(o["value"]) : "");
        op.value = view(keep.back());
        op.expires_at_ms = o.contains("expires_at_ms") && o["expires_at_ms"].is_number()
                               ? o["expires_at_ms"].get<int64_t>()
                               : 0;
        ops.push_back(op);
    }
    const auto n = static_cast<uint32_t>(ops.size());
    std::string table = c.a.s("table");
    return out(store
                   ? store->batch(c.h.ctx, view(table), ops.data(), n, sizeof(platform_store_op_t))
                   : c.h.api->store_batch(c.h.ctx, ops.data(), n, sizeof(platform_store_op_t)));
}

json store_tables(const HostCall& c) {
    auto* s = sub<platform_store_api_t>(c.h, PLATFORM_SERVICE_STORE, 1);
    std::string text;
    return out(s ? s->tables(c.h.ctx, append, &text) : PLATFORM_PERMISSION_DENIED, &text);
}

}  // namespace platform::host::worker::host_calls
