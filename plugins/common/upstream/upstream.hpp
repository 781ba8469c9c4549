// upstream.hpp — one public data API as a service reads it: the fetch through the host's client,
// the per-provider cache in the plugin's store, and the mapping of every way it can fail to one
// status with a message that says what to do. Every external-data service (weather, places, maps,
// transit, flights, hazards, food, prayer, islam) calls its upstreams through this and nothing
// else, so the rules below hold for all of them:
//
//   const common::upstream::Provider kOpenMeteo{"open-meteo", "Open-Meteo",
//                                               "https://api.open-meteo.com", 10 * 60 * 1000};
//   common::upstream::Upstream meteo(host_, kOpenMeteo);
//   json body = meteo.get_json("/v1/forecast" + Query().num("latitude", lat).text());
//   return meteo.parse(body, [&](const json& j) { return forecast_from(j); });
//
// Where it goes. `Provider::name` is the profile's `outbound.providers.<name>`: its base_url (and
// api_key, placed as api_key_header says) are the operator's; the plugin never sees the key. The
// host applies its timeouts, size cap and allow-list (a provider on loopback or a private address
// must be on outbound.allow — how tests reach their fake upstreams).
//
// What fails how (the status the caller of the service method sees):
//   503 unavailable        providers.<name>.base_url not set ("... is not set; Open-Meteo's public
//                          API is https://api.open-meteo.com"); a keyed provider's key missing or
//                          refused (401/403 from the upstream: "providers.<name>.api_key: <title>
//                          refused the key (401)"); the upstream rate-limiting (429) or down (503);
//                          the host's allow-list refusing the address (names outbound.allow).
//   502 bad_gateway        the upstream answered 5xx (other than 503), a 4xx other than those
//                          above and those in Options::pass, a body over the size cap
//                          (Options::max_bytes), or a body the parser cannot read:
//                          "<title> answered a malformed body: <what>" — never a guess.
//   504 deadline_exceeded  the upstream did not answer within the timeout ("<title> did not answer
//                          in time"): Provider::timeout_ms, or the profile's outbound.timeout_ms.
// Statuses in Options::pass (404 for "no such barcode", say) come back to the caller as they are.
//
// The cache. A 2xx answer is kept in the plugin's store under "upstream:<name>:<sha-256 of method,
// path and body>" for Provider::ttl_ms, or for the upstream's Cache-Control max-age when it sends
// one (no-store and no-cache keep nothing); kForever keeps it until the store is cleared (map tiles).
// A fresh entry answers without a request. Entries expire through the store's TTL, so a cache never
// outgrows what its upstream answered inside one TTL.
//
// Threads: an Upstream is a view over the Host (copyable, no state of its own); call it from any
// handler thread. Each call blocks for at most the provider's timeout.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <platform/sdk/host.hpp>
#include <string>
#include <vector>

namespace common::upstream {

// Cache lifetimes: none, and for ever (until the store is cleared).
inline constexpr int64_t kNoCache = 0;
inline constexpr int64_t kForever = INT64_MAX;

// One upstream API. Constants, one per upstream, at the top of the service that reads it.
struct Provider {
    std::string name;         // outbound.providers.<name> in the profile
    std::string title;        // how messages name it: "Open-Meteo", "USGS"
    std::string public_base;  // its public base URL, offered by the 503 when base_url is unset
    int64_t ttl_ms = 10 * 60 * 1000;  // cache lifetime without Cache-Control; kNoCache, kForever
    bool keyed = false;               // needs providers.<name>.api_key (named by its 503s)
    int32_t timeout_ms = 0;           // 0: the profile's outbound.timeout_ms (tests shorten it)
};

// One request beyond a plain GET.
struct Options {
    std::string method = "GET";
    std::string body;                                   // sent as is (POST)
    std::string content_type;                           // of `body`
    nlohmann::json headers = nlohmann::json::object();  // extra request headers
    std::vector<int> pass;                              // upstream statuses returned, not failed
    uint64_t max_bytes = 0;  // a larger answer is the 502; 0: outbound.max_response_bytes (10 MiB)
};

// An answer: the upstream's status (2xx, or one of Options::pass), its body and content type, and
// whether it came from the cache.
struct Answer {
    int status = 200;
    std::string body;
    std::string content_type;
    bool cached = false;
};

// A parser's complaint about an upstream body: Upstream::parse turns it (and nlohmann's type and
// out-of-range errors) into the 502 "<title> answered a malformed body: <what>".
struct Malformed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Upstream {
public:
    Upstream(const platform::Host& host, Provider provider);

    const Provider& provider() const { return p_; }

    // `path` (with its query, from Query below) under the provider's base URL, from the cache
    // when fresh. Throws platform::Error as the table above says.
    Answer fetch(const std::string& path, const Options& options = {}) const;
    // fetch(), then the body as JSON (a body that is not JSON is the 502).
    nlohmann::json get_json(const std::string& path, const Options& options = {}) const;

    // Runs `parser` over an upstream body; Malformed and nlohmann::json errors become the 502
    // naming this upstream. platform::Error passes through (a parser may answer 404 itself).
    template <class F>
    auto parse(const nlohmann::json& body, F&& parser) const -> decltype(parser(body)) {
        try {
            return parser(body);
        } catch (const Malformed& e) {
            throw malformed(e.what());
        } catch (const nlohmann::json::exception& e) {
            throw malformed(e.what());
        }
    }

    // Whether `path` (GET) is in the cache and fresh, without fetching it (maps/area's count).
    bool held(const std::string& path) const;

    // The 502 for a body this upstream should not have sent.
    platform::Error malformed(const std::string& what) const;

private:
    std::string cache_key(const std::string& path, const Options& o) const;

    const platform::Host& host_;
    Provider p_;
};

// A query string built argument by argument, each value percent-encoded (RFC 3986 unreserved
// characters kept): Query().num("latitude", 51.5).str("timezone", "auto").text() ==
// "?latitude=51.5&timezone=auto". Numbers are written in the shortest form that reads back
// exactly; an empty Query's text is "".
class Query {
public:
    Query& str(const std::string& name, const std::string& value);
    Query& num(const std::string& name, double value);
    Query& integer(const std::string& name, int64_t value);
    std::string text() const { return q_; }

private:
    std::string q_;
};

// Members a parser copies as they are: `o[name]` when it is a string (a number), else null —
// absent, null and a value of another type all read as "the upstream did not say".
inline nlohmann::json string_or_null(const nlohmann::json& o, const char* name) {
    auto it = o.is_object() ? o.find(name) : o.end();
    return it != o.end() && it->is_string() ? *it : nlohmann::json(nullptr);
}
inline nlohmann::json number_or_null(const nlohmann::json& o, const char* name) {
    auto it = o.is_object() ? o.find(name) : o.end();
    return it != o.end() && it->is_number() ? *it : nlohmann::json(nullptr);
}

// Text a parser copies: `o[name]` when it is a string, without trailing spaces and line ends;
// null when absent, not a string, or nothing is left (upstreams write "" for "unknown").
inline nlohmann::json text_or_null(const nlohmann::json& o, const char* name) {
    auto it = o.is_object() ? o.find(name) : o.end();
    if (it == o.end() || !it->is_string()) return nullptr;
    std::string t = it->get<std::string>();
    while (!t.empty() && (t.back() == ' ' || t.back() == '\n' || t.back() == '\r')) t.pop_back();
    return t.empty() ? nlohmann::json(nullptr) : nlohmann::json(t);
}

// `value` percent-encoded for a URL path segment or query value (platform::percent_encode).
std::string encode(const std::string& value);

}  // namespace common::upstream
