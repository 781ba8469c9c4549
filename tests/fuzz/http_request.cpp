// Fuzz target http_request: raw bytes of one connection, read the way the api port reads them.
//
// The input is what a client sends: one or more pipelined HTTP/1.1 requests. Each is framed
// (frame_request, http_framing.hpp), parsed as the server parses it (parse_framed_request,
// request_parser.hpp: the gateway's HttpRequest) and handled by a real Gateway
// (fuzz_host.hpp) — path resolution (names.hpp), declared routes, the catalogue and rpc
// handlers, the payload builder (request_args.hpp: query, JSON and form bodies), admission and
// schema validation — up to a mirror service's echo. At most kMaxRequests requests per input; a
// framing or parse error ends the connection, as in the server. Each path also goes through every
// handler's resolver and through route templates (names.hpp), compiled from it and fixed ones.
//
// The gateway handler is rpc, or the one an `X-Fuzz-Handler: api|event|web` header names (each
// its own host: fuzz_host.hpp).
//
// Findings: a crash or sanitizer report; an exception out of the gateway; a request never
// answered or answered twice; a 5xx other than the ones the gateway gives on purpose (501 for a
// WebSocket upgrade under the web handler, 504 when the request's own Timeout ran out, 503 on
// /auth/: browser sessions need auth-local, not this host's auth-noop); a JSON answer that is not
// valid JSON.
#include <nlohmann/json.hpp>
#include <platform/host/core/names.hpp>
#include <platform/host/http/http_framing.hpp>
#include <platform/host/http/http_server.hpp>

#include "fuzz_host.hpp"
#include "fuzz_support.hpp"

namespace {

using platform::host::Frame;
using platform::host::FrameLimits;
using platform::host::HttpRequest;
using platform::host::HttpResponse;

constexpr int kMaxRequests = 4;

std::string handler_of(const HttpRequest& req) {
    const std::string h = req.header("x-fuzz-handler");
    return h == "api" || h == "event" || h == "web" ? h : "rpc";
}

// A 5xx the gateway answers on purpose for this request.
bool expected_server_error(const HttpRequest& req, const std::string& handler, int status) {
    if (status == 501) return handler == "web";  // WebSocket upgrade: not available
    if (status == 504) return !req.header("timeout").empty();
    // Browser sessions need auth-local; this host's auth-noop does not serve them.
    if (status == 503) return req.path.rfind("/auth/", 0) == 0;
    return false;
}

// The other handlers' resolvers and route templates (names.hpp) on the same path: the gateway
// reaches them only for registered services, which this host has none of.
void resolve(const std::string& path) {
    (void)platform::host::resolve_rpc_path(path);
    (void)platform::host::resolve_proxy_path(path);
    (void)platform::host::resolve_web_path(path);
    (void)platform::host::resolve_vpath("go.micro.api", path);
    (void)platform::host::resolve_event_path("go.core.api", path);
    if (!path.empty() && path[0] == '/')  // a template (a `^...$` one would fuzz std::regex)
        if (auto pattern = platform::host::RoutePattern::compile(path)) (void)pattern->match(path);
    static const auto patterns = [] {
        std::vector<platform::host::RoutePattern> out;
        for (const char* t :
             {"/notes/{title}", "/v1/{service}/{path=**}", "/a/*/b/{x=c/*}", "/files/**"})
            out.push_back(*platform::host::RoutePattern::compile(t));
        return out;
    }();
    for (const auto& p : patterns) (void)p.match(path);
}

void handle(HttpRequest req) {
    resolve(req.path);
    const std::string handler = handler_of(req);
    const std::string what =
        req.method + " " + req.path + (req.query.empty() ? "" : "?" + req.query);
    fuzz::Exchange exchange;
    fuzz::FuzzHost::get(handler).gateway().handle(req, exchange.reply(), exchange.open());
    const HttpResponse r = exchange.wait(what);
    if (fuzz::verbose())
        std::fprintf(stderr, "%s (%s) -> %d %s\n", what.c_str(), handler.c_str(), r.status,
                     r.body.substr(0, 300).c_str());
    FUZZ_CHECK(r.status >= 100 && r.status <= 599, what + ": status " + std::to_string(r.status));
    FUZZ_CHECK(r.status < 500 || expected_server_error(req, handler, r.status),
               what + " (" + handler + " handler): " + std::to_string(r.status) + " " + r.body);
    if (r.content_type == "application/json" && !r.body.empty())
        FUZZ_CHECK(nlohmann::json::accept(r.body), what + ": answer is not JSON: " + r.body);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view in = fuzz::text(data, size);
    FrameLimits limits;  // the profile defaults
    for (int n = 0; n < kMaxRequests && !in.empty(); ++n) {
        const Frame f = platform::host::frame_request(in, limits);
        if (!f.complete()) break;  // incomplete: the server waits; an error: answered, closed
        const std::string_view framed = in.substr(f.skip, f.length);
        in.remove_prefix(f.skip + f.length);
        auto parsed = platform::host::parse_framed_request(framed, f, limits.max_request_bytes);
        if (parsed.error_status) {
            FUZZ_CHECK(parsed.error_status >= 400 && parsed.error_status <= 599,
                       "parse error status " + std::to_string(parsed.error_status));
            break;
        }
        handle(std::move(parsed.req));
        if (parsed.close) break;
    }
    return 0;
}
