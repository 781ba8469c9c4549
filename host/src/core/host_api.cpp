// The host-services table (abi.h) as plugins see it. Every function finds its runtime and
// plugin through the HostCtx, or its call through the CallTable.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <platform/host/core/model_choice.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/core/store_ops.hpp>
#include <platform/sdk/random.hpp>
#include <platform/sdk/text.hpp>
#include <vector>

#include "grants.hpp"

namespace platform::host {

using nlohmann::json;

namespace {

HostCtx& hctx(platform_host_ctx_t* c) {
    return *reinterpret_cast<HostCtx*>(c);
}
std::string str(platform_str_t s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}
platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}
std::string_view view_of(platform_str_t s) {
    return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}

std::string random_id() {
    return platform::random_hex(16);
}

platform_status_t http_fetch(platform_host_ctx_t* c, const platform_http_request_t* request,
                             platform_http_response_fn done, void* user);

// The store provider and a table: the plugin's own ("one table per service") or a named one.
struct StoreRef {
    const platform_store_provider_t* table = nullptr;
    void* inst = nullptr;
    std::string name;
};
StoreRef store_of(platform_host_ctx_t* c, std::string table) {
    Plugin* p = hctx(c).runtime->provider("store");
    if (!p) return {};
    return {static_cast<const platform_store_provider_t*>(p->desc->provider), p->instance,
            std::move(table)};
}
StoreRef own_store(platform_host_ctx_t* c) {
    return store_of(c, hctx(c).plugin->id);
}
int64_t now(platform_host_ctx_t* c) {
    return hctx(c).runtime->clock().now_ms();
}

platform_status_t get_in(platform_host_ctx_t* c, const StoreRef& s, platform_str_t key,
                         platform_bytes_sink_fn sink, void* user) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    return s.table->get(s.inst, view(s.name), key, now(c), sink, user);
}
bool declares(const StoreRef& s, uint64_t feature) {
    return (s.table->features & feature) == feature;
}
platform_status_t put_in(platform_host_ctx_t* c, const StoreRef& s, platform_str_t key,
                         platform_str_t value, int64_t ttl) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (ttl < 0) return PLATFORM_INVALID_ARGUMENT;
    if (ttl > 0 && !declares(s, PLATFORM_STORE_TTL)) return PLATFORM_UNSUPPORTED;
    return s.table->put(s.inst, view(s.name), key, value, ttl > 0 ? now(c) + ttl : 0);
}
platform_status_t delete_in(platform_host_ctx_t* c, const StoreRef& s, platform_str_t key) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    // The provider's del has no clock: an expired, unpurged record must still read as absent.
    auto ignore = [](void*, platform_str_t) {};
    platform_status_t st = s.table->get(s.inst, view(s.name), key, now(c), ignore, nullptr);
    if (st != PLATFORM_OK) return st;
    return s.table->del(s.inst, view(s.name), key);
}
// A provider without PLATFORM_STORE_PREFIX may ignore the prefix: the host then filters the keys
// and counts offset and limit itself, so an owner-scoped scan never sees another owner's records.
struct PrefixFilter {
    std::string_view prefix;
    uint32_t skip, limit, sent;
    platform_record_sink_fn sink;
    void* user;
    static bool next(void* u, platform_str_t key, platform_str_t value) {
        auto* f = static_cast<PrefixFilter*>(u);
        if (view_of(key).substr(0, f->prefix.size()) != f->prefix) return true;
        if (f->skip) {
            --f->skip;
            return true;
        }
        ++f->sent;
        bool more = !f->sink || f->sink(f->user, key, value);
        return more && !(f->limit && f->sent >= f->limit);
    }
};
platform_status_t scan_in(platform_host_ctx_t* c, const StoreRef& s, const platform_scan_t* scan,
                          platform_record_sink_fn sink, void* user) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (!scan) return PLATFORM_INVALID_ARGUMENT;
    platform_scan_t copy{};  // normalise an older, smaller struct
    std::memcpy(&copy, scan, std::min<size_t>(scan->struct_size, sizeof copy));
    copy.struct_size = sizeof copy;
    if (copy.prefix.len && !declares(s, PLATFORM_STORE_PREFIX)) {
        PrefixFilter f{view_of(copy.prefix), copy.offset, copy.limit, 0, sink, user};
        copy.offset = copy.limit = 0;
        return s.table->scan(s.inst, view(s.name), &copy, now(c), &PrefixFilter::next, &f);
    }
    return s.table->scan(s.inst, view(s.name), &copy, now(c), sink, user);
}

