// Outbound::fetch — the host table's http_fetch (rules in outbound.hpp), in steps: normalise the
// request (fetch_request.hpp), resolve its target (provider_target.hpp), then follow the hops
// (redirects.hpp), each decided by the guard (hop_guard.hpp) and exchanged through libcurl
// (curl_exchange.hpp). imap:// and imaps:// URLs are one IMAP session instead (imap_exchange.hpp).
#include <curl/curl.h>

#include <mutex>
#include <platform/host/outbound/outbound.hpp>

#include "fetch_request.hpp"
#include "fetch_state.hpp"
#include "imap_exchange.hpp"
#include "provider_target.hpp"
#include "redirects.hpp"
#include "smtp_relay.hpp"

namespace platform::host {

namespace {

using namespace outbound;

platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}

Reply run(const platform_http_request_t& req, const OutboundSettings& s) {
    Hop hop;
    if (auto refused = read_hop(req, hop)) return *refused;
    if (text(req.provider).empty() && is_imap_url(text(req.url)))
        return imap_exchange(req, hop, fetch_limits(req, s), s);
    Target target;
    if (auto refused = resolve_target(req, s, target)) return *refused;
    std::string error;
    bool denied = false;
    auto first = parse_url(target.url, &error, &denied);
    if (!first)
        return failure(denied ? PLATFORM_PERMISSION_DENIED : PLATFORM_INVALID_ARGUMENT, error);
    return follow_redirects(*first, std::move(hop), target, fetch_limits(req, s), s);
}

}  // namespace

Outbound::Outbound(OutboundSettings s) : settings_(std::move(s)) {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

platform_status_t Outbound::fetch(const platform_http_request_t* req,
                                  platform_http_response_fn done, void* user) const {
    if (req) return fetch(*req, done, user);
    static const std::string error = "request: is required";
    platform_http_response_t out{};
    out.struct_size = sizeof out;
    out.headers_json = {"{}", 2};
    out.error = view(error);
    if (done) done(user, &out);
    return PLATFORM_INVALID_ARGUMENT;
}

platform_http_request_t http_request(const std::string& method, const std::string& url,
                                     const std::string& headers_json, const std::string& body) {
    platform_http_request_t req{};
    req.struct_size = sizeof req;
    req.method = view(method);
    req.url = view(url);
    req.headers_json = view(headers_json);
    req.body = view(body);
    return req;
}

namespace {

platform_status_t answer(const Reply& r, platform_http_response_fn done, void* user) {
    if (done) {
        platform_http_response_t out{};
        out.struct_size = sizeof out;
        out.status = r.http;
        out.headers_json = view(r.headers);
        out.body = view(r.body);
        out.error = view(r.error);
        out.final_url = view(r.final_url);
        done(user, &out);
    }
    return r.status;
}

}  // namespace

platform_status_t Outbound::fetch(const platform_http_request_t& in, platform_http_response_fn done,
                                  void* user) const {
    return answer(run(read_request(in), settings_), done, user);
}

platform_status_t Outbound::relay_mail(const platform_http_request_t& in,
                                       const std::string& relay_url, const std::string& ehlo,
                                       platform_http_response_fn done, void* user) const {
    const platform_http_request_t req = read_request(in);
    Hop hop;
    if (auto refused = read_hop(req, hop)) return answer(*refused, done, user);
    if (!text(req.url).empty())
        return answer(failure(PLATFORM_INVALID_ARGUMENT,
                              "url: must be empty for the smtp provider (the relay is "
                              "PLATFORM_SMTP_RELAY)"),
                      done, user);
    return answer(
        outbound::relay_mail(relay_url, ehlo, hop, fetch_limits(req, settings_).timeout_ms), done,
        user);
}

}  // namespace platform::host
