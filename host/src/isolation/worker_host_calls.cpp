// The host half of the proxied host table: each request a worker sends is answered by calling the
// real host table (host_api.cpp) as the plugin. Field names match the worker's proxy_api.cpp.
#include <cstring>
#include <functional>
#include <platform/host/outbound/outbound.hpp>
#include <unordered_map>

#include "worker_process.hpp"

namespace platform::host::worker {

using nlohmann::json;

namespace {

struct Args {
    const json& m;
    std::string s(const char* k) const { return m.contains(k) ? bytes_of(m[k]) : std::string(); }
    int64_t i(const char* k) const {
        return m.contains(k) && m[k].is_number() ? m[k].get<int64_t>() : 0;
    }
    double d(const char* k) const {
        return m.contains(k) && m[k].is_number() ? m[k].get<double>() : 0.0;
    }
    bool has(const char* k) const { return m.contains(k) && !m[k].is_null(); }
};
platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}
void append(void* u, platform_str_t b) {
    static_cast<std::string*>(u)->append(b.ptr ? b.ptr : "", b.len);
}
json out(platform_status_t code, const std::string* text = nullptr) {
    json r = {{"code", code}};
    if (text && code == PLATFORM_OK) r["out"] = bytes(*text);
    return r;
}
platform_call_t* handle(uint64_t id) {
    return reinterpret_cast<platform_call_t*>(static_cast<uintptr_t>(id));
}

// The worker may only name calls it was sent (and not yet forgotten).
bool owns(WorkerProcess& p, uint64_t id) {
    std::lock_guard<std::mutex> g(p.m);
    return p.flights.count(id) > 0;
}
void mark_answered(WorkerProcess& p, uint64_t id) {
    std::lock_guard<std::mutex> g(p.m);
    auto it = p.flights.find(id);
    if (it == p.flights.end()) return;
    it->second.answered = true;
    p.settle(it);
}

// Callbacks the host calls later, relayed to the worker as notifications.
struct Later {
    std::weak_ptr<Channel> channel;
    uint64_t token;
};
void relay_reply(void* user, platform_status_t code, platform_str_t body) {
    std::unique_ptr<Later> l(static_cast<Later*>(user));
    if (auto ch = l->channel.lock())
        ch->send({{"op", "reply"},
                  {"token", l->token},
                  {"code", code},
                  {"body", bytes({body.ptr ? body.ptr : "", body.len})}});
}
void relay_message(void* user, platform_str_t topic, platform_str_t body, platform_str_t headers) {
    auto* r = static_cast<Relay*>(user);
    if (auto ch = r->channel.lock())
        ch->send({{"op", "message"},
                  {"token", r->token},
                  {"topic", std::string(topic.ptr ? topic.ptr : "", topic.len)},
                  {"body", bytes({body.ptr ? body.ptr : "", body.len})},
                  {"headers", std::string(headers.ptr ? headers.ptr : "", headers.len)}});
}
void relay_watch(void* user, platform_str_t event) {
    auto* r = static_cast<Relay*>(user);
    if (auto ch = r->channel.lock())
        ch->send({{"op", "watch"},
                  {"token", r->token},
                  {"event", bytes({event.ptr ? event.ptr : "", event.len})}});
}

template <typename T>
const T* sub(const HostSide& h, const char* name, uint32_t version) {
    return static_cast<const T*>(h.api->get_service(h.ctx, {name, std::strlen(name)}, version));
}

json scan(const HostSide& h, const Args& a) {
    std::string prefix = a.s("prefix");
    platform_scan_t sc{};
    sc.struct_size = sizeof sc;
    sc.prefix = view(prefix);
    sc.order = static_cast<platform_order_t>(a.i("order"));
    sc.limit = static_cast<uint32_t>(a.i("limit"));
    sc.offset = static_cast<uint32_t>(a.i("offset"));
    json records = json::array();
    auto sink = [](void* u, platform_str_t k, platform_str_t v) {
        static_cast<json*>(u)->push_back(
            json::array({bytes({k.ptr ? k.ptr : "", k.len}), bytes({v.ptr ? v.ptr : "", v.len})}));
        return true;
    };
    platform_status_t st;
    if (a.has("table")) {
        auto* t = sub<platform_store_api_t>(h, PLATFORM_SERVICE_STORE, 1);
        if (!t) return out(PLATFORM_PERMISSION_DENIED);
        std::string table = a.s("table");
        st = t->scan(h.ctx, view(table), &sc, sink, &records);
    } else {
        st = h.api->store_scan(h.ctx, &sc, sink, &records);
    }
    return {{"code", st}, {"records", std::move(records)}};
}

json cas(const HostSide& h, const Args& a) {
    std::string key = a.s("key"), expected = a.s("expected"), value = a.s("value"),
                table = a.s("table");
    platform_str_t e = view(expected), v = view(value);
    const platform_str_t* ep = a.has("expected") ? &e : nullptr;
    const platform_str_t* vp = a.has("value") ? &v : nullptr;
    if (a.has("table")) {
        auto* t = sub<platform_store_api_t>(h, PLATFORM_SERVICE_STORE, 2);
        return out(t ? t->cas(h.ctx, view(table), view(key), ep, vp, a.i("expires_at_ms"))
                     : PLATFORM_PERMISSION_DENIED);
    }
    return out(h.api->store_cas(h.ctx, view(key), ep, vp, a.i("expires_at_ms")));
}

json batch(const HostSide& h, const Args& a) {
    std::vector<std::string> keep;
    std::vector<platform_store_op_t> ops;
    const json& list = a.m.contains("ops") ? a.m["ops"] : json::array();
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
    if (a.has("table")) {
        auto* t = sub<platform_store_api_t>(h, PLATFORM_SERVICE_STORE, 2);
        std::string table = a.s("table");
        return out(t ? t->batch(h.ctx, view(table), ops.data(), n, sizeof(platform_store_op_t))
                     : PLATFORM_PERMISSION_DENIED);
    }
    return out(h.api->store_batch(h.ctx, ops.data(), n, sizeof(platform_store_op_t)));
}

json fetch(const HostSide& h, const Args& a) {
    std::string method = a.s("method"), url = a.s("url"), headers = a.s("headers"),
                body = a.s("body"), provider = a.s("provider");
    platform_http_request_t r = http_request(method, url, headers, body);
    r.provider = view(provider);
    r.timeout_ms = static_cast<int32_t>(a.i("timeout_ms"));
    r.max_response_bytes = static_cast<uint64_t>(a.i("max_response_bytes"));
    r.flags = static_cast<uint32_t>(a.i("flags"));
    json response;
    auto done = [](void* u, const platform_http_response_t* resp) {
        auto s = [](platform_str_t v) { return std::string(v.ptr ? v.ptr : "", v.len); };
        *static_cast<json*>(u) = {{"status", resp->status},
                                  {"headers", s(resp->headers_json)},
                                  {"body", bytes(s(resp->body))},
                                  {"error", s(resp->error)},
                                  {"final_url", s(resp->final_url)}};
    };
    platform_status_t st = h.api->http_fetch(h.ctx, &r, done, &response);
    json reply = {{"code", st}};
    if (!response.is_null()) reply["response"] = std::move(response);
    return reply;
}

json events_read(const HostSide& h, const Args& a) {
    std::string topic = a.s("topic");
    json events = json::array();
    auto sink = [](void* u, const platform_event_t* e) {
        auto s = [](platform_str_t v) { return std::string(v.ptr ? v.ptr : "", v.len); };
        static_cast<json*>(u)->push_back({{"id", s(e->id)},
                                          {"topic", s(e->topic)},
                                          {"offset", e->offset},
                                          {"timestamp_ms", e->timestamp_ms},
                                          {"metadata", s(e->metadata_json)},
                                          {"payload", bytes(s(e->payload))}});
        return true;
    };
    platform_status_t st =
        h.api->events_read(h.ctx, view(topic), static_cast<uint64_t>(a.i("from")),
                           static_cast<uint32_t>(a.i("limit")), sink, &events);
    return {{"code", st}, {"events", std::move(events)}};
}

json events_publish(const HostSide& h, const Args& a) {
    std::string id = a.s("id"), topic = a.s("topic"), metadata = a.s("metadata"),
                payload = a.s("payload");
    platform_event_t e{};
    e.struct_size = sizeof e;
    e.id = view(id);
    e.topic = view(topic);
    e.timestamp_ms = a.i("timestamp_ms");
    e.metadata_json = view(metadata);
    e.payload = view(payload);
    uint64_t offset = 0;
    platform_status_t st = h.api->events_publish(h.ctx, &e, &offset);
    return {{"code", st}, {"offset", offset}};
}

json respond_op(const HostSide& h, WorkerProcess& p, const Args& a, const std::string& op) {
    const auto id = static_cast<uint64_t>(a.i("call"));
    if (!owns(p, id)) return out(PLATFORM_INVALID_ARGUMENT);
    std::string body = a.s("body");
    platform_status_t st;
    if (op == "respond")
        st = h.api->respond(handle(id), static_cast<platform_status_t>(a.i("code")), view(body));
    else if (op == "respond_raw") {
        std::string type = a.s("content_type");
        st = h.api->respond_raw(handle(id), view(type), view(body));
    } else if (op == "respond_chunk")
        return out(h.api->respond_chunk(handle(id), view(body)));
    else
        st =
            h.api->respond_end(handle(id), static_cast<platform_status_t>(a.i("code")), view(body));
    mark_answered(p, id);
    return out(st);
}

json subscribe(const HostSide& h, WorkerProcess& p, const Args& a, bool broker) {
    auto relay = std::make_unique<Relay>();
    relay->channel = p.channel;
    relay->token = static_cast<uint64_t>(a.i("token"));
    uint64_t id = 0;
    platform_status_t st;
    if (broker) {
        std::string topic = a.s("topic"), queue = a.s("queue");
        st = h.api->broker_subscribe(h.ctx, view(topic), view(queue), relay_message, relay.get(),
                                     &id);
    } else {
        auto* t = sub<platform_registry_api_t>(h, PLATFORM_SERVICE_REGISTRY, 2);
        st = t ? t->watch(h.ctx, relay_watch, relay.get(), &id) : PLATFORM_PERMISSION_DENIED;
    }
    if (st != PLATFORM_OK) return out(st);
    relay->host_id = id;
    std::lock_guard<std::mutex> g(p.m);
    (broker ? p.subscriptions : p.watches)[id] = std::move(relay);
    return {{"code", PLATFORM_OK}, {"sub", id}};
}

json unsubscribe(const HostSide& h, WorkerProcess& p, const Args& a, bool broker) {
    const auto id = static_cast<uint64_t>(a.i("sub"));
    {
        std::lock_guard<std::mutex> g(p.m);
        auto& m = broker ? p.subscriptions : p.watches;
        if (!m.count(id)) return out(PLATFORM_NOT_FOUND);
    }
    platform_status_t st;
    if (broker)
        st = h.api->broker_unsubscribe(h.ctx, id);
    else {
        auto* t = sub<platform_registry_api_t>(h, PLATFORM_SERVICE_REGISTRY, 2);
        st = t ? t->unwatch(h.ctx, id) : PLATFORM_PERMISSION_DENIED;
    }
    std::lock_guard<std::mutex> g(p.m);
    (broker ? p.subscriptions : p.watches).erase(id);  // the host calls it no more
    return out(st);
}

}  // namespace

