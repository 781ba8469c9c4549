// The event handler (docs/decisions.md 13): a path is a topic and an event name
// (resolve_event_path: "/foo/bar" -> topic <ns>.foo, name bar; "/v1/foo/bar" -> <ns>.v1.foo, bar),
// and the request is published on the broker (the profile's broker provider, as the host table's
// broker_publish does) as micro's api.Event JSON:
//   {"name": <action>, "id": "<topic>-<action>-<uuid>", "timestamp": <unix seconds, business clock>,
//    "header": {"Name": {"key", "values"}} of the request headers but Authorization/Cookie,
//    "data": GET -> the JSON text of the query map (values as arrays), else the raw body}
// with message headers Content-Type (application/json), X-Request-Id and Platform-Account.
// Answers 200 with an empty body; 401 for an anonymous caller (publishing needs an account, as
// broker.publish does); a publish failure is a 500 gateway error.
// A path naming an endpoint of an in-process service is not an event: the rpc handler serves it,
// so the built-in services (/broker/subscribe, /registry/...) stay reachable under this handler.
#include <platform/host/core/status.hpp>
#include <platform/host/http/http_bodies.hpp>

#include "handlers.hpp"

namespace platform::host {

using nlohmann::json;

namespace {
constexpr size_t kMaxEventBody = 1u << 20;  // as broker.publish's body limit
}

void Gateway::event_handler(HttpRequest& req, const Reply& reply, const OpenStream& open) {
    const std::string ns = request_namespace(req);
    if (auto route = resolve_rpc_path(req.path))
        if (const ServiceEntry* svc = runtime_.registry().find_exact(qualify(ns, route->service)))
            if (svc->plugin->public_endpoint(route->method)) return rpc_path(req, reply, open);

    const EventRoute ev = resolve_event_path(ns, req.path);
    if (ev.topic.empty()) return reply(gateway_error(ns, 404, "no topic for " + req.path));
    if (req.body.size() > kMaxEventBody)
        return reply(gateway_error(ev.topic, 413,
                                   "request body: more than the " + std::to_string(kMaxEventBody) +
                                       " bytes an event may carry"));
    Identity who;
    std::string why;
    if (platform_status_t st = runtime_.authenticate(gw::bearer(req), who, why); st != PLATFORM_OK)
        return reply(gateway_error(ev.topic, status_info(st).http, why));
    if (who.anonymous())
        return reply(gateway_error(
            ev.topic, 401,
            "publishing an event needs an account: send Authorization: Bearer <token>"));

    json data;
    if (req.method == "GET") {
        json query = json::object();
        for (auto& [k, values] : gw::form_values(req.query)) query[k] = values;
        data = query.dump(-1, ' ', false, json::error_handler_t::replace);
    } else {
        data = req.body;
    }
    const std::string id = req.header("x-request-id");
    const json event = {{"name", ev.action},
                        {"id", ev.topic + "-" + ev.action + "-" + gw::uuid4()},
                        {"timestamp", runtime_.clock().now_ms() / 1000},
                        {"header", gw::header_pairs(req.headers, false)},
                        {"data", std::move(data)}};
    const json headers = {
        {"Content-Type", "application/json"}, {"X-Request-Id", id}, {"Platform-Account", who.id}};

    Plugin* broker = runtime_.provider("broker");
    if (!broker || !broker->desc || !broker->desc->provider)
        return reply(gateway_error(
            ev.topic, 500,
            "publishing on " + ev.topic + " failed: the profile has no broker provider"));
    auto body =
        std::make_shared<std::string>(event.dump(-1, ' ', false, json::error_handler_t::replace));
    auto head =
        std::make_shared<std::string>(headers.dump(-1, ' ', false, json::error_handler_t::replace));
    // On the forwarding pool: a broker provider may block on the network.
    forward_pool_->submit([broker, topic = ev.topic, body, head, reply] {
        auto* table = static_cast<const platform_broker_provider_t*>(broker->desc->provider);
        platform_status_t st =
            table->publish(broker->instance, {topic.data(), topic.size()},
                           {body->data(), body->size()}, {head->data(), head->size()});
        if (st != PLATFORM_OK)
            return reply(gateway_error(
                topic, 500,
                "publishing on " + topic + " failed: " + std::string(status_info(st).name)));
        HttpResponse r;
        r.content_type = "text/plain";
        reply(r);
    });
}

}  // namespace platform::host
