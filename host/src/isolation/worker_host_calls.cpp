// serve_host_call: a request from a worker, looked up by its op in a map made from
// PLATFORM_HOST_OPS (host_protocol.hpp) and answered by the serving function of the same name
// (host_calls.hpp); and what the serving functions share.
#include <string_view>
#include <unordered_map>

#include "host_calls.hpp"

namespace platform::host::worker {

using nlohmann::json;

namespace {

using Serve = json (*)(const HostCall&);

const std::unordered_map<std::string_view, Serve>& serving_functions() {
    static const std::unordered_map<std::string_view, Serve> map = {
#define PLATFORM_HOST_CALL_ENTRY(id, wire, kind) {protocol::op::id, &host_calls::id},
        PLATFORM_HOST_OPS(PLATFORM_HOST_CALL_ENTRY)
#undef PLATFORM_HOST_CALL_ENTRY
    };
    return map;
}

}  // namespace

json serve_host_call(const HostSide& h, WorkerProcess& p, const json& m) {
    auto op = m.find("op");
    if (op == m.end() || !op->is_string()) return out(PLATFORM_UNSUPPORTED);
    const auto& map = serving_functions();
    auto found = map.find(op->get_ref<const std::string&>());
    if (found == map.end()) return out(PLATFORM_UNSUPPORTED);
    return found->second(HostCall{h, p, Args{m}});
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

void append(void* u, platform_str_t b) {
    static_cast<std::string*>(u)->append(b.ptr ? b.ptr : "", b.len);
}

json out(platform_status_t code, const std::string* text) {
    json r = {{"code", code}};
    if (text && code == PLATFORM_OK) r["out"] = bytes(*text);
    return r;
}

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

json subscribe_relay(const HostCall& call, Relays relays,
                     const std::function<platform_status_t(Relay*, uint64_t*)>& start) {
    auto relay = std::make_unique<Relay>();
    relay->channel = call.p.channel;
    relay->token = static_cast<uint64_t>(call.a.i("token"));
    uint64_t id = 0;
    const platform_status_t st = start(relay.get(), &id);
    if (st != PLATFORM_OK) return out(st);
    relay->host_id = id;
    std::lock_guard<std::mutex> g(call.p.m);
    (call.p.*relays)[id] = std::move(relay);
    return {{"code", PLATFORM_OK}, {"sub", id}};
}

json unsubscribe_relay(const HostCall& call, Relays relays,
                       const std::function<platform_status_t(uint64_t)>& stop) {
    const auto id = static_cast<uint64_t>(call.a.i("sub"));
    {
        std::lock_guard<std::mutex> g(call.p.m);
        if (!(call.p.*relays).count(id)) return out(PLATFORM_NOT_FOUND);
    }
    const platform_status_t st = stop(id);
    std::lock_guard<std::mutex> g(call.p.m);
    (call.p.*relays).erase(id);  // the host calls it no more
    return out(st);
}

}  // namespace platform::host::worker

namespace platform::host::protocol {

bool host_serves(std::string_view wire) {
    return worker::serving_functions().count(wire) > 0;
}

}  // namespace platform::host::protocol
