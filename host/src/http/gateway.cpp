#include <strings.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <platform/host/acme/http_challenges.hpp>
#include <platform/host/core/names.hpp>
#include <platform/host/core/settings.hpp>
#include <platform/host/core/status.hpp>
#include <platform/host/http/gateway.hpp>
#include <platform/host/http/http_bodies.hpp>
#include <platform/host/http/openapi.hpp>
#include <platform/host/http/trace_context.hpp>
#include <platform/host/mcp/mcp.hpp>
#include <platform/sdk/text.hpp>
#include <stdexcept>

#include "handlers.hpp"
#include "resolve.hpp"
#include "sse_stream.hpp"

namespace platform::host {

using nlohmann::json;

namespace {
int64_t timeout_ms(const HttpRequest& req) {
    std::string t = req.header("timeout");
    if (t.empty()) return 0;
    char* end = nullptr;
    double secs = std::strtod(t.c_str(), &end);
    return (end && *end == 0 && secs > 0) ? static_cast<int64_t>(secs * 1000) : 0;
}

bool query_flag(const std::string& query, const std::string& kv) {
    size_t pos = 0;
    while ((pos = query.find(kv, pos)) != std::string::npos) {
        bool start = pos == 0 || query[pos - 1] == '&';
        bool end = pos + kv.size() == query.size() || query[pos + kv.size()] == '&';
        if (start && end) return true;
        pos += kv.size();
    }
    return false;
}

bool websocket_upgrade(const HttpRequest& req) {
    return platform::lower(req.header("upgrade")).find("websocket") != std::string::npos;
}

}  // namespace

std::optional<HandlerKind> parse_handler(std::string_view name) {
    if (name == "rpc") return HandlerKind::rpc;
    if (name == "api") return HandlerKind::api;
    if (name == "proxy") return HandlerKind::proxy;
    if (name == "event") return HandlerKind::event;
    if (name == "web") return HandlerKind::web;
    return std::nullopt;
}

const char* handler_name(HandlerKind kind) {
    switch (kind) {
        case HandlerKind::rpc:
            return "rpc";
        case HandlerKind::api:
            return "api";
        case HandlerKind::proxy:
            return "proxy";
        case HandlerKind::event:
            return "event";
        case HandlerKind::web:
            return "web";
    }
    return "rpc";
}

const char* platform_version() {
    return "v0.1.0";
}

Gateway::Gateway(Runtime& runtime, Role role, std::string version,
                 std::shared_ptr<const HttpChallenges> challenges)
    : runtime_(runtime),
      role_(role),
      version_(std::move(version)),
      challenges_(std::move(challenges)) {
    const std::string& name = runtime_.settings().handler;
    auto kind = parse_handler(name);
    if (!kind)
        throw std::invalid_argument("unknown gateway handler '" + name +
                                    "' (--handler / PLATFORM_API_HANDLER; choose one of " +
                                    kHandlerChoices + ")");
    handler_ = *kind;
    if (role_ == Role::api) {
        routes_ = std::make_unique<Routes>();
        build_local_routes();
        std::weak_ptr<std::atomic<bool>> dirty = routes_->dirty;
        routes_->watch_id = runtime_.registry().watch([dirty](const nlohmann::json&) {
            if (auto d = dirty.lock()) d->store(true);
        });
        forward_pool_ = std::make_unique<WorkerPool>(1, 64);
        mcp_ = std::make_unique<McpServer>(runtime_, version_);
    }
}

Gateway::~Gateway() {
    if (routes_) runtime_.registry().unwatch(routes_->watch_id);
    if (forward_pool_) forward_pool_->stop();
}

void Gateway::begin_drain() {
    if (mcp_) mcp_->end_streams();
}

std::string Gateway::request_namespace(const HttpRequest& req) const {
    std::string given = req.header("platform-namespace");
    return given.empty() ? runtime_.settings().ns : given;
}

void Gateway::handle(HttpRequest req, std::function<void(HttpResponse)> reply,
                     OpenStream open_stream, OpenWebSocket open_websocket, RelayConnection relay) {
    // The HTTP front set a valid X-Request-Id; a caller without the front (the fuzzer's harness,
    // tests/fuzz/http_request.cpp) gets one made here.
    std::string id = req.header("x-request-id");
    if (id.empty()) req.headers["x-request-id"] = id = request_id_for("");
    // One shared state: the handlers copy `send` into their callbacks, a reference count each.
    struct Sender {
        std::function<void(HttpResponse)> reply;
        std::string id;
    };
    const Reply send =
        [s = std::make_shared<Sender>(Sender{std::move(reply), id})](HttpResponse r) {
            r.headers.emplace_back("X-Request-Id", s->id);
            s->reply(std::move(r));
        };
    const std::string& ns = runtime_.settings().ns;
    if (req.path == "/") {
        if (req.method != "GET" && req.method != "HEAD")
            return send(gateway_error(
                ns, 405, "GET / answers the version; " + req.method + " is not allowed"));
        HttpResponse r;
        r.body = json{{"version", version_}}.dump();
        return send(r);
    }
    if (req.path == "/rpc") return rpc_call(req, send, open_stream);
    if (req.path.rfind(HttpChallenges::kPrefix, 0) == 0) {  // ACME http-01, on both ports
        auto answer = challenges_ ? challenges_->answer(req.path) : std::nullopt;
        if (!answer) return send(gateway_error(ns, 404, "no such ACME challenge"));
        HttpResponse r;
        r.content_type = "text/plain";
        r.body = *answer;
        return send(r);
    }
    if (role_ == Role::proxy)
        return send(gateway_error(ns, 404, "the RPC proxy serves only GET / and POST /rpc"));
    if (req.path == "/mcp") {
        OpenStream open;
        if (open_stream)
            open = [open_stream, id](int status, const std::string& type,
                                     const std::vector<std::pair<std::string, std::string>>& h) {
                auto headers = h;
                headers.emplace_back("X-Request-Id", id);
                headers.emplace_back("Cache-Control", "no-cache");
                return open_stream(status, type, headers);
            };
        return mcp_->handle(req, send, open);
    }
    // The other paths stream only through invoke(), which adds the same two headers.
    const OpenStream& open = open_stream;
    if (open_websocket && websocket_upgrade(req) && req.path.rfind("/api/v1/", 0) == 0)
        return websocket(req, send, open_websocket);
    if (req.path == "/api/v1/openapi.json") {
        HttpResponse r;
        r.body = openapi_text(runtime_.registry(), version_);
        return send(r);
    }
    if (req.path.rfind("/api/v1/", 0) == 0) return catalogue(req, send, open);
    if (handler_ == HandlerKind::web && websocket_upgrade(req) && relay &&
        web_socket(req, send, relay))
        return;
    if (session_route(req, send)) return;
    if (console_route(req, send)) return;
    if (declared_route(req, send, open)) return;
    switch (handler_) {
        case HandlerKind::rpc:
            return rpc_path(req, send, open);
        case HandlerKind::api:
            return api_handler(req, send);
        case HandlerKind::proxy:
            return proxy_handler(req, send, open, false);
        case HandlerKind::web:
            return proxy_handler(req, send, open, true);
        case HandlerKind::event:
            return event_handler(req, send, open);
    }
}

void Gateway::invoke(HttpRequest& req, const ServiceEntry& svc, const Endpoint& ep, json args,
                     std::function<void(Outcome)> done, const OpenStream& open) {
    Invocation inv;
    if (open && (ep.flags & PLATFORM_FLAG_STREAMING)) {
        auto sse = std::make_shared<SseStream>();
        sse->open = open;
        sse->request_id = req.header("x-request-id");
        sse->cursor_ids = !ep.resume_arg.empty();
        // An EventSource reconnecting sends the last id it saw: the stream resumes after it.
        const std::string last = req.header("last-event-id");
        if (sse->cursor_ids && !last.empty()) {
            json given = json::parse(last, nullptr, false);
            args[ep.resume_arg] = given.is_number_integer() ? given : json(last);
        }
        inv.chunk_sink = [sse](std::string_view chunk) { return sse->send(chunk); };
        done = [sse, done = std::move(done)](Outcome o) {
            if (!sse->finish(o) && !o.streamed) done(std::move(o));
        };
    }
    inv.service = &svc;
    inv.endpoint = &ep;
    inv.args = std::move(args);
    inv.credential = gw::bearer(req);
    if (inv.credential.empty()) {
        inv.credential = gw::cookie(req, gw::kSessionCookie);
        inv.via_cookie = !inv.credential.empty();
    }
    inv.http_method = req.method;
    inv.ns = req.header("platform-namespace");
    inv.request_id = req.header("x-request-id");
    inv.timeout_ms = timeout_ms(req);
    inv.headers = std::move(req.headers);
    runtime_.dispatch(std::move(inv), std::move(done));
}

void Gateway::catalogue(HttpRequest& req, const Reply& reply, const OpenStream& open) {
    static const RouteRule rule = [] {
        RouteRule r{RouteRule::Lookup::catalogue, RouteRule::Verbs::catalogue,
                    RouteRule::Args::query_and_body, ErrorStyle::catalogue};
        r.skip_query_key = "envelope";
        r.forms_need_page = true;  // JSON only, but for endpoints whose browser page posts forms
        return r;
    }();
    auto call = resolve(req, rule, runtime_, request_namespace(req));
    if (auto* no = std::get_if<Refusal>(&call)) return reply(render(*no, rule.style));
    auto& c = std::get<Resolved>(call);
    const bool result_envelope = query_flag(req.query, "envelope=result");
    invoke(
        req, *c.service, *c.endpoint, std::move(c.args),
        [reply, result_envelope](Outcome o) {
            reply(catalogue_outcome(std::move(o), result_envelope));
        },
        open);
}

void Gateway::rpc_path(HttpRequest& req, const Reply& reply, const OpenStream& open) {
    static const RouteRule rule{RouteRule::Lookup::rpc_path, RouteRule::Verbs::post_refuses_get};
    auto call = resolve(req, rule, runtime_, request_namespace(req));
    if (auto* no = std::get_if<Refusal>(&call)) return reply(render(*no, rule.style));
    auto& c = std::get<Resolved>(call);
    invoke(
        req, *c.service, *c.endpoint, std::move(c.args),
        [reply, name = c.service->name](Outcome o) { reply(gateway_outcome(name, std::move(o))); },
        open);
}

void Gateway::rpc_call(HttpRequest& req, const Reply& reply, const OpenStream& open_stream) {
    RouteRule rule{RouteRule::Lookup::envelope, RouteRule::Verbs::post_only,
                   RouteRule::Args::envelope};
    rule.id = qualify(runtime_.settings().ns, "rpc");
    rule.not_allowed = "/rpc takes POST with {service, method, request}";
    auto call = resolve(req, rule, runtime_, request_namespace(req));
    if (auto* no = std::get_if<Refusal>(&call)) return reply(render(*no, rule.style));
    auto& c = std::get<Resolved>(call);
    // A streaming method streams Server-Sent Events to a client that asks for them (the CLI's
    // `logs -f`); otherwise its chunks come back as one JSON array.
    static const OpenStream no_stream;
    const bool sse = req.header("accept").find("text/event-stream") != std::string::npos;
    const OpenStream& open = sse ? open_stream : no_stream;
    invoke(
        req, *c.service, *c.endpoint, std::move(c.args),
        [reply, name = c.service->name](Outcome o) { reply(gateway_outcome(name, std::move(o))); },
        open);
}

}  // namespace platform::host
