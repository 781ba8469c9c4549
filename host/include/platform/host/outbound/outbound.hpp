// platform/host/outbound/outbound.hpp — the host's outbound HTTP client behind the host table's http_fetch
// (plugins make no network calls of their own). libcurl stays inside host/src/outbound/.
//
// Every request goes through one decision per hop (the first URL and every redirect):
//   - URL: http and https only; no userinfo, no backslashes, no percent-encoded or non-ASCII host.
//     IPv4 in every form inet_aton accepts (2130706433, 0x7f.1, 017700000001, 127.1) and IPv6
//     literals ([::1], [::ffff:127.0.0.1]) are normalised to their canonical text before any check.
//   - Trusted hop: the request is an operator URL (PLATFORM_HTTP_OPERATOR_URL) or a provider URL,
//     and the hop's host:port matches `outbound.allow` ("host:port", "host:*", "*:port"; host as
//     written in the URL, normalised). The SSRF guard is skipped; curl resolves the name itself.
//   - Otherwise the SSRF guard: refuse the cloud metadata names, resolve the host once
//     (getaddrinfo), refuse when ANY address is special (refused_address), then connect only to
//     the checked addresses (CURLOPT_RESOLVE pins host:port), so DNS rebinding cannot swap them.
//     For an operator or provider URL the refusal adds that such targets belong in outbound.allow.
//     So an operator/provider upstream on a public address works without an allow-list entry, and
//     one on loopback/private addresses works only when allow-listed.
//   - A user URL whose host:port matches `outbound.allow_user` is trusted the same way (tests
//     serve their fixture pages from loopback this way; no shipped profile sets it).
//   - Redirects are followed here (curl's FOLLOWLOCATION is off), at most max_redirects, each hop
//     re-decided as above; 303 (and 301/302 after POST) become GET without a body; credentials
//     (the provider key, Authorization, Cookie) are dropped when the origin changes.
//     PLATFORM_HTTP_NO_REDIRECTS returns the 3xx as it is.
//   - Provider requests (`provider` set): `url` is a path (or empty) joined to
//     providers.<name>.base_url; a missing base_url, or a missing api_key when key_required, is
//     UNAVAILABLE naming the setting. The key goes in api_key_header: "X-Api-Key" sends
//     `X-Api-Key: <key>`, "Authorization: Bearer" sends `Authorization: Bearer <key>`, "?appid"
//     adds the query parameter appid=<key>; empty sends nothing.
//   - Limits: the request's timeout_ms / max_response_bytes, or these settings when 0. The
//     timeout covers the whole fetch, redirects included. Bodies are decoded (gzip...) and the
//     cap applies to the decoded bytes. Proxies from the environment are never used.
//   - imap:// and imaps:// URLs are one IMAP session instead (the login as Basic authorization,
//     IMAP commands as the body, the server's transcript as the answer; the same guard): see
//     host/src/outbound/imap_exchange.hpp.
// Results: OK with any HTTP status; PERMISSION_DENIED (scheme, userinfo, guard, allow-list);
// INVALID_ARGUMENT (malformed URL, method or headers); UNAVAILABLE (provider not configured);
// TIMEOUT; PAYLOAD_TOO_LARGE; BAD_GATEWAY (DNS, connect, TLS, too many redirects). The response's
// `error` names the rule or the setting. `done` is called exactly once, before fetch returns.
//
// The provider name "smtp" is reserved (kSmtpProvider): such a request is not HTTP but one letter
// for the operator's SMTP relay, sent by relay_mail (rules in src/outbound/smtp_relay.hpp). The
// host table hands it there only for the mail service's plugin; everyone else is refused.
//
// Thread-safe: fetch is const and uses one curl easy handle per hop.
#pragma once

#include <platform/abi.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace platform::host {

struct ProviderSettings {
    std::string base_url, api_key;
    std::string api_key_header;  // "Authorization: Bearer", "X-Api-Key", "?appid"; empty = none
    bool key_required = false;
    // When set (> 0), every request to this provider has this timeout, whatever the plugin asked:
    // the operator knows how far away the provider is (a large download, a slow link).
    int32_t timeout_ms = 0;
};

