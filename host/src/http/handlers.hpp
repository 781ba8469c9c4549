// handlers.hpp — private to the gateway (host/src/http): helpers shared by gateway.cpp and the
// handler files (handler_api.cpp, handler_proxy.cpp, handler_event.cpp, handler_routes.cpp).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <platform/host/core/names.hpp>
#include <platform/host/http/gateway.hpp>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace platform::host {

// Routes declared by endpoints (http_path of plugins, metadata of registered services).
struct Gateway::Routes {
    struct Local {
        RoutePattern pattern;
        const ServiceEntry* service = nullptr;
        const Endpoint* endpoint = nullptr;
    };
    struct Remote {
        RoutePattern pattern;
        std::string service;               // full name
        std::vector<std::string> methods;  // upper case; empty = any
        std::vector<std::regex> hosts;     // empty = any
    };
    std::vector<Local> local;  // fixed once the plugins started

    // Registered services change at run time: rebuilt after a registry change (watch) and at
    // least every kRefresh, because a re-registration that only changes endpoints is silent.
    static constexpr std::chrono::seconds kRefresh{10};
    std::mutex m;
    std::shared_ptr<const std::vector<Remote>> remote;
    std::chrono::steady_clock::time_point built{};
    std::shared_ptr<std::atomic<bool>> dirty = std::make_shared<std::atomic<bool>>(true);
    uint64_t watch_id = 0;
};

namespace gw {

// "content-type" -> "Content-Type" (Go's CanonicalMIMEHeaderKey).
std::string canonical_header(std::string_view name);
// micro's Pair map {"Name": {"key": "Name", "values": [v]}} of request headers; Authorization,
// Cookie and Proxy-Authorization are left out unless `credentials`.
nlohmann::json header_pairs(const std::map<std::string, std::string>& headers, bool credentials);
// A query string or form body as decoded name -> values, in order ('+' is a space).
std::map<std::string, std::vector<std::string>> form_values(std::string_view text);
// {"k": {"key": "k", "values": [...]}} of a query string or form body.
nlohmann::json form_pairs(std::string_view text);
// "application/json; charset=utf-8" -> "application/json".
std::string media_type(const std::string& content_type);
// micro's api.Request of a request: method, path, header pairs (X-Forwarded-For with the peer's
// address appended), get, post (form bodies), body (any other body, raw) and url.
nlohmann::json api_request(const HttpRequest& req);
// The bearer token of the Authorization header, "" when none.
std::string bearer(const HttpRequest& req);
// The value of one cookie of the Cookie header, "" when absent.
std::string cookie(const HttpRequest& req, std::string_view name);
// The session cookie and the script-readable CSRF cookie (docs/identity.md "Browser sessions").
inline constexpr const char* kSessionCookie = "platform_session";
inline constexpr const char* kCsrfCookie = "platform_csrf";
// A random (version 4) UUID.
std::string uuid4();
// Percent-encodes everything but unreserved characters (for re-reading as a query value).
std::string percent_encode(std::string_view s);
// A header name or value fit to be written back (token name; no CR, LF or NUL in the value).
bool header_name_ok(std::string_view name);
bool header_value_ok(std::string_view value);
// Hop-by-hop headers (RFC 9110 §7.6.1) and those the server writes itself.
bool hop_by_hop(std::string_view lower_name);
// `value` when it is a well-formed Content-Type (type/subtype tokens, optional parameters, no
// CR/LF); otherwise `fallback`.
std::string writable_content_type(const std::string& value, const std::string& fallback);

// Reverse-proxies `req` to http://<address><path>?<query> (address "host:port" or an http(s)://
// base URL) and converts the answer; blocking, at most kForwardTimeout. Upstream failures become
// gateway errors with id `error_id`: 502, or 504 when the upstream did not answer in time.
inline constexpr long kForwardTimeoutMs = 30000;
inline constexpr size_t kMaxForwardResponse = 32u << 20;
HttpResponse forward_http(const HttpRequest& req, const std::string& address,
                          const std::string& error_id);

}  // namespace gw
}  // namespace platform::host
