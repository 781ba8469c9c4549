// Serving the ops of the privileged sub-tables "registry", "network", "secrets" and "clock":
// PERMISSION_DENIED when get_service does not give the plugin the sub-table. Registry watch events
// are relayed to the worker as "watch" notifications.
#include <string>

#include "host_calls.hpp"

namespace platform::host::worker::host_calls {

using nlohmann::json;

namespace {

void relay_watch(void* user, platform_str_t event) {
    auto* r = static_cast<Relay*>(user);
    if (auto ch = r->channel.lock())
        ch->send({{"op", "watch"}, {"token", r->token}, {"event", bytes(text_of(event))}});
}

const platform_registry_api_t* registry(const HostCall& c, uint32_t version) {
    return sub<platform_registry_api_t>(c.h, PLATFORM_SERVICE_REGISTRY, version);
}

// register and deregister (version 2) lend their failure's reason: answered in "error".
template <typename Change>
json registry_change(const HostCall& c, Change change) {
    auto* r = registry(c, 1);
    if (!r) return out(PLATFORM_PERMISSION_DENIED);
    if (r->version < 2) return out(PLATFORM_UNSUPPORTED);
    std::string arg = c.a.s("arg"), text;
    const platform_status_t st = change(*r, arg, text);
    return {{"code", st}, {"error", text}};
}

json seal_or_open(const HostCall& c, bool seal) {
    auto* s = sub<platform_secrets_api_t>(c.h, PLATFORM_SERVICE_SECRETS, 1);
    if (!s) return out(PLATFORM_PERMISSION_DENIED);
    std::string arg = c.a.s("arg"), text;
    return out(seal ? s->seal(c.h.ctx, view(arg), append, &text)
                    : s->open(c.h.ctx, view(arg), append, &text),
               &text);
}

const platform_clock_api_t* clock(const HostCall& c) {
    return sub<platform_clock_api_t>(c.h, PLATFORM_SERVICE_CLOCK, 1);
}

}  // namespace

json registry_list(const HostCall& c) {
    auto* r = registry(c, 1);
    if (!r) return out(PLATFORM_PERMISSION_DENIED);
    std::string text;
    return out(r->list_services(c.h.ctx, append, &text), &text);
}

json registry_get(const HostCall& c) {
    auto* r = registry(c, 1);
    if (!r) return out(PLATFORM_PERMISSION_DENIED);
    std::string arg = c.a.s("arg"), text;
    return out(r->get_service(c.h.ctx, view(arg), append, &text), &text);
}

json registry_register(const HostCall& c) {
    return registry_change(
        c, [&](const platform_registry_api_t& r, const std::string& arg, std::string& text) {
            return r.register_service(c.h.ctx, view(arg), c.a.i("ttl_s"), append, &text);
        });
}

json registry_deregister(const HostCall& c) {
    return registry_change(
        c, [&](const platform_registry_api_t& r, const std::string& arg, std::string& text) {
            return r.deregister_service(c.h.ctx, view(arg), append, &text);
        });
}

json registry_watch(const HostCall& c) {
    return subscribe_relay(c, &WorkerProcess::watches, [&](Relay* relay, uint64_t* id) {
        auto* r = registry(c, 2);
        return r ? r->watch(c.h.ctx, relay_watch, relay, id) : PLATFORM_PERMISSION_DENIED;
    });
}

json registry_unwatch(const HostCall& c) {
    return unsubscribe_relay(c, &WorkerProcess::watches, [&](uint64_t id) {
        auto* r = registry(c, 2);
        return r ? r->unwatch(c.h.ctx, id) : PLATFORM_PERMISSION_DENIED;
    });
}

json network_nodes(const HostCall& c) {
    auto* n = sub<platform_network_api_t>(c.h, PLATFORM_SERVICE_NETWORK, 1);
    std::string text;
    return out(n ? n->nodes(c.h.ctx, append, &text) : PLATFORM_PERMISSION_DENIED, &text);
}

json secrets_seal(const HostCall& c) {
    return seal_or_open(c, true);
}

json secrets_open(const HostCall& c) {
    return seal_or_open(c, false);
}

json clock_is_manual(const HostCall& c) {
    auto* k = clock(c);
    if (!k) return out(PLATFORM_PERMISSION_DENIED);
    return {{"code", PLATFORM_OK}, {"out", k->is_manual(c.h.ctx)}};
}

json clock_set(const HostCall& c) {
    auto* k = clock(c);
    return out(k ? k->set_ms(c.h.ctx, c.a.i("ms")) : PLATFORM_PERMISSION_DENIED);
}

json clock_advance(const HostCall& c) {
    auto* k = clock(c);
    return out(k ? k->advance_ms(c.h.ctx, c.a.i("ms")) : PLATFORM_PERMISSION_DENIED);
}

}  // namespace platform::host::worker::host_calls