// (1.3) Compare-and-set and batches reach the provider only when it declares the feature and its
// table (by struct_size) has the function; otherwise UNSUPPORTED.
platform_status_t cas_in(platform_host_ctx_t* c, const StoreRef& s, platform_str_t key,
                         const platform_str_t* expected, const platform_str_t* value,
                         int64_t expires_at_ms) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (!declares(s, PLATFORM_STORE_CAS) ||
        !PLATFORM_HAS_FIELD(platform_store_provider_t, s.table, cas) || !s.table->cas)
        return PLATFORM_UNSUPPORTED;
    if (expires_at_ms < 0) return PLATFORM_INVALID_ARGUMENT;
    if (!value) expires_at_ms = 0;
    if (expires_at_ms > 0 && !declares(s, PLATFORM_STORE_TTL)) return PLATFORM_UNSUPPORTED;
    return s.table->cas(s.inst, view(s.name), key, expected, value, expires_at_ms, now(c));
}
platform_status_t batch_in(const StoreRef& s, const platform_store_op_t* ops, uint32_t count,
                           uint32_t stride) {
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (!declares(s, PLATFORM_STORE_TRANSACTIONS) ||
        !PLATFORM_HAS_FIELD(platform_store_provider_t, s.table, batch) || !s.table->batch)
        return PLATFORM_UNSUPPORTED;
    if (count == 0) return PLATFORM_OK;
    // Normalise the plugin's ops into the host's layout, refusing the whole batch before the
    // provider sees any of it.
    std::vector<platform_store_op_t> copy(count);
    for (uint32_t i = 0; i < count; ++i) {
        platform_store_op_t& op = copy[i];
        if (!read_store_op(ops, stride, i, op)) return PLATFORM_INVALID_ARGUMENT;
        if (op.kind == PLATFORM_STORE_OP_DEL) {
            op.value = {};
            op.expires_at_ms = 0;
        } else if (op.kind != PLATFORM_STORE_OP_PUT || op.expires_at_ms < 0) {
            return PLATFORM_INVALID_ARGUMENT;
        } else if (op.expires_at_ms > 0 && !declares(s, PLATFORM_STORE_TTL)) {
            return PLATFORM_UNSUPPORTED;
        }
    }
    return s.table->batch(s.inst, view(s.name), copy.data(), count, sizeof(platform_store_op_t));
}

void log(platform_host_ctx_t* c, platform_log_level_t level, platform_str_t m) {
    const std::string& id = hctx(c).plugin->id;
    if (level == PLATFORM_LOG_OPERATOR) return hctx(c).runtime->console().notice(id, str(m));
    hctx(c).runtime->plugin_logged(*hctx(c).plugin, level, str(m));
    switch (level) {
        case PLATFORM_LOG_DEBUG:
            spdlog::debug("[{}] {}", id, str(m));
            break;
        case PLATFORM_LOG_WARN:
            spdlog::warn("[{}] {}", id, str(m));
            break;
        case PLATFORM_LOG_ERROR:
            spdlog::error("[{}] {}", id, str(m));
            break;
        default:
            spdlog::info("[{}] {}", id, str(m));
    }
}