// The profile's `outbound:` section.
struct OutboundSettings {
    std::vector<std::string> allow;  // operator allow-list: host:port, host:*, *:port
    // User URLs (web/fetch, browser...) to these host:port skip the SSRF guard. For tests' loopback
    // fixtures and closed networks only; empty in every shipped profile.
    std::vector<std::string> allow_user;
    std::map<std::string, ProviderSettings> providers;  // providers.<name>
    int32_t timeout_ms = 30000;                         // default when a request gives 0
    uint64_t max_response_bytes = 10 << 20;             // default when a request gives 0
    int max_redirects = 5;
    std::string user_agent = "platform/0.1";
};

// An absolute http(s) URL, normalised. host is lower case, or the canonical text of an IP
// address (IPv6 without brackets); target is path + query, starting with '/'; no fragment.
struct ParsedUrl {
    std::string scheme, host, target;
    int port = 0;
    bool ip = false, ipv6 = false;
    std::string host_for_url() const { return ipv6 ? "[" + host + "]" : host; }
    std::string origin() const;  // scheme://host[:port], the port only when not the default
    std::string str() const { return origin() + target; }
};

// Parses and normalises `url`; nullopt with *error set ("scheme not allowed: file", ...).
// *denied is set when the failure is a refusal (scheme, userinfo) rather than a malformed URL.
std::optional<ParsedUrl> parse_url(const std::string& url, std::string* error,
                                   bool* denied = nullptr);

// Parses an IPv4 host in any inet_aton form (dotted, 1-3 parts, decimal, octal, hex) into its
// dotted-quad text; nullopt when `host` is not such a number.
std::optional<std::string> parse_ipv4(const std::string& host);

// Why a connection to this address is refused ("refused: 10.0.0.5 is a private address
// (RFC 1918)"), or nullopt for a public address. `ip` is IPv4 dotted-quad or IPv6 text;
// something that is neither is refused as "not an IP address".
std::optional<std::string> refused_address(const std::string& ip);

// Why a host name is refused before resolving (the cloud metadata names), or nullopt.
std::optional<std::string> refused_name(const std::string& host);

// A problem with an allow-list entry ("expected host:port, host:* or *:port"), or nullopt.
std::optional<std::string> allow_entry_problem(const std::string& entry);

// True when host:port (normalised as by parse_url) matches an entry of `allow`.
bool allow_listed(const std::vector<std::string>& allow, const std::string& host, int port);

// A request for Outbound::fetch (struct_size set) whose method, url, headers_json and body view
// the given strings, which must outlive it; every other field is zero.
platform_http_request_t http_request(const std::string& method, const std::string& url,
                                     const std::string& headers_json, const std::string& body);

// The provider name of http_fetch that means "a letter for the SMTP relay".
inline constexpr const char* kSmtpProvider = "smtp";

class Outbound {
public:
    explicit Outbound(OutboundSettings s);

    // The host table's http_fetch (abi.h). Reads `req` up to its struct_size.
    platform_status_t fetch(const platform_http_request_t& req, platform_http_response_fn done,
                            void* user) const;
    // The same for the table's pointer: NULL is INVALID_ARGUMENT (and `done` still runs once).
    platform_status_t fetch(const platform_http_request_t* req, platform_http_response_fn done,
                            void* user) const;

    // The reserved provider "smtp": `req` (read up to its struct_size) carries one letter, sent
    // to `relay_url` (PLATFORM_SMTP_RELAY with its credentials; empty = none: answers 503) with
    // EHLO `ehlo` (the mail domain). `done` is called exactly once, before this returns.
    platform_status_t relay_mail(const platform_http_request_t& req, const std::string& relay_url,
                                 const std::string& ehlo, platform_http_response_fn done,
                                 void* user) const;

    const OutboundSettings& settings() const { return settings_; }

private:
    OutboundSettings settings_;
};

}  // namespace platform::host
