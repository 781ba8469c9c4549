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
#include <platform/host/http/request_args.hpp>
#include <platform/host/mcp/mcp.hpp>
#include <platform/sdk/random.hpp>
#include <platform/sdk/text.hpp>
#include <platform/validation/json_depth.hpp>
#include <platform/validation/schema.hpp>
#include <stdexcept>

#include "handlers.hpp"

using platform::validation::json_depth_ok;
using platform::validation::kMaxJsonDepth;

namespace platform::host {

using nlohmann::json;

namespace {
std::string request_id(const HttpRequest& req) {
    std::string given = req.header("x-request-id");
    if (!given.empty() && given.size() <= 128 &&
        std::all_of(given.begin(), given.end(), [](char c) { return c > 32 && c < 127; }))
        return given;
    return platform::random_hex(8);
}

int64_t timeout_ms(const HttpRequest& req) {
    std::string t = req.header("timeout");
    if (t.empty()) return 0;
    char* end = nullptr;
    double secs = std::strtod(t.c_str(), &end);
    return (end && *end == 0 && secs > 0) ? static_cast<int64_t>(secs * 1000) : 0;
}

std::string endpoint_names(const Plugin& p) {
    std::string out;
    for (const auto& e : p.endpoints)
        if (!e.internal()) out += (out.empty() ? "" : ", ") + e.name;
    return out;
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

// "host:port" -> {host class, port}: the loopback names and the any-address count as one host.
std::pair<std::string, std::string> node_key(const std::string& address) {
    auto colon = address.rfind(':');
    if (colon == std::string::npos) return {address, ""};
    std::string host = address.substr(0, colon), port = address.substr(colon + 1);
    if (host.size() > 1 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    host = platform::lower(host);
    if (host.empty() || host == "localhost" || host == "127.0.0.1" || host == "::1" ||
        host == "0.0.0.0" || host == "::")
        host = "loopback";
    return {host, port};
}

// The /rpc envelope: service, method (or endpoint), request (an object or a JSON string of one),
// address. Typing form fields by it keeps them strings ("request" as text, then parsed).
const Schema& rpc_envelope_schema() {
    static const Schema schema = Schema::compile(nlohmann::json::parse(R"({
        "type": "object",
        "properties": {
            "service": {"type": "string"}, "method": {"type": "string"}, "endpoint": {"type": "string"},
            "address": {"type": "string"}, "request": {"type": ["object", "string"]}
        }
    })"));
    return schema;
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

// The Server-Sent Events side of a streaming call: the stream opens with the first chunk.
struct SseStream {
    std::mutex m;
    OpenStream open;
    std::vector<std::pair<std::string, std::string>> headers;
    std::shared_ptr<HttpStream> stream;

    static std::string frame(std::string_view chunk, std::string_view event = {}) {
        std::string out;
        if (!event.empty()) out += "event: " + std::string(event) + "\n";
        for (size_t i = 0;;) {  // one `data:` line per line of the chunk
            size_t j = chunk.find('\n', i);
            out += "data: ";
            out.append(
                chunk.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
            out += "\n";
            if (j == std::string_view::npos) break;
            i = j + 1;
        }
        return out + "\n";
    }
    bool send(std::string_view chunk) {
        std::lock_guard<std::mutex> g(m);
        if (!stream) stream = open(200, "text/event-stream", headers);
        return stream && stream->write(frame(chunk));
    }
    // Ends a started stream (an error becomes a final `event: error`); false if none started.
    bool finish(const Outcome& o) {
        std::lock_guard<std::mutex> g(m);
        if (!stream) return false;
        if (o.code != PLATFORM_OK) {
            const auto& info = status_info(o.code);
            stream->write(frame(json{{"code", info.name}, {"message", o.body}}.dump(
                                    -1, ' ', false, json::error_handler_t::replace),
                                "error"));
        }
        stream->end();
        return true;
    }
};

void Gateway::handle(HttpRequest req, std::function<void(HttpResponse)> reply,
                     OpenStream open_stream) {
    const std::string id = request_id(req);
    auto send = [reply = std::move(reply), id](HttpResponse r) {
        r.headers.emplace_back("X-Request-Id", id);
        reply(std::move(r));
    };
    req.headers["x-request-id"] = id;
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
    if (req.path == "/health") {
        HttpResponse r;
        r.body = R"({"status":"ok"})";
        return send(r);
    }
    OpenStream open;
    if (open_stream)
        open = [open_stream, id](int status, const std::string& type,
                                 const std::vector<std::pair<std::string, std::string>>& h) {
            auto headers = h;
            headers.emplace_back("X-Request-Id", id);
            headers.emplace_back("Cache-Control", "no-cache");
            return open_stream(status, type, headers);
        };
    if (req.path == "/mcp") return mcp_->handle(req, send, open);
    if (req.path == "/api/v1/openapi.json") {
        HttpResponse r;
        r.body = openapi_text(runtime_.registry(), version_);
        return send(r);
    }
    if (req.path.rfind("/api/v1/", 0) == 0) return catalogue(req, send, open);
    if (handler_ == HandlerKind::web && websocket_upgrade(req))
        return send(gateway_error(
            request_namespace(req), 501,
            "WebSocket pass-through is not available: the HTTP server (Pistache 0.0.5) cannot hand "
            "the connection over; use plain HTTP requests"));
    if (session_route(req, send)) return;
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
    auto parts = path_segments(req.path.substr(8));
    if (parts.size() != 2)
        return reply(catalogue_status(PLATFORM_NOT_FOUND, "no such method: " + req.path +
                                                              " (use /api/v1/<service>/<method>)"));
    const ServiceEntry* svc = runtime_.registry().find_catalogue(parts[0]);
    if (!svc)
        return reply(catalogue_status(PLATFORM_NOT_FOUND, "unknown service '" + parts[0] + "'"));
    const Endpoint* ep = svc->plugin->public_endpoint(parts[1]);
    if (!ep)
        return reply(catalogue_status(PLATFORM_NOT_FOUND,
                                      "unknown method '" + parts[0] + "/" + parts[1] +
                                          "' (available: " + endpoint_names(*svc->plugin) + ")"));
    if (req.method != "GET" && req.method != "POST") {
        auto r = catalogue_status(PLATFORM_METHOD_NOT_ALLOWED,
                                  req.method + " is not allowed; use GET or POST");
        r.headers.emplace_back("Allow", ep->verb == PLATFORM_VERB_GET ? "GET, POST" : "POST");
        return reply(r);
    }
    if (ep->verb == PLATFORM_VERB_POST && req.method == "GET") {
        auto r =
            catalogue_status(PLATFORM_METHOD_NOT_ALLOWED,
                             parts[0] + "/" + ep->name +
                                 " changes data or searches privately: use POST with a JSON body");
        r.headers.emplace_back("Allow", "POST");
        return reply(r);
    }
    const bool result_envelope = query_flag(req.query, "envelope=result");
    // JSON only, but for endpoints with a browser page (http_path), whose forms post here too.
    auto args = request_args(req, &ep->input, ep->max_body, "envelope",
                             ep->http_path.empty() ? BodyForms::refused : BodyForms::taken);
    if (auto* err = std::get_if<ArgsError>(&args))
        return reply(catalogue_error(err->http_status,
                                     err->http_status == 415
                                         ? "unsupported_media_type"
                                         : std::string(status_info(err->code).name),
                                     err->message));
    invoke(
        req, *svc, *ep, std::move(std::get<json>(args)),
        [reply, result_envelope](Outcome o) {
            reply(catalogue_outcome(std::move(o), result_envelope));
        },
        open);
}

void Gateway::rpc_path(HttpRequest& req, const Reply& reply, const OpenStream& open) {
    const std::string ns = request_namespace(req);
    auto route = resolve_rpc_path(req.path);
    if (!route) return reply(gateway_error(ns, 404, "no route for " + req.path));
    const std::string name = qualify(ns, route->service);
    const ServiceEntry* svc = runtime_.registry().find_exact(name);
    if (!svc) return reply(gateway_error(ns, 404, "service not found: " + name));
    const Endpoint* ep = svc->plugin->public_endpoint(route->method);
    if (!ep)
        return reply(gateway_error(name, 404, "endpoint not found: " + name + ":" + route->method));
    if (ep->verb == PLATFORM_VERB_POST && req.method == "GET") {
        auto r = gateway_error(name, 405, ep->method + " changes data: use POST with a JSON body");
        r.headers.emplace_back("Allow", "POST");
        return reply(r);
    }
    auto args = request_args(req, &ep->input, ep->max_body);
    if (auto* err = std::get_if<ArgsError>(&args))
        return reply(gateway_error(name, err->http_status, err->message));
    invoke(
        req, *svc, *ep, std::move(std::get<json>(args)),
        [reply, name](Outcome o) { reply(gateway_outcome(name, std::move(o))); }, open);
}

void Gateway::rpc_call(HttpRequest& req, const Reply& reply, const OpenStream& open_stream) {
    const std::string id = qualify(runtime_.settings().ns, "rpc");
    if (req.method != "POST") {
        auto r = gateway_error(id, 405, "/rpc takes POST with {service, method, request}");
        r.headers.emplace_back("Allow", "POST");
        return reply(r);
    }
    if (req.body.size() > PLATFORM_DEFAULT_MAX_BODY * 64)
        return reply(gateway_error(id, 413, "request body too large"));
    auto parsed = parse_body(req, &rpc_envelope_schema());
    if (auto* err = std::get_if<ArgsError>(&parsed))
        return reply(gateway_error(id, err->http_status, err->message));
    json& env = std::get<json>(parsed);
    auto field = [&](const char* k) {
        return env.contains(k) && env[k].is_string() ? env[k].get<std::string>() : "";
    };
    std::string service = field("service"), method = field("method");
    if (method.empty()) method = field("endpoint");
    if (service.empty())
        return reply(gateway_error(id, 400, "invalid service: `service` is required"));
    if (method.empty())
        return reply(gateway_error(id, 400, "invalid method: `method` is required"));
    json args = json::object();
    if (env.contains("request")) {
        args = env["request"];
        if (args.is_string()) {
            std::string text = args.get<std::string>();
            if (!json_depth_ok(text))
                return reply(gateway_error(
                    id, 400,
                    "request: nested more than " + std::to_string(kMaxJsonDepth) + " levels deep"));
            args = text.empty() ? json::object() : json::parse(text, nullptr, false);
        }
        if (!args.is_object())
            return reply(
                gateway_error(id, 400, "request: must be a JSON object (or a JSON string of one)"));
    }
    // `address` pins the node the call goes to; an in-process service has one node: this host.
    if (std::string address = field("address"); !address.empty()) {
        const auto wanted = node_key(address);
        bool here = false;
        for (const auto& node : runtime_.network_nodes())
            for (const auto& a :
                 {node.value("address", ""),
                  node.contains("metadata") ? node["metadata"].value("proxy", "") : ""})
                here |= !a.empty() && (a == address || node_key(a) == wanted);
        if (!here) return reply(gateway_error(id, 404, "no node at " + address));
    }
    // Platform-Namespace: a name is looked up in that namespace (or taken as a full name).
    const ServiceEntry* svc = nullptr;
    const std::string ns = request_namespace(req);
    if (ns == runtime_.settings().ns) {
        svc = runtime_.registry().find(service);
    } else {
        svc = runtime_.registry().find_exact(service);
        if (!svc) svc = runtime_.registry().find_exact(qualify(ns, service));
    }
    if (!svc)
        return reply(
            gateway_error(id, 404,
                          "service not found: " +
                              (ns == runtime_.settings().ns ? service : qualify(ns, service))));
    const Endpoint* ep = svc->plugin->public_endpoint(method);
    if (!ep)
        return reply(gateway_error(id, 404, "endpoint not found: " + svc->name + ":" + method));
    if (ep->max_body < req.body.size())
        return reply(gateway_error(id, 413,
                                   "request: more than the " + std::to_string(ep->max_body) +
                                       " bytes " + ep->method + " accepts"));
    // A streaming method streams Server-Sent Events to a client that asks for them (the CLI's
    // `logs -f`); otherwise its chunks come back as one JSON array.
    OpenStream open;
    if (open_stream && req.header("accept").find("text/event-stream") != std::string::npos)
        open = [open_stream, rid = req.header("x-request-id")](
                   int status, const std::string& type,
                   const std::vector<std::pair<std::string, std::string>>& h) {
            auto headers = h;
            headers.emplace_back("X-Request-Id", rid);
            headers.emplace_back("Cache-Control", "no-cache");
            return open_stream(status, type, headers);
        };
    invoke(
        req, *svc, *ep, std::move(args),
        [reply, name = svc->name](Outcome o) { reply(gateway_outcome(name, std::move(o))); }, open);
}

}  // namespace platform::host