platform_status_t config_get(platform_host_ctx_t* c, platform_str_t path,
                             platform_bytes_sink_fn sink, void* user) {
    std::string p = str(path);
    // "platform.*" is the host's own part of the table (abi.h, config_get).
    const json platform_part = {{"namespace", hctx(c).runtime->settings().ns}};
    const json* node = &hctx(c).plugin->config;
    if (p == "platform" || p.rfind("platform.", 0) == 0) {
        node = &platform_part;
        p.erase(0, p.size() > 8 ? 9 : 8);
    }
    for (size_t i = 0, j; !p.empty() && i <= p.size(); i = j + 1) {
        j = p.find('.', i);
        if (j == std::string::npos) j = p.size();
        std::string part = p.substr(i, j - i);
        if (!node->is_object() || !node->contains(part)) return PLATFORM_NOT_FOUND;
        node = &(*node)[part];
    }
    std::string out = node->dump();
    sink(user, view(out));
    return PLATFORM_OK;
}

platform_status_t store_get(platform_host_ctx_t* c, platform_str_t key, platform_bytes_sink_fn sink,
                            void* user) {
    return get_in(c, own_store(c), key, sink, user);
}
platform_status_t store_put(platform_host_ctx_t* c, platform_str_t key, platform_str_t value,
                            int64_t ttl) {
    return put_in(c, own_store(c), key, value, ttl);
}
platform_status_t store_delete(platform_host_ctx_t* c, platform_str_t key) {
    return delete_in(c, own_store(c), key);
}
platform_status_t store_scan(platform_host_ctx_t* c, const platform_scan_t* scan,
                             platform_record_sink_fn sink, void* user) {
    return scan_in(c, own_store(c), scan, sink, user);
}
platform_status_t store_cas(platform_host_ctx_t* c, platform_str_t key,
                            const platform_str_t* expected, const platform_str_t* value,
                            int64_t expires_at_ms) {
    return cas_in(c, own_store(c), key, expected, value, expires_at_ms);
}
platform_status_t store_batch(platform_host_ctx_t* c, const platform_store_op_t* ops,
                              uint32_t count, uint32_t stride) {
    return batch_in(own_store(c), ops, count, stride);
}

const platform_broker_provider_t* broker_of(platform_host_ctx_t* c, void** inst) {
    Plugin* p = hctx(c).runtime->provider("broker");
    if (!p) return nullptr;
    *inst = p->instance;
    return static_cast<const platform_broker_provider_t*>(p->desc->provider);
}

platform_status_t broker_publish(platform_host_ctx_t* c, platform_str_t topic, platform_str_t body,
                                 platform_str_t headers) {
    void* inst = nullptr;
    auto* b = broker_of(c, &inst);
    if (!b) return PLATFORM_UNAVAILABLE;
    std::string h = headers.len ? str(headers) : "{}";
    return b->publish(inst, topic, body, view(h));
}

platform_status_t broker_subscribe(platform_host_ctx_t* c, platform_str_t topic,
                                   platform_str_t queue, platform_message_fn fn, void* user,
                                   uint64_t* out) {
    void* inst = nullptr;
    auto* b = broker_of(c, &inst);
    if (!b) return PLATFORM_UNAVAILABLE;
    if (!fn || !out || !topic.len) return PLATFORM_INVALID_ARGUMENT;
    return b->subscribe(inst, topic, queue, fn, user, out);
}

platform_status_t broker_unsubscribe(platform_host_ctx_t* c, uint64_t id) {
    void* inst = nullptr;
    auto* b = broker_of(c, &inst);
    if (!b) return PLATFORM_UNAVAILABLE;
    return b->unsubscribe(inst, id);
}

int64_t clock_now_ms(platform_host_ctx_t* c) {
    return hctx(c).runtime->clock().now_ms();
}

std::shared_ptr<Call> find_call(platform_call_t* call) {
    return CallTable::global().find(call);
}

void call_info(platform_call_t* handle, platform_call_info_t* out) {
    if (!out) return;
    platform_call_info_t info{};
    info.struct_size = sizeof info;
    if (auto c = find_call(handle)) {
        info.service = view(c->service);
        info.endpoint = view(c->endpoint);
        info.account = view(c->account);
        info.scopes = view(c->scopes);
        info.request_id = view(c->request_id);
        info.deadline_ms = c->deadline_ms;
    }
    size_t n = std::min<size_t>(out->struct_size, sizeof info);
    std::memcpy(out, &info, n);
    out->struct_size = static_cast<uint32_t>(n);
}

