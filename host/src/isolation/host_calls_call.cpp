// Serving the ops on a call the worker was sent (answers, MCP, tools, grant_create), which answer
// INVALID_ARGUMENT for a call id the worker may not name, and the calls to other services, whose
// reply comes later as a "reply" notification with the request's token.
#include <memory>
#include <string>

#include "host_calls.hpp"

namespace platform::host::worker::host_calls {

using nlohmann::json;

namespace {

// A reply the host gives later, relayed to the worker as a notification.
struct Later {
    std::weak_ptr<Channel> channel;
    uint64_t token;
};
void relay_reply(void* user, platform_status_t code, platform_str_t body) {
    std::unique_ptr<Later> l(static_cast<Later*>(user));
    if (auto ch = l->channel.lock())
        ch->send(
            {{"op", "reply"}, {"token", l->token}, {"code", code}, {"body", bytes(text_of(body))}});
}
// Calls `start` with a Later for the request's token; forgets it when the host refused (the
// callback will not run).
template <typename Start>
json with_reply(const HostCall& c, Start start) {
    auto* later = new Later{c.p.channel, static_cast<uint64_t>(c.a.i("token"))};
    const platform_status_t st = start(later);
    if (st != PLATFORM_OK) delete later;
    return out(st);
}

uint64_t call_id(const HostCall& c) {
    return static_cast<uint64_t>(c.a.i("call"));
}

// A final answer: the call is answered for the worker's flights whatever the host said.
template <typename Answer>
json answer(const HostCall& c, Answer give) {
    const uint64_t id = call_id(c);
    if (!owns(c.p, id)) return out(PLATFORM_INVALID_ARGUMENT);
    const platform_status_t st = give(handle(id));
    mark_answered(c.p, id);
    return out(st);
}

platform_status_t code_arg(const HostCall& c) {
    return static_cast<platform_status_t>(c.a.i("code"));
}

}  // namespace

json respond(const HostCall& c) {
    std::string body = c.a.s("body");
    return answer(c,
                  [&](platform_call_t* h) { return c.h.api->respond(h, code_arg(c), view(body)); });
}

json respond_raw(const HostCall& c) {
    std::string body = c.a.s("body"), type = c.a.s("content_type");
    return answer(
        c, [&](platform_call_t* h) { return c.h.api->respond_raw(h, view(type), view(body)); });
}

json respond_raw_headers(const HostCall& c) {
    std::string body = c.a.s("body"), type = c.a.s("content_type"), headers = c.a.s("headers");
    return answer(c, [&](platform_call_t* h) {
        return c.h.api->respond_raw_headers(h, view(type), view(headers), view(body));
    });
}

json respond_chunk(const HostCall& c) {
    const uint64_t id = call_id(c);
    if (!owns(c.p, id)) return out(PLATFORM_INVALID_ARGUMENT);
    std::string body = c.a.s("body");
    return out(c.h.api->respond_chunk(handle(id), view(body)));
}

json respond_end(const HostCall& c) {
    std::string body = c.a.s("body");
    return answer(
        c, [&](platform_call_t* h) { return c.h.api->respond_end(h, code_arg(c), view(body)); });
}

json call_service(const HostCall& c) {
    const auto parent = static_cast<uint64_t>(c.a.i("parent"));
    const bool mine = parent && owns(c.p, parent);
    std::string service = c.a.s("service"), method = c.a.s("method"), request = c.a.s("request");
    return with_reply(c, [&](Later* later) -> platform_status_t {
        return c.h.api->call_service(c.h.ctx, mine ? handle(parent) : nullptr, view(service),
                                     view(method), view(request),
                                     static_cast<uint32_t>(c.a.i("flags")), relay_reply, later);
    });
}

json call_client_request(const HostCall& c) {
    const auto parent = static_cast<uint64_t>(c.a.i("parent"));
    const bool mine = parent && owns(c.p, parent);
    std::string method = c.a.s("method"), params = c.a.s("params");
    return with_reply(c, [&](Later* later) -> platform_status_t {
        if (!mine) return PLATFORM_INVALID_ARGUMENT;
        return c.h.api->call_client_request(handle(parent), view(method), view(params),
                                            c.a.i("timeout_ms"), relay_reply, later);
    });
}

json call_progress(const HostCall& c) {
    const uint64_t id = call_id(c);
    if (!owns(c.p, id)) return out(PLATFORM_INVALID_ARGUMENT);
    std::string message = c.a.s("message");
    return out(
        c.h.api->call_progress(handle(id), c.a.d("progress"), c.a.d("total"), view(message)));
}

json call_log(const HostCall& c) {
    const uint64_t id = call_id(c);
    if (!owns(c.p, id)) return out(PLATFORM_INVALID_ARGUMENT);
    std::string level = c.a.s("level"), logger = c.a.s("logger"), data = c.a.s("data");
    return out(c.h.api->call_log(handle(id), view(level), view(logger), view(data)));
}

json call_tools(const HostCall& c) {
    const uint64_t id = call_id(c);
    if (!owns(c.p, id)) return out(PLATFORM_INVALID_ARGUMENT);
    std::string text;
    return out(c.h.api->call_tools(handle(id), append, &text), &text);
}

json grant_create(const HostCall& c) {
    const uint64_t id = call_id(c);
    if (!owns(c.p, id)) return out(PLATFORM_INVALID_ARGUMENT);
    std::string text;
    return out(c.h.api->grant_create(handle(id), append, &text), &text);
}

json grant_call_service(const HostCall& c) {
    std::string grant = c.a.s("grant"), service = c.a.s("service"), method = c.a.s("method"),
                request = c.a.s("request");
    return with_reply(c, [&](Later* later) -> platform_status_t {
        return c.h.api->grant_call_service(c.h.ctx, view(grant), view(service), view(method),
                                           view(request), c.a.i("timeout_ms"), relay_reply, later);
    });
}

json grant_revoke(const HostCall& c) {
    std::string grant = c.a.s("grant");
    return out(c.h.api->grant_revoke(c.h.ctx, view(grant)));
}

}  // namespace platform::host::worker::host_calls
