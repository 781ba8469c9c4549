// Browser sessions and the protected-resource metadata (docs/identity.md "Browser sessions"):
//   POST /auth/login   {id|name, secret} (JSON or form) -> auth.createSession; sets the session
//                      cookie (HttpOnly, SameSite=Lax) and the CSRF cookie (SameSite=Strict)
//   POST /auth/logout  the session (cookie + X-CSRF-Token, or bearer) -> auth.deleteSession;
//                      clears both cookies
//   GET  /.well-known/oauth-protected-resource   RFC 9728 metadata for MCP and OAuth clients
#include <platform/host/core/names.hpp>
#include <platform/host/core/request_args.hpp>
#include <platform/host/core/status.hpp>
#include <platform/host/http/http_bodies.hpp>

#include "handlers.hpp"
#include "resolve.hpp"

namespace platform::host {

using nlohmann::json;

namespace {

std::string base_url(const HttpRequest& req) {
    std::string host = req.header("host");
    if (host.empty()) host = "localhost";
    return std::string(req.tls ? "https://" : "http://") + host;
}

std::string cookie_line(const std::string& name, const std::string& value, int64_t max_age,
                        bool http_only, const char* same_site, bool secure) {
    std::string c = name + "=" + value +
                    "; Path=/; Max-Age=" + std::to_string(max_age < 0 ? 0 : max_age) +
                    "; SameSite=" + same_site;
    if (http_only) c += "; HttpOnly";
    if (secure) c += "; Secure";
    return c;
}

std::string text(const json& j, std::initializer_list<const char*> keys) {
    for (const char* k : keys)
        if (j.contains(k) && j[k].is_string()) return j[k].get<std::string>();
    return "";
}

}  // namespace

bool Gateway::session_route(HttpRequest& req, const Reply& reply) {
    const std::string ns = request_namespace(req);
    if (req.path == "/.well-known/oauth-protected-resource") {
        if (req.method != "GET" && req.method != "HEAD")
            return reply(gateway_error(ns, 405, "use GET")), true;
        HttpResponse r;
        const std::string base = base_url(req);
        r.body =
            json{{"resource", base},
                 {"authorization_servers", json::array({base})},
                 {"bearer_methods_supported", json::array({"header"})},
                 {"resource_name", "Platform"}}
                .dump(-1, ' ', false, json::error_handler_t::replace);  // Host may hold any bytes
        return reply(std::move(r)), true;
    }
    const bool login = req.path == "/auth/login", logout = req.path == "/auth/logout";
    if (!login && !logout) return false;
    RouteRule rule{RouteRule::Lookup::fixed, RouteRule::Verbs::post_only,
                   login ? RouteRule::Args::query_and_body : RouteRule::Args::none};
    rule.not_allowed = req.path + " takes POST";
    rule.service = "auth";
    rule.endpoint = login ? "createSession" : "deleteSession";
    rule.unavailable =
        "browser sessions need the auth service (the profile's auth provider auth-local); this "
        "profile does not serve it";
    auto call = resolve(req, rule, runtime_, ns);
    if (auto* no = std::get_if<Refusal>(&call)) return reply(render(*no, rule.style)), true;
    auto& c = std::get<Resolved>(call);
    const bool secure = req.tls;
    const std::string name = c.service->name;
    invoke(
        req, *c.service, *c.endpoint, std::move(c.args), [reply, login, secure, name](Outcome o) {
            if (o.code != PLATFORM_OK) return reply(gateway_outcome(name, std::move(o)));
            HttpResponse r;
            if (!login) {
                r.headers.emplace_back("Set-Cookie",
                                       cookie_line(gw::kSessionCookie, "", 0, true, "Lax", secure));
                r.headers.emplace_back(
                    "Set-Cookie", cookie_line(gw::kCsrfCookie, "", 0, false, "Strict", secure));
                r.body = "{}";
                return reply(std::move(r));
            }
            json s = json::parse(o.body, nullptr, false);
            const std::string session = s.is_object() ? text(s, {"session", "token"}) : "";
            const std::string csrf = s.is_object() ? text(s, {"csrf_token", "csrf"}) : "";
            if (session.empty())
                return reply(gateway_error(name, 502, "auth.createSession answered no session"));
            int64_t max_age = 30 * 86400;
            if (s.contains("expires_in") && s["expires_in"].is_number_integer())
                max_age = s["expires_in"].get<int64_t>();
            r.headers.emplace_back("Set-Cookie", cookie_line(gw::kSessionCookie, session, max_age,
                                                             true, "Lax", secure));
            r.headers.emplace_back(
                "Set-Cookie", cookie_line(gw::kCsrfCookie, csrf, max_age, false, "Strict", secure));
            r.headers.emplace_back("Cache-Control", "no-store");
            r.body =
                json{{"account", s.value("account", json::object())}, {"csrf_token", csrf}}.dump();
            reply(std::move(r));
        });
    return true;
}

}  // namespace platform::host