platform_str_t call_header(platform_call_t* handle, platform_str_t name) {
    auto c = find_call(handle);
    if (!c) return {nullptr, 0};
    const std::string key = platform::lower(str(name));
    auto it = c->headers.find(key);
    return it == c->headers.end() ? platform_str_t{nullptr, 0} : view(it->second);
}

platform_status_t finish(platform_call_t* handle, Outcome o) {
    auto c = find_call(handle);
    if (!c) return PLATFORM_INVALID_ARGUMENT;
    return CallTable::global().answer(c, std::move(o)) ? PLATFORM_OK : PLATFORM_INVALID_ARGUMENT;
}

platform_status_t respond(platform_call_t* call, platform_status_t code, platform_str_t body) {
    return finish(call, Outcome{code, str(body), "", false});
}

platform_status_t respond_raw(platform_call_t* call, platform_str_t ct, platform_str_t bytes) {
    std::string type = ct.len ? str(ct) : "application/octet-stream";
    return finish(call, Outcome{PLATFORM_OK, str(bytes), type, true});
}

platform_status_t respond_chunk(platform_call_t* handle, platform_str_t bytes) {
    auto c = find_call(handle);
    if (!c) return PLATFORM_INVALID_ARGUMENT;
    {
        std::lock_guard<std::mutex> g(c->m);
        if (c->answered) return PLATFORM_INVALID_ARGUMENT;
        if (!c->chunk_sink) {  // a surface that cannot stream: the chunks become one JSON array
            c->stream += c->stream.empty() ? "[" : ",";
            c->stream.append(bytes.ptr ? bytes.ptr : "", bytes.len);
            return PLATFORM_OK;
        }
        c->chunked = true;
    }
    // Chunks of one call come from the plugin in order; the sink serialises the writes.
    if (c->chunk_sink(view_of(bytes))) return PLATFORM_OK;
    c->plugin->ctx.runtime->abandon(c, "the client went away");
    return PLATFORM_INVALID_ARGUMENT;
}

platform_status_t respond_end(platform_call_t* handle, platform_status_t code,
                              platform_str_t message) {
    auto c = find_call(handle);
    if (!c) return PLATFORM_INVALID_ARGUMENT;
    Outcome o{code, str(message), "", false, false};
    {
        std::lock_guard<std::mutex> g(c->m);
        o.streamed = c->chunked;
        if (!c->chunked && code == PLATFORM_OK) o.body = c->stream.empty() ? "[]" : c->stream + "]";
    }
    return finish(handle, std::move(o));
}

// ---- privileged sub-tables ----

platform_status_t registry_list(platform_host_ctx_t* c, platform_bytes_sink_fn sink, void* user) {
    std::string out = hctx(c).runtime->registry().list(now(c)).dump();
    sink(user, view(out));
    return PLATFORM_OK;
}

platform_status_t registry_get(platform_host_ctx_t* c, platform_str_t name,
                               platform_bytes_sink_fn sink, void* user) {
    json found = hctx(c).runtime->registry().get(str(name), now(c));
    if (found.is_null()) return PLATFORM_NOT_FOUND;
    std::string out = found.dump();
    sink(user, view(out));
    return PLATFORM_OK;
}

bool clock_is_manual(platform_host_ctx_t* c) {
    return hctx(c).runtime->clock().manual();
}
platform_status_t clock_set(platform_host_ctx_t* c, int64_t ms) {
    return hctx(c).runtime->clock().set_ms(ms) ? PLATFORM_OK : PLATFORM_UNSUPPORTED;
}
platform_status_t clock_advance(platform_host_ctx_t* c, int64_t d) {
    return hctx(c).runtime->clock().advance_ms(d) ? PLATFORM_OK : PLATFORM_UNSUPPORTED;
}

