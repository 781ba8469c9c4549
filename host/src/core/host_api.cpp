// The host-services table (abi.h) as plugins see it. Every function finds its runtime and
// plugin through the HostCtx, or its call through the CallTable.
#include <platform/host/runtime.hpp>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

namespace platform::host {

using nlohmann::json;

namespace {

HostCtx& hctx(platform_host_ctx_t* c) { return *reinterpret_cast<HostCtx*>(c); }
std::string str(platform_str_t s) { return s.ptr ? std::string(s.ptr, s.len) : std::string(); }
platform_str_t view(const std::string& s) { return {s.data(), s.size()}; }

// The store provider and this plugin's table ("one table per service").
struct StoreRef {
    const platform_store_provider_t* table = nullptr;
    void* inst = nullptr;
    std::string name;
};
StoreRef store_of(platform_host_ctx_t* c) {
    HostCtx& h = hctx(c);
    Plugin* p = h.runtime->provider("store");
    if (!p) return {};
    return {static_cast<const platform_store_provider_t*>(p->desc->provider), p->instance, h.plugin->id};
}


void log(platform_host_ctx_t* c, platform_log_level_t level, platform_str_t m) {
    const std::string& id = hctx(c).plugin->id;
    switch (level) {
        case PLATFORM_LOG_DEBUG: spdlog::debug("[{}] {}", id, str(m)); break;
        case PLATFORM_LOG_WARN: spdlog::warn("[{}] {}", id, str(m)); break;
        case PLATFORM_LOG_ERROR: spdlog::error("[{}] {}", id, str(m)); break;
        default: spdlog::info("[{}] {}", id, str(m));
    }
}

platform_status_t config_get(platform_host_ctx_t* c, platform_str_t path, platform_bytes_sink_fn sink, void* user) {
    const json* node = &hctx(c).plugin->config;
    std::string p = str(path);
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

platform_status_t store_get(platform_host_ctx_t* c, platform_str_t key, platform_bytes_sink_fn sink, void* user) {
    auto s = store_of(c);
    if (!s.table) return PLATFORM_UNAVAILABLE;
    return s.table->get(s.inst, view(s.name), key, hctx(c).runtime->clock().now_ms(), sink, user);
}

platform_status_t store_put(platform_host_ctx_t* c, platform_str_t key, platform_str_t value, int64_t ttl) {
    auto s = store_of(c);
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (ttl < 0) return PLATFORM_INVALID_ARGUMENT;
    int64_t expires = ttl > 0 ? hctx(c).runtime->clock().now_ms() + ttl : 0;
    return s.table->put(s.inst, view(s.name), key, value, expires);
}

platform_status_t store_delete(platform_host_ctx_t* c, platform_str_t key) {
    auto s = store_of(c);
    if (!s.table) return PLATFORM_UNAVAILABLE;
    // The provider's del has no clock: an expired, unpurged record must still read as absent.
    auto ignore = [](void*, platform_str_t) {};
    platform_status_t st = s.table->get(s.inst, view(s.name), key, hctx(c).runtime->clock().now_ms(), ignore, nullptr);
    if (st != PLATFORM_OK) return st;
    return s.table->del(s.inst, view(s.name), key);
}

platform_status_t store_scan(platform_host_ctx_t* c, const platform_scan_t* scan, platform_record_sink_fn sink, void* user) {
    auto s = store_of(c);
    if (!s.table) return PLATFORM_UNAVAILABLE;
    if (!scan) return PLATFORM_INVALID_ARGUMENT;
    platform_scan_t copy{};  // normalise an older, smaller struct
    std::memcpy(&copy, scan, std::min<size_t>(scan->struct_size, sizeof copy));
    copy.struct_size = sizeof copy;
    return s.table->scan(s.inst, view(s.name), &copy, hctx(c).runtime->clock().now_ms(), sink, user);
}

const platform_broker_provider_t* broker_of(platform_host_ctx_t* c, void** inst) {
    Plugin* p = hctx(c).runtime->provider("broker");
    if (!p) return nullptr;
    *inst = p->instance;
    return static_cast<const platform_broker_provider_t*>(p->desc->provider);
}

platform_status_t broker_publish(platform_host_ctx_t* c, platform_str_t topic, platform_str_t body, platform_str_t headers) {
    void* inst = nullptr;
    auto* b = broker_of(c, &inst);
    if (!b) return PLATFORM_UNAVAILABLE;
    std::string h = headers.len ? str(headers) : "{}";
    return b->publish(inst, topic, body, view(h));
}

platform_status_t broker_subscribe(platform_host_ctx_t* c, platform_str_t topic, platform_str_t queue,
                                   platform_message_fn fn, void* user, uint64_t* out) {
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

int64_t clock_now_ms(platform_host_ctx_t* c) { return hctx(c).runtime->clock().now_ms(); }

std::shared_ptr<Call> find_call(platform_call_t* call) { return CallTable::global().find(call); }

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
    std::string key = str(name);
    for (auto& ch : key) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
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
    std::lock_guard<std::mutex> g(c->m);
    if (c->answered) return PLATFORM_INVALID_ARGUMENT;
    c->stream.append(bytes.ptr ? bytes.ptr : "", bytes.len);
    return PLATFORM_OK;
}

platform_status_t respond_end(platform_call_t* handle, platform_status_t code, platform_str_t message) {
    auto c = find_call(handle);
    if (!c) return PLATFORM_INVALID_ARGUMENT;
    std::string body;
    {
        std::lock_guard<std::mutex> g(c->m);
        body = code == PLATFORM_OK ? std::move(c->stream) : str(message);
    }
    // Streams are delivered whole until the SSE surface exists (docs/decisions.md).
    return finish(handle, Outcome{code, std::move(body), code == PLATFORM_OK ? "text/plain" : "", code == PLATFORM_OK});
}

// ---- privileged sub-tables ----

platform_status_t registry_list(platform_host_ctx_t* c, platform_bytes_sink_fn sink, void* user) {
    std::string out = hctx(c).runtime->registry().list().dump();
    sink(user, view(out));
    return PLATFORM_OK;
}

platform_status_t registry_get(platform_host_ctx_t* c, platform_str_t name, platform_bytes_sink_fn sink, void* user) {
    auto& reg = hctx(c).runtime->registry();
    const ServiceEntry* s = reg.find(str(name));
    if (!s) return PLATFORM_NOT_FOUND;
    std::string out = json::array({reg.describe(*s)}).dump();
    sink(user, view(out));
    return PLATFORM_OK;
}

bool clock_is_manual(platform_host_ctx_t* c) { return hctx(c).runtime->clock().manual(); }
platform_status_t clock_set(platform_host_ctx_t* c, int64_t ms) {
    return hctx(c).runtime->clock().set_ms(ms) ? PLATFORM_OK : PLATFORM_UNSUPPORTED;
}
platform_status_t clock_advance(platform_host_ctx_t* c, int64_t d) {
    return hctx(c).runtime->clock().advance_ms(d) ? PLATFORM_OK : PLATFORM_UNSUPPORTED;
}

const platform_registry_api_t kRegistryApi{sizeof(platform_registry_api_t), 1, registry_list, registry_get};
const platform_clock_api_t kClockApi{sizeof(platform_clock_api_t), 1, clock_is_manual, clock_set, clock_advance};

const void* get_service(platform_host_ctx_t* c, platform_str_t name, uint32_t min_version) {
    const std::string n = str(name);
    if (!hctx(c).plugin->privileged) return nullptr;
    if (n == PLATFORM_SERVICE_REGISTRY && min_version <= kRegistryApi.version) return &kRegistryApi;
    if (n == PLATFORM_SERVICE_CLOCK && min_version <= kClockApi.version) return &kClockApi;
    return nullptr;
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
    return a;
}

}  // namespace platform::host
