#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>
#include <platform/host/core/metrics.hpp>
#include <platform/host/core/settings.hpp>
#include <platform/host/http/http_server.hpp>
#include <platform/host/http/trace_context.hpp>

#include "http_connection.hpp"
#include "http_wire.hpp"

namespace platform::host::front {

using nlohmann::json;

namespace {

using wire::error_response;

// GET /health: ready when every provider the profile names is up and every plugin it lists serves.
HttpResponse health(const PortState& port) {
    const Runtime& rt = *port.runtime;
    json providers = json::object();
    bool ready = true;
    for (const auto& [kind, choice] : rt.profile().providers) {
        Plugin* p = rt.provider(kind);
        const bool up = p && p->instance;
        ready = ready && up;
        providers[kind] = {{"plugin", choice.plugin}, {"up", up}};
    }
    size_t loaded = rt.plugins().size(), serving = 0;
    json missing = json::array();
    for (const auto& p : rt.plugins())
        if (p->instance && p->kind == PLATFORM_KIND_SERVICE) ++serving;
    if (!rt.profile().all_plugins)
        for (const auto& id : rt.profile().plugins) {
            bool up = false;
            for (const auto& p : rt.plugins()) up = up || (p->id == id && p->instance);
            if (!up) missing.push_back(id);
        }
    ready = ready && missing.empty();
    const bool draining = port.server->draining;
    HttpResponse r;
    r.status = draining || !ready ? 503 : 200;
    json body{{"status", draining ? "draining"
                         : ready  ? "ok"
                                  : "unavailable"},
              {"plugins", {{"loaded", loaded}, {"serving", serving}}},
              {"providers", providers}};
    if (!missing.empty()) body["missing"] = missing;
    r.body = body.dump();
    return r;
}

// A refusal before the request is looked at: the framing's error, a connection over
// max_connections, the drain, the rate limit. True when it answered.
bool refused(const std::shared_ptr<Exchange>& ex, const Pending& p, const HttpRequest& req) {
    const Connection& conn = *ex->conn;
    const PortState& port = *conn.port;
    const std::string& ns = port.runtime->settings().ns;
    if (p.error_status) {
        respond(ex, error_response(ns, p.error_status, p.error_detail));
        return true;
    }
    if (conn.refused) {
        ex->close = true;
        respond(ex, error_response(ns, 503,
                                   "too many connections (http.max_connections is " +
                                       std::to_string(port.settings.max_connections) + ")"));
        return true;
    }
    if (port.server->draining) {
        ex->close = true;
        auto r = error_response(ns, 503, "the server is shutting down");
        r.headers.emplace_back("Retry-After", "1");
        respond(ex, r);
        return true;
    }
    const bool monitoring = port.api && (req.path == "/health" || req.path == "/metrics");
    if (port.limiter && !monitoring) {
        auto d = port.limiter->check(conn.remote);
        if (!d.allowed) {
            port.server->metrics->rate_limited();
            auto r =
                error_response(ns, 429,
                               "rate limit exceeded for " + conn.remote + ": " +
                                   std::to_string(port.settings.rate_limit.requests_per_second) +
                                   " requests per second; retry after " +
                                   std::to_string(d.retry_after_seconds) + " s");
            r.headers.emplace_back("Retry-After", std::to_string(d.retry_after_seconds));
            respond(ex, r);
            return true;
        }
    }
    return false;
}

// GET `path` only: anything else is 405 with Allow: GET. True when it answered.
bool not_get(const std::shared_ptr<Exchange>& ex, const HttpRequest& req, const std::string& what) {
    if (req.method == "GET" || req.method == "HEAD") return false;
    const std::string& ns = ex->conn->port->runtime->settings().ns;
    auto r = error_response(
        ns, 405, "GET " + req.path + " answers " + what + "; " + req.method + " is not allowed");
    r.headers.emplace_back("Allow", "GET");
    respond(ex, r);
    return true;
}

// What the front answers itself: a CORS preflight, and on the api port /metrics and /health.
// True when it answered.
bool answered_here(const std::shared_ptr<Exchange>& ex, const HttpRequest& req) {
    const PortState& port = *ex->conn->port;
    if (port.settings.cors.enabled && req.method == "OPTIONS") {
        HttpResponse r;
        r.content_type.clear();
        respond(ex, r);
        return true;
    }
    if (port.api && req.path == "/metrics") {
        if (not_get(ex, req, "the Prometheus metrics")) return true;
        HttpResponse r;
        r.content_type = "text/plain; version=0.0.4; charset=utf-8";
        r.body = port.server->metrics->exposition();
        respond(ex, r);
        return true;
    }
    if (port.api && req.path == "/health") {
        if (not_get(ex, req, "readiness")) return true;
        respond(ex, health(port));
        return true;
    }
    return false;
}

// The exchange of `p`: its connection's address and TLS on the request (call metadata
// `platform-tls: true` is set only here, never taken from the client).
std::shared_ptr<Exchange> open_exchange(const std::shared_ptr<Connection>& conn, Pending& p) {
    auto ex = std::make_shared<Exchange>();
    ex->conn = conn;
    ex->version = p.version;
    ex->close = p.close;
    ex->start = p.arrived;
    ex->token = std::move(p.token);
    HttpRequest& req = p.req;
    req.remote = conn->remote;
    req.tls = conn->tls;
    req.headers.erase("platform-tls");
    if (conn->tls) req.headers["platform-tls"] = "true";
    ex->method = req.method;
    ex->path = req.path;
    return ex;
}

// The request's traceparent: the client's when valid, else a new one (its tracestate dropped).
std::string adopt_traceparent(HttpRequest& req) {
    auto given = req.headers.find("traceparent");
    std::string_view v = given == req.headers.end() ? std::string_view() : given->second;
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
    std::string tp;
    if (valid_traceparent(v)) {
        tp.assign(v);
    } else {
        tp = new_traceparent();
        req.headers.erase("tracestate");  // it belongs to the trace we did not accept
    }
    if (given != req.headers.end())
        given->second = tp;
    else
        req.headers.emplace("traceparent", tp);
    return tp;
}

}  // namespace

// The request id is made here, once for the whole request path: the gateway, plugins (call
// metadata), the answer's X-Request-Id and the access log all carry this one.
void serve(const std::shared_ptr<Connection>& conn, Pending p) {
    auto ex = open_exchange(conn, p);
    HttpRequest& req = p.req;
    static const std::string none;
    auto id = req.headers.find("x-request-id");
    ex->request_id = request_id_for(id == req.headers.end() ? none : id->second);
    if (id != req.headers.end())
        id->second = ex->request_id;
    else
        req.headers.emplace("x-request-id", ex->request_id);
    ex->traceparent = adopt_traceparent(req);
    ex->origin = req.header("origin");
    ex->user_agent = req.header("user-agent");
    if (refused(ex, p, req) || answered_here(ex, req)) return;
    try {
        conn->port->gateway->handle(
            std::move(req), [ex](HttpResponse r) { respond(ex, std::move(r)); }, stream_opener(ex),
            websocket_opener(ex), relay_opener(ex));
    } catch (const std::exception& e) {
        spdlog::error("gateway failed on {} {}: {}", ex->method, ex->path, e.what());
        const std::string& ns = conn->port->runtime->settings().ns;
        respond(ex, error_response(ns, 500, "internal error"));
    }
}

}  // namespace platform::host::front