json serve_host_call(const HostSide& h, WorkerProcess& p, const json& m) {
    const std::string op = m["op"].get<std::string>();
    const Args a{m};
    std::string text;
    std::string k = a.s("key"), t = a.s("table");
    if (op == "log") {
        std::string msg = a.s("message");
        h.api->log(h.ctx, static_cast<platform_log_level_t>(a.i("level")), view(msg));
        return nullptr;
    }
    if (op == "resource_updated") {
        std::string uri = a.s("uri"), account = a.s("account");
        h.api->resource_updated(h.ctx, view(uri), view(account));
        return nullptr;
    }
    if (op == "config_get") {
        std::string path = a.s("path");
        return out(h.api->config_get(h.ctx, view(path), append, &text), &text);
    }
    if (op == "clock_now_ms") return {{"code", PLATFORM_OK}, {"out", h.api->clock_now_ms(h.ctx)}};
    const bool admin = a.has("table");
    auto* store = admin ? sub<platform_store_api_t>(h, PLATFORM_SERVICE_STORE, 1) : nullptr;
    if (admin && !store && op.rfind("store_", 0) == 0) return out(PLATFORM_PERMISSION_DENIED);
    if (op == "store_get")
        return out(admin ? store->get(h.ctx, view(t), view(k), append, &text)
                         : h.api->store_get(h.ctx, view(k), append, &text),
                   &text);
    if (op == "store_put") {
        std::string v = a.s("value");
        return out(admin ? store->put(h.ctx, view(t), view(k), view(v), a.i("ttl_ms"))
                         : h.api->store_put(h.ctx, view(k), view(v), a.i("ttl_ms")));
    }
    if (op == "store_delete")
        return out(admin ? store->del(h.ctx, view(t), view(k))
                         : h.api->store_delete(h.ctx, view(k)));
    if (op == "store_scan") return scan(h, a);
    if (op == "store_cas") return cas(h, a);
    if (op == "store_batch") return batch(h, a);
    if (op == "store.tables") {
        auto* s = sub<platform_store_api_t>(h, PLATFORM_SERVICE_STORE, 1);
        return out(s ? s->tables(h.ctx, append, &text) : PLATFORM_PERMISSION_DENIED, &text);
    }
    if (op == "broker_publish") {
        std::string topic = a.s("topic"), body = a.s("body"), headers = a.s("headers");
        return out(h.api->broker_publish(h.ctx, view(topic), view(body), view(headers)));
    }
    if (op == "broker_subscribe") return subscribe(h, p, a, true);
    if (op == "broker_unsubscribe") return unsubscribe(h, p, a, true);
    if (op == "registry.watch") return subscribe(h, p, a, false);
    if (op == "registry.unwatch") return unsubscribe(h, p, a, false);
    if (op == "respond" || op == "respond_raw" || op == "respond_chunk" || op == "respond_end")
        return respond_op(h, p, a, op);
    if (op == "get_service") {
        std::string name = a.s("name");
        return out(h.api->get_service(h.ctx, view(name), static_cast<uint32_t>(a.i("min_version")))
                       ? PLATFORM_OK
                       : PLATFORM_NOT_FOUND);
    }
    if (op == "call_service" || op == "call_client_request") {
        const auto parent = static_cast<uint64_t>(a.i("parent"));
        const bool mine = parent && owns(p, parent);
        auto* later = new Later{p.channel, static_cast<uint64_t>(a.i("token"))};
        platform_status_t st;
        if (op == "call_service") {
            std::string service = a.s("service"), method = a.s("method"), request = a.s("request");
            st = h.api->call_service(h.ctx, mine ? handle(parent) : nullptr, view(service),
                                     view(method), view(request),
                                     static_cast<uint32_t>(a.i("flags")), relay_reply, later);
        } else if (!mine) {
            st = PLATFORM_INVALID_ARGUMENT;
        } else {
            std::string method = a.s("method"), params = a.s("params");
            st = h.api->call_client_request(handle(parent), view(method), view(params),
                                            a.i("timeout_ms"), relay_reply, later);
        }
        if (st != PLATFORM_OK) delete later;  // the callback will not run
        return out(st);
    }
    if (op == "call_progress" || op == "call_log") {
        const auto id = static_cast<uint64_t>(a.i("call"));
        if (!owns(p, id)) return out(PLATFORM_INVALID_ARGUMENT);
        if (op == "call_progress") {
            std::string message = a.s("message");
            return out(
                h.api->call_progress(handle(id), a.d("progress"), a.d("total"), view(message)));
        }
        std::string level = a.s("level"), logger = a.s("logger"), data = a.s("data");
        return out(h.api->call_log(handle(id), view(level), view(logger), view(data)));
    }
    if (op == "model_complete") {  // the answer, or the reason, in "out"
        std::string request = a.s("request");
        platform_status_t st = h.api->model_complete(h.ctx, view(request), append, &text);
        return {{"code", st}, {"out", bytes(text)}};
    }
    if (op == "grant_create") {
        const auto id = static_cast<uint64_t>(a.i("call"));
        if (!owns(p, id)) return out(PLATFORM_INVALID_ARGUMENT);
        return out(h.api->grant_create(handle(id), append, &text), &text);
    }
    if (op == "grant_call_service") {
        auto* later = new Later{p.channel, static_cast<uint64_t>(a.i("token"))};
        std::string grant = a.s("grant"), service = a.s("service"), method = a.s("method"),
                    request = a.s("request");
        platform_status_t st =
            h.api->grant_call_service(h.ctx, view(grant), view(service), view(method),
                                      view(request), a.i("timeout_ms"), relay_reply, later);
        if (st != PLATFORM_OK) delete later;  // the callback will not run
        return out(st);
    }
    if (op == "grant_revoke") {
        std::string grant = a.s("grant");
        return out(h.api->grant_revoke(h.ctx, view(grant)));
    }
    if (op == "call_tools") {
        const auto id = static_cast<uint64_t>(a.i("call"));
        if (!owns(p, id)) return out(PLATFORM_INVALID_ARGUMENT);
        return out(h.api->call_tools(handle(id), append, &text), &text);
    }
    if (op == "http_fetch") return fetch(h, a);
    if (op == "events_publish") return events_publish(h, a);
    if (op == "events_read") return events_read(h, a);
    if (op == "events_wait") {
        std::string topic = a.s("topic");
        return out(h.api->events_wait(h.ctx, view(topic), static_cast<uint64_t>(a.i("after")),
                                      static_cast<int32_t>(a.i("timeout_ms"))));
    }
    // Privileged sub-tables; get_service answers NULL for an unprivileged plugin.
    if (op.rfind("registry.", 0) == 0) {
        auto* r = sub<platform_registry_api_t>(h, PLATFORM_SERVICE_REGISTRY, 1);
        if (!r) return out(PLATFORM_PERMISSION_DENIED);
        std::string arg = a.s("arg");
        if (op == "registry.list") return out(r->list_services(h.ctx, append, &text), &text);
        if (op == "registry.get")
            return out(r->get_service(h.ctx, view(arg), append, &text), &text);
        if (r->version < 2) return out(PLATFORM_UNSUPPORTED);
        platform_status_t st =
            op == "registry.register"
                ? r->register_service(h.ctx, view(arg), a.i("ttl_s"), append, &text)
            : op == "registry.deregister" ? r->deregister_service(h.ctx, view(arg), append, &text)
                                          : PLATFORM_UNSUPPORTED;
        return {{"code", st}, {"error", text}};
    }
    if (op == "network.nodes") {
        auto* n = sub<platform_network_api_t>(h, PLATFORM_SERVICE_NETWORK, 1);
        return out(n ? n->nodes(h.ctx, append, &text) : PLATFORM_PERMISSION_DENIED, &text);
    }
    if (op == "secrets.seal" || op == "secrets.open") {
        auto* s = sub<platform_secrets_api_t>(h, PLATFORM_SERVICE_SECRETS, 1);
        if (!s) return out(PLATFORM_PERMISSION_DENIED);
        std::string arg = a.s("arg");
        return out(op == "secrets.seal" ? s->seal(h.ctx, view(arg), append, &text)
                                        : s->open(h.ctx, view(arg), append, &text),
                   &text);
    }
    if (op.rfind("clock.", 0) == 0) {
        auto* c = sub<platform_clock_api_t>(h, PLATFORM_SERVICE_CLOCK, 1);
        if (!c) return out(PLATFORM_PERMISSION_DENIED);
        if (op == "clock.is_manual") return {{"code", PLATFORM_OK}, {"out", c->is_manual(h.ctx)}};
        if (op == "clock.set") return out(c->set_ms(h.ctx, a.i("ms")));
        if (op == "clock.advance") return out(c->advance_ms(h.ctx, a.i("ms")));
    }
    return out(PLATFORM_UNSUPPORTED);
}

void drop_relays(const HostSide& h, WorkerProcess& p) {
    std::map<uint64_t, std::unique_ptr<Relay>> subs, watches;
    {
        std::lock_guard<std::mutex> g(p.m);
        subs.swap(p.subscriptions);
        watches.swap(p.watches);
    }
    for (auto& [id, r] : subs) h.api->broker_unsubscribe(h.ctx, id);
    if (!watches.empty())
        if (auto* t = sub<platform_registry_api_t>(h, PLATFORM_SERVICE_REGISTRY, 2))
            for (auto& [id, r] : watches) t->unwatch(h.ctx, id);
}

}  // namespace platform::host::worker
