// Serving the ops that reach the host for the plugin: log and resource_updated (notifications),
// config, business time, get_service, the broker (deliveries relayed as "message"
// notifications), events, outbound HTTP and the model.
#include <platform/host/outbound/outbound.hpp>
#include <string>

#include "host_calls.hpp"

namespace platform::host::worker::host_calls {

using nlohmann::json;

namespace {

void relay_message(void* user, platform_str_t topic, platform_str_t body, platform_str_t headers) {
    auto* r = static_cast<Relay*>(user);
    if (auto ch = r->channel.lock())
        ch->send({{"op", "message"},
                  {"token", r->token},
                  {"topic", text_of(topic)},
                  {"body", bytes(text_of(body))},
                  {"headers", text_of(headers)}});
}

}  // namespace

json log(const HostCall& c) {
    std::string msg = c.a.s("message");
    c.h.api->log(c.h.ctx, static_cast<platform_log_level_t>(c.a.i("level")), view(msg));
    return nullptr;
}

json resource_updated(const HostCall& c) {
    std::string uri = c.a.s("uri"), account = c.a.s("account");
    c.h.api->resource_updated(c.h.ctx, view(uri), view(account));
    return nullptr;
}

json config_get(const HostCall& c) {
    std::string path = c.a.s("path"), text;
    return out(c.h.api->config_get(c.h.ctx, view(path), append, &text), &text);
}

json clock_now_ms(const HostCall& c) {
    return {{"code", PLATFORM_OK}, {"out", c.h.api->clock_now_ms(c.h.ctx)}};
}

json get_service(const HostCall& c) {
    std::string name = c.a.s("name");
    return out(
        c.h.api->get_service(c.h.ctx, view(name), static_cast<uint32_t>(c.a.i("min_version")))
            ? PLATFORM_OK
            : PLATFORM_NOT_FOUND);
}

json broker_publish(const HostCall& c) {
    std::string topic = c.a.s("topic"), body = c.a.s("body"), headers = c.a.s("headers");
    return out(c.h.api->broker_publish(c.h.ctx, view(topic), view(body), view(headers)));
}

json broker_subscribe(const HostCall& c) {
    std::string topic = c.a.s("topic"), queue = c.a.s("queue");
    return subscribe_relay(c, &WorkerProcess::subscriptions, [&](Relay* relay, uint64_t* id) {
        return c.h.api->broker_subscribe(c.h.ctx, view(topic), view(queue), relay_message, relay,
                                         id);
    });
}

json broker_unsubscribe(const HostCall& c) {
    return unsubscribe_relay(c, &WorkerProcess::subscriptions,
                             [&](uint64_t id) { return c.h.api->broker_unsubscribe(c.h.ctx, id); });
}

json http_fetch(const HostCall& c) {
    std::string method = c.a.s("method"), url = c.a.s("url"), headers = c.a.s("headers"),
                body = c.a.s("body"), provider = c.a.s("provider");
    platform_http_request_t r = http_request(method, url, headers, body);
    r.provider = view(provider);
    r.timeout_ms = static_cast<int32_t>(c.a.i("timeout_ms"));
    r.max_response_bytes = static_cast<uint64_t>(c.a.i("max_response_bytes"));
    r.flags = static_cast<uint32_t>(c.a.i("flags"));
    json response;
    auto done = [](void* u, const platform_http_response_t* resp) {
        *static_cast<json*>(u) = {{"status", resp->status},
                                  {"headers", text_of(resp->headers_json)},
                                  {"body", bytes(text_of(resp->body))},
                                  {"error", text_of(resp->error)},
                                  {"final_url", text_of(resp->final_url)}};
    };
    platform_status_t st = c.h.api->http_fetch(c.h.ctx, &r, done, &response);
    json reply = {{"code", st}};
    if (!response.is_null()) reply["response"] = std::move(response);
    return reply;
}

json events_publish(const HostCall& c) {
    std::string id = c.a.s("id"), topic = c.a.s("topic"), metadata = c.a.s("metadata"),
                payload = c.a.s("payload");
    platform_event_t e{};
    e.struct_size = sizeof e;
    e.id = view(id);
    e.topic = view(topic);
    e.timestamp_ms = c.a.i("timestamp_ms");
    e.metadata_json = view(metadata);
    e.payload = view(payload);
    uint64_t offset = 0;
    platform_status_t st = c.h.api->events_publish(c.h.ctx, &e, &offset);
    return {{"code", st}, {"offset", offset}};
}

json events_read(const HostCall& c) {
    std::string topic = c.a.s("topic");
    json events = json::array();
    auto sink = [](void* u, const platform_event_t* e) {
        static_cast<json*>(u)->push_back({{"id", text_of(e->id)},
                                          {"topic", text_of(e->topic)},
                                          {"offset", e->offset},
                                          {"timestamp_ms", e->timestamp_ms},
                                          {"metadata", text_of(e->metadata_json)},
                                          {"payload", bytes(text_of(e->payload))}});
        return true;
    };
    platform_status_t st =
        c.h.api->events_read(c.h.ctx, view(topic), static_cast<uint64_t>(c.a.i("from")),
                             static_cast<uint32_t>(c.a.i("limit")), sink, &events);
    return {{"code", st}, {"events", std::move(events)}};
}

json events_wait(const HostCall& c) {
    std::string topic = c.a.s("topic");
    return out(c.h.api->events_wait(c.h.ctx, view(topic), static_cast<uint64_t>(c.a.i("after")),
                                    static_cast<int32_t>(c.a.i("timeout_ms"))));
}

// The answer, or the reason, in "out" whatever the code.
json model_complete(const HostCall& c) {
    std::string request = c.a.s("request"), text;
    platform_status_t st = c.h.api->model_complete(c.h.ctx, view(request), append, &text);
    return {{"code", st}, {"out", bytes(text)}};
}

}  // namespace platform::host::worker::host_calls