platform_status_t registry_register(platform_host_ctx_t* c, platform_str_t service, int64_t ttl_s,
                                    platform_bytes_sink_fn error_sink, void* user) {
    json record = json::parse(str(service), nullptr, false);
    std::string error;
    auto& rt = *hctx(c).runtime;
    platform_status_t st =
        record.is_discarded()
            ? (error = "service: invalid JSON", PLATFORM_INVALID_ARGUMENT)
            : rt.registry().register_external(record, ttl_s * 1000, rt.clock().now_ms(), error);
    if (st != PLATFORM_OK && error_sink) error_sink(user, view(error));
    return st;
}

platform_status_t registry_deregister(platform_host_ctx_t* c, platform_str_t service,
                                      platform_bytes_sink_fn error_sink, void* user) {
    json record = json::parse(str(service), nullptr, false);
    std::string error;
    platform_status_t st = record.is_discarded()
                               ? (error = "service: invalid JSON", PLATFORM_INVALID_ARGUMENT)
                               : hctx(c).runtime->registry().deregister_external(record, error);
    if (st != PLATFORM_OK && error_sink) error_sink(user, view(error));
    return st;
}

platform_status_t registry_watch(platform_host_ctx_t* c, platform_bytes_sink_fn fn, void* user,
                                 uint64_t* out) {
    if (!fn || !out) return PLATFORM_INVALID_ARGUMENT;
    *out = hctx(c).runtime->registry().watch([fn, user](const json& event) {
        std::string text = event.dump();
        fn(user, view(text));
    });
    return PLATFORM_OK;
}

platform_status_t registry_unwatch(platform_host_ctx_t* c, uint64_t id) {
    return hctx(c).runtime->registry().unwatch(id) ? PLATFORM_OK : PLATFORM_NOT_FOUND;
}

platform_status_t network_nodes(platform_host_ctx_t* c, platform_bytes_sink_fn sink, void* user) {
    std::string out = hctx(c).runtime->network_nodes().dump();
    sink(user, view(out));
    return PLATFORM_OK;
}

platform_status_t admin_get(platform_host_ctx_t* c, platform_str_t t, platform_str_t k,
                            platform_bytes_sink_fn sink, void* u) {
    return get_in(c, store_of(c, str(t)), k, sink, u);
}
platform_status_t admin_put(platform_host_ctx_t* c, platform_str_t t, platform_str_t k,
                            platform_str_t v, int64_t ttl) {
    return put_in(c, store_of(c, str(t)), k, v, ttl);
}
platform_status_t admin_del(platform_host_ctx_t* c, platform_str_t t, platform_str_t k) {
    return delete_in(c, store_of(c, str(t)), k);
}
platform_status_t admin_scan(platform_host_ctx_t* c, platform_str_t t, const platform_scan_t* scan,
                             platform_record_sink_fn sink, void* u) {
    return scan_in(c, store_of(c, str(t)), scan, sink, u);
}
platform_status_t admin_cas(platform_host_ctx_t* c, platform_str_t t, platform_str_t k,
                            const platform_str_t* expected, const platform_str_t* value,
                            int64_t expires_at_ms) {
    return cas_in(c, store_of(c, str(t)), k, expected, value, expires_at_ms);
}
platform_status_t admin_batch(platform_host_ctx_t* c, platform_str_t t,
                              const platform_store_op_t* ops, uint32_t count, uint32_t stride) {
    return batch_in(store_of(c, str(t)), ops, count, stride);
}
platform_status_t admin_tables(platform_host_ctx_t* c, platform_bytes_sink_fn sink, void* user) {
    auto s = store_of(c, "");
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (!PLATFORM_HAS_FIELD(platform_store_provider_t, s.table, tables) || !s.table->tables)
        return PLATFORM_UNSUPPORTED;
    return s.table->tables(s.inst, sink, user);
}

platform_status_t secrets_seal(platform_host_ctx_t* c, platform_str_t plain,
                               platform_bytes_sink_fn sink, void* user) {
    std::string sealed = hctx(c).runtime->secrets().seal(view_of(plain));
    sink(user, view(sealed));
    return PLATFORM_OK;
}
platform_status_t secrets_open(platform_host_ctx_t* c, platform_str_t sealed,
                               platform_bytes_sink_fn sink, void* user) {
    auto plain = hctx(c).runtime->secrets().open(view_of(sealed));
    if (!plain) return PLATFORM_PERMISSION_DENIED;
    sink(user, view(*plain));
    return PLATFORM_OK;
}

