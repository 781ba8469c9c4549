// The host-table functions that reach other parts of the host for a plugin: calls to other
// services (1.2) and through grants (1.6), the broker, events, outbound HTTP and the model (1.5).
#include <algorithm>
#include <cstring>
#include <platform/host/core/model_choice.hpp>
#include <platform/sdk/random.hpp>

#include "grants.hpp"
#include "host_table.hpp"

namespace platform::host::host_table {

using nlohmann::json;

namespace {

// The relative service name of the one plugin that may use the SMTP relay.
constexpr const char* kMailService = "v1.mail";

std::string random_id() {
    return platform::random_hex(16);
}

const platform_broker_provider_t* broker_of(platform_host_ctx_t* c, void** inst) {
    Plugin* p = hctx(c).runtime->provider("broker");
    if (!p) return nullptr;
    *inst = p->instance;
    return static_cast<const platform_broker_provider_t*>(p->desc->provider);
}

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

struct EventsRef {
    const platform_events_provider_t* table = nullptr;
    void* inst = nullptr;
};
EventsRef events_of(platform_host_ctx_t* c) {
    Plugin* p = hctx(c).runtime->provider("events");
    if (!p) return {};
    return {static_cast<const platform_events_provider_t*>(p->desc->provider), p->instance};
}

}  // namespace

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

// The reserved provider "smtp" (outbound.hpp) is a letter for PLATFORM_SMTP_RELAY, whose
// credentials only the host holds: only the plugin serving the mail service (v1.mail; the registry
// has one) may send it. Anyone else is PERMISSION_DENIED, as if the provider were theirs to use.
platform_status_t http_fetch(platform_host_ctx_t* c, const platform_http_request_t* request,
                             platform_http_response_fn done, void* user) {
    Runtime& rt = *hctx(c).runtime;
    if (!request || !PLATFORM_HAS_FIELD(platform_http_request_t, request, provider) ||
        str(request->provider) != kSmtpProvider)
        return rt.outbound().fetch(request, done, user);
    if (hctx(c).plugin->service != kMailService) {
        const std::string m = "provider smtp: only the mail service (" + std::string(kMailService) +
                              ") sends through the SMTP relay";
        platform_http_response_t out{};
        out.struct_size = sizeof out;
        out.headers_json = {"{}", 2};
        out.error = view(m);
        if (done) done(user, &out);
        return PLATFORM_PERMISSION_DENIED;
    }
    return rt.outbound().relay_mail(*request, rt.settings().smtp_relay, rt.settings().mail_domain,
                                    done, user);
}

platform_status_t model_complete(platform_host_ctx_t* c, platform_str_t request,
                                 platform_bytes_sink_fn sink, void* user) {
    std::string out;
    const platform_status_t st = complete_with_model(*hctx(c).runtime, view_of(request), out);
    if (sink) sink(user, view(out));
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

}  // namespace platform::host::host_table