const platform_registry_api_t kRegistryApi{sizeof(platform_registry_api_t),
                                           2,
                                           registry_list,
                                           registry_get,
                                           registry_register,
                                           registry_deregister,
                                           registry_watch,
                                           registry_unwatch};
const platform_network_api_t kNetworkApi{sizeof(platform_network_api_t), 1, network_nodes};
const platform_store_api_t kStoreApi{sizeof(platform_store_api_t),
                                     2,
                                     admin_get,
                                     admin_put,
                                     admin_del,
                                     admin_scan,
                                     admin_tables,
                                     admin_cas,
                                     admin_batch};
const platform_secrets_api_t kSecretsApi{sizeof(platform_secrets_api_t), 1, secrets_seal,
                                         secrets_open};
const platform_clock_api_t kClockApi{sizeof(platform_clock_api_t), 1, clock_is_manual, clock_set,
                                     clock_advance};

const void* get_service(platform_host_ctx_t* c, platform_str_t name, uint32_t min_version) {
    const std::string n = str(name);
    if (!hctx(c).plugin->privileged) return nullptr;
    if (n == PLATFORM_SERVICE_REGISTRY && min_version <= kRegistryApi.version) return &kRegistryApi;
    if (n == PLATFORM_SERVICE_CLOCK && min_version <= kClockApi.version) return &kClockApi;
    if (n == PLATFORM_SERVICE_NETWORK && min_version <= kNetworkApi.version) return &kNetworkApi;
    if (n == PLATFORM_SERVICE_STORE && min_version <= kStoreApi.version) return &kStoreApi;
    if (n == PLATFORM_SERVICE_SECRETS && min_version <= kSecretsApi.version) return &kSecretsApi;
    return nullptr;
}

// ---- 1.2: calls between services, events ----

// Finds service/method and dispatches a call from a plugin as `who`; NOT_FOUND (done not
// called) for an unknown service or method.
platform_status_t dispatch_from_plugin(Runtime& rt, platform_str_t service, platform_str_t method,
                                       platform_str_t request, const Identity& who, Invocation inv,
                                       platform_reply_fn done, void* user) {
    const ServiceEntry* svc = rt.registry().find(str(service));
    if (!svc || !done) return svc ? PLATFORM_INVALID_ARGUMENT : PLATFORM_NOT_FOUND;
    const Endpoint* ep = svc->plugin->endpoint(str(method));
    if (!ep) return PLATFORM_NOT_FOUND;
    inv.service = svc;
    inv.endpoint = ep;
    inv.from_plugin = true;
    inv.args = request.len ? json::parse(str(request), nullptr, false) : json::object();
    if (!inv.args.is_object()) {
        const std::string m = "request: must be a JSON object";
        done(user, PLATFORM_INVALID_ARGUMENT, view(m));
        return PLATFORM_OK;
    }
    rt.dispatch_as(who, std::move(inv),
                   [done, user](Outcome o) { done(user, o.code, view(o.body)); });
    return PLATFORM_OK;
}

platform_status_t call_service(platform_host_ctx_t* c, platform_call_t* parent,
                               platform_str_t service, platform_str_t method,
                               platform_str_t request, uint32_t flags, platform_reply_fn done,
                               void* user) {
    Runtime& rt = *hctx(c).runtime;
    Invocation inv;
    Identity who;
    if (flags & PLATFORM_CALL_AS_SERVICE) {
        who = rt.service_identity(*hctx(c).plugin);
    } else if (auto p = parent ? find_call(parent) : nullptr) {
        who = p->caller;  // the parent's caller, token restrictions included
        inv.deadline_ms = p->deadline_ms;
        inv.request_id = p->request_id;
    }
    return dispatch_from_plugin(rt, service, method, request, who, std::move(inv), done, user);
}

struct EventsRef {
    const platform_events_provider_t* table = nullptr;
    void* inst = nullptr;
};
EventsRef events_of(platform_host_ctx_t* c) {
    Plugin* p = hctx(c).runtime->provider("events");
    if (!p) return {};
    return {static_cast<const platform_events_provider_t*>(p->desc->provider), p->instance};
}

platform_status_t events_publish(platform_host_ctx_t* c, const platform_event_t* event,
                                 uint64_t* out) {
    auto e = events_of(c);
    if (!e.table) return PLATFORM_UNAVAILABLE;
    if (!event || !out) return PLATFORM_INVALID_ARGUMENT;
    platform_event_t ev{};
    std::memcpy(&ev, event, std::min<size_t>(event->struct_size, sizeof ev));
    ev.struct_size = sizeof ev;
    if (!ev.topic.len) return PLATFORM_INVALID_ARGUMENT;
    std::string id = ev.id.len ? str(ev.id) : random_id();
    ev.id = view(id);
    if (ev.timestamp_ms == 0) ev.timestamp_ms = now(c);
    static const std::string empty_object = "{}";
    if (!ev.metadata_json.len) ev.metadata_json = view(empty_object);
    return e.table->append(e.inst, &ev, out);
}

platform_status_t events_read(platform_host_ctx_t* c, platform_str_t topic, uint64_t from,
                              uint32_t limit, platform_event_sink_fn sink, void* user) {
    auto e = events_of(c);
    if (!e.table) return PLATFORM_UNAVAILABLE;
    if (!sink || !topic.len) return PLATFORM_INVALID_ARGUMENT;
    return e.table->read(e.inst, topic, from, limit, sink, user);
}

platform_status_t events_wait(platform_host_ctx_t* c, platform_str_t topic, uint64_t after,
                              int32_t timeout_ms) {
    auto e = events_of(c);
    if (!e.table) return PLATFORM_UNAVAILABLE;
    if (!topic.len || timeout_ms < 0) return PLATFORM_INVALID_ARGUMENT;
    return e.table->wait(e.inst, topic, after, timeout_ms);
}

platform_status_t http_fetch(platform_host_ctx_t* c, const platform_http_request_t* request,
                             platform_http_response_fn done, void* user) {
    return hctx(c).runtime->outbound().fetch(request, done, user);
}

// MCP (1.4): through the call's CallClient; UNSUPPORTED for calls that did not come over MCP.
std::shared_ptr<CallClient> live_client(platform_call_t* handle, platform_status_t& st) {
    auto c = find_call(handle);
    st = PLATFORM_INVALID_ARGUMENT;
    if (!c) return nullptr;
    std::lock_guard<std::mutex> g(c->m);
    if (c->answered) return nullptr;
    st = c->client ? PLATFORM_OK : PLATFORM_UNSUPPORTED;
    return c->client;
}

platform_status_t call_progress(platform_call_t* call, double done, double total,
                                platform_str_t message) {
    platform_status_t st;
    auto client = live_client(call, st);
    return client ? client->progress(done, total,
                                     std::string_view(message.ptr ? message.ptr : "", message.len))
                  : st;
}

platform_status_t call_log(platform_call_t* call, platform_str_t level, platform_str_t logger,
                           platform_str_t data) {
    platform_status_t st;
    auto client = live_client(call, st);
    return client ? client->log(str(level), str(logger), str(data)) : st;
}

platform_status_t call_client_request(platform_call_t* call, platform_str_t method,
                                      platform_str_t params, int64_t timeout_ms,
                                      platform_reply_fn reply, void* user) {
    platform_status_t st;
    auto client = live_client(call, st);
    if (!client) return st;
    if (!reply) return PLATFORM_INVALID_ARGUMENT;
    return client->request(
        str(method), str(params), timeout_ms,
        [reply, user](platform_status_t code, std::string body) { reply(user, code, view(body)); });
}

void resource_updated(platform_host_ctx_t* c, platform_str_t uri, platform_str_t account) {
    hctx(c).runtime->resource_updated(str(uri), str(account));
}

// ---- 1.5: the model and the caller's tools ----

platform_status_t model_complete(platform_host_ctx_t* c, platform_str_t request,
                                 platform_bytes_sink_fn sink, void* user) {
    std::string out;
    const platform_status_t st = complete_with_model(*hctx(c).runtime, view_of(request), out);
    if (sink) sink(user, view(out));
    return st;
}

platform_status_t call_tools(platform_call_t* handle, platform_bytes_sink_fn sink, void* user) {
    auto c = find_call(handle);
    if (!c) return PLATFORM_INVALID_ARGUMENT;
    {
        std::lock_guard<std::mutex> g(c->m);
        if (c->answered) return PLATFORM_INVALID_ARGUMENT;
    }
    Runtime& rt = *c->plugin->ctx.runtime;
    auto ns = c->headers.find("platform-namespace");
    const std::string out = agent_tools(rt.admission(), *rt.tools().all(), c->caller,
                                        ns == c->headers.end() ? "" : ns->second, c->plugin)
                                .dump(-1, ' ', false, json::error_handler_t::replace);
    if (sink) sink(user, view(out));
    return PLATFORM_OK;
}

// ---- 1.6: grants (grants.hpp) ----

platform_status_t grant_create(platform_call_t* handle, platform_bytes_sink_fn sink, void* user) {
    auto c = find_call(handle);
    if (!c || !c->plugin) return PLATFORM_INVALID_ARGUMENT;
    {
        std::lock_guard<std::mutex> g(c->m);
        if (c->answered) return PLATFORM_INVALID_ARGUMENT;
    }
    auto ns = c->headers.find("platform-namespace");
    std::string id;
    const platform_status_t st =
        Grants(*c->plugin->ctx.runtime)
            .create(*c->plugin, c->caller, ns == c->headers.end() ? "" : ns->second, id);
    if (st == PLATFORM_OK && sink) sink(user, view(id));
    return st;
}

platform_status_t grant_call_service(platform_host_ctx_t* c, platform_str_t grant,
                                     platform_str_t service, platform_str_t method,
                                     platform_str_t request, int64_t timeout_ms,
                                     platform_reply_fn done, void* user) {
    Runtime& rt = *hctx(c).runtime;
    auto found = Grants(rt).find(*hctx(c).plugin, str(grant));
    if (!found) return PLATFORM_NOT_FOUND;
    Invocation inv;
    inv.ns = found->ns;
    inv.timeout_ms = timeout_ms > 0 ? timeout_ms : 0;
    return dispatch_from_plugin(rt, service, method, request, found->who, std::move(inv), done,
                                user);
}

platform_status_t grant_revoke(platform_host_ctx_t* c, platform_str_t grant) {
    return Grants(*hctx(c).runtime).revoke(*hctx(c).plugin, str(grant));
}

}  // namespace

platform_host_api_t make_host_api() {
    platform_host_api_t a{};
    a.struct_size = sizeof a;
    a.abi_version = PLATFORM_ABI_VERSION;
    a.log = log;
    a.config_get = config_get;
    a.store_get = store_get;
    a.store_put = store_put;
    a.store_delete = store_delete;
    a.store_scan = store_scan;
    a.broker_publish = broker_publish;
    a.broker_subscribe = broker_subscribe;
    a.broker_unsubscribe = broker_unsubscribe;
    a.clock_now_ms = clock_now_ms;
    a.call_info = call_info;
    a.call_header = call_header;
    a.respond = respond;
    a.respond_raw = respond_raw;
    a.respond_chunk = respond_chunk;
    a.respond_end = respond_end;
    a.get_service = get_service;
    a.call_service = call_service;
    a.http_fetch = http_fetch;
    a.events_publish = events_publish;
    a.events_read = events_read;
    a.events_wait = events_wait;
    a.store_cas = store_cas;
    a.store_batch = store_batch;
    a.call_progress = call_progress;
    a.call_log = call_log;
    a.call_client_request = call_client_request;
    a.resource_updated = resource_updated;
    a.model_complete = model_complete;
    a.call_tools = call_tools;
    a.grant_create = grant_create;
    a.grant_call_service = grant_call_service;
    a.grant_revoke = grant_revoke;
    return a;
}

}  // namespace platform::host
