// Outbound::fetch — the host table's http_fetch over libcurl (rules in outbound.hpp).
#include <curl/curl.h>
#include <netdb.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <platform/host/outbound/outbound.hpp>
#include <platform/sdk/text.hpp>
#include <set>

namespace platform::host {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string str(platform_str_t s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}
platform_str_t view(const std::string& s) {
    return {s.data(), s.size()};
}
using platform::lower;
std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

struct Reply {
    platform_status_t status = PLATFORM_OK;
    int32_t http = 0;
    std::string headers = "{}", body, error, final_url;
};

Reply failure(platform_status_t status, std::string error, std::string final_url = {}) {
    Reply r;
    r.status = status;
    r.error = std::move(error);
    r.final_url = std::move(final_url);
    return r;
}

// One hop's decision: where curl may connect. Empty pins = let curl resolve (trusted or literal).
struct Decision {
    platform_status_t status = PLATFORM_OK;
    std::string error;
    std::vector<std::string> pins;
};

Decision decide(const ParsedUrl& u, bool operator_kind, const OutboundSettings& s) {
    Decision d;
    if (operator_kind && allow_listed(s.allow, u.host, u.port)) return d;
    auto refuse = [&](std::string why) {
        d.status = PLATFORM_PERMISSION_DENIED;
        d.error = std::move(why);
        if (operator_kind)
            d.error += "; an operator upstream there must be listed in outbound.allow (" +
                       u.host_for_url() + ":" + std::to_string(u.port) + ")";
        return d;
    };
    if (u.ip) {
        if (auto why = refused_address(u.host)) return refuse(*why);
        return d;
    }
    if (auto why = refused_name(u.host)) return refuse(*why);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    int rc = getaddrinfo(u.host.c_str(), nullptr, &hints, &res);
    if (rc != 0 || !res) {
        d.status = PLATFORM_BAD_GATEWAY;
        d.error = "could not resolve " + u.host + ": " + gai_strerror(rc);
        return d;
    }
    std::unique_ptr<addrinfo, void (*)(addrinfo*)> guard(res, freeaddrinfo);
    std::set<std::string> seen;
    for (addrinfo* ai = res; ai; ai = ai->ai_next) {
        char buf[NI_MAXHOST];
        if (getnameinfo(ai->ai_addr, ai->ai_addrlen, buf, sizeof buf, nullptr, 0, NI_NUMERICHOST) !=
            0)
            continue;
        std::string ip = buf;
        ip = ip.substr(0, ip.find('%'));  // a scope id; such addresses are link-local and refused
        if (!seen.insert(ip).second) continue;
        if (auto why = refused_address(ip))
            return refuse("refused: " + u.host + " resolves to " + ip + ", " +
                          why->substr(why->find(" is ") + 4));
        d.pins.push_back(ip.find(':') != std::string::npos ? "[" + ip + "]" : ip);
    }
    if (d.pins.empty()) {
        d.status = PLATFORM_BAD_GATEWAY;
        d.error = "could not resolve " + u.host + ": no addresses";
    }
    return d;
}

struct Transfer {
    std::string body;
    uint64_t cap = 0;
    bool over = false;
    std::map<std::string, std::string> headers;
};

size_t on_body(char* data, size_t size, size_t n, void* user) {
    auto* t = static_cast<Transfer*>(user);
    size_t len = size * n;
    if (t->body.size() + len > t->cap) {
        t->over = true;
        return 0;
    }
    t->body.append(data, len);
    return len;
}

size_t on_header(char* data, size_t size, size_t n, void* user) {
    auto* t = static_cast<Transfer*>(user);
    std::string line(data, size * n);
    if (line.rfind("HTTP/", 0) == 0) {
        t->headers.clear();  // a new response (100 Continue, then the real one)
    } else if (auto colon = line.find(':'); colon != std::string::npos) {
        std::string name = lower(trim(line.substr(0, colon))), value = trim(line.substr(colon + 1));
        auto [it, fresh] = t->headers.emplace(name, value);
        if (!fresh) it->second += ", " + value;
    }
    return size * n;
}

struct Slist {
    curl_slist* list = nullptr;
    ~Slist() { curl_slist_free_all(list); }
    void add(const std::string& s) { list = curl_slist_append(list, s.c_str()); }
};

struct Hop {
    std::string method, body;
    std::vector<std::pair<std::string, std::string>> headers;
};

// Validates headers_json: an object of strings with token names and single-line values.
platform_status_t read_headers(const std::string& text, Hop& hop, std::string& error) {
    if (text.empty()) return PLATFORM_OK;
    json h = json::parse(text, nullptr, false);
    if (!h.is_object()) {
        error = "headers: must be a JSON object of strings";
        return PLATFORM_INVALID_ARGUMENT;
    }
    static const std::string token_chars = "!#$%&'*+-.^_`|~";
    for (const auto& [name, value] : h.items()) {
        bool ok = !name.empty();
        for (char c : name)
            ok = ok && (std::isalnum(static_cast<unsigned char>(c)) ||
                        token_chars.find(c) != std::string::npos);
        if (!ok || !value.is_string()) {
            error = "headers: '" + name + "' must be a header name with a string value";
            return PLATFORM_INVALID_ARGUMENT;
        }
        const std::string v = value.get<std::string>();
        if (v.find_first_of(std::string("\r\n\0", 3)) != std::string::npos) {
            error = "headers: '" + name + "' must not contain line breaks";
            return PLATFORM_INVALID_ARGUMENT;
        }
        const std::string l = lower(name);
        if (l == "host" || l == "content-length" || l == "transfer-encoding" || l == "connection") {
            error = "headers: '" + name + "' is set by the host's client";
            return PLATFORM_INVALID_ARGUMENT;
        }
        hop.headers.emplace_back(name, v);
    }
    return PLATFORM_OK;
}

bool is_credential(const std::string& name) {
    const std::string l = lower(name);
    return l == "authorization" || l == "cookie" || l == "proxy-authorization";
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

platform_status_t Outbound::fetch(const platform_http_request_t& in, platform_http_response_fn done,
                                  void* user) const {
    platform_http_request_t req{};  // fields past an older plugin's struct_size read as zeros
    req.struct_size = sizeof req;
#define PLATFORM_READ(field) \
    if (PLATFORM_HAS_FIELD(platform_http_request_t, &in, field)) req.field = in.field
    PLATFORM_READ(method);
    PLATFORM_READ(url);
    PLATFORM_READ(headers_json);
    PLATFORM_READ(body);
    PLATFORM_READ(provider);
    PLATFORM_READ(timeout_ms);
    PLATFORM_READ(max_response_bytes);
    PLATFORM_READ(flags);
#undef PLATFORM_READ

    auto run = [&]() -> Reply {
        Hop hop;
        hop.method = str(req.method);
        if (hop.method.empty()) hop.method = "GET";
        for (auto& c : hop.method) {
            if (!std::isalpha(static_cast<unsigned char>(c)))
                return failure(PLATFORM_INVALID_ARGUMENT,
                               "method: must be an HTTP method such as GET or POST");
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        hop.body = str(req.body);
        std::string error;
        if (read_headers(str(req.headers_json), hop, error) != PLATFORM_OK)
            return failure(PLATFORM_INVALID_ARGUMENT, error);

        // The first URL: absolute, or a path under a provider's base URL.
        std::string url = str(req.url);
        const std::string provider = str(req.provider);
        const bool operator_kind = (req.flags & PLATFORM_HTTP_OPERATOR_URL) || !provider.empty();
        std::string key_header;  // "Name: value", sent to the first origin only
        if (!provider.empty()) {
            const std::string p = "providers." + provider;
            auto it = settings_.providers.find(provider);
            if (it == settings_.providers.end() || it->second.base_url.empty())
                return failure(PLATFORM_UNAVAILABLE, p + ".base_url is not set");
            const ProviderSettings& ps = it->second;
            if (ps.key_required && ps.api_key.empty())
                return failure(PLATFORM_UNAVAILABLE, p + ".api_key is not set");
            if (url.find("://") != std::string::npos || url.rfind("//", 0) == 0)
                return failure(PLATFORM_INVALID_ARGUMENT,
                               "url: must be a path under " + p + ".base_url, not an absolute URL");
            std::string base = ps.base_url;
            while (!base.empty() && base.back() == '/') base.pop_back();
            if (!url.empty() && url[0] != '?') {
                size_t k = url.find_first_not_of('/');
                url = "/" + (k == std::string::npos ? std::string() : url.substr(k));
            }
            url = base + url;
            if (!ps.api_key.empty() && !ps.api_key_header.empty()) {
                if (ps.api_key_header[0] == '?') {
                    char* enc = curl_easy_escape(nullptr, ps.api_key.c_str(),
                                                 static_cast<int>(ps.api_key.size()));
                    url += (url.find('?') == std::string::npos ? "?" : "&") +
                           ps.api_key_header.substr(1) + "=" + enc;
                    curl_free(enc);
                } else if (auto colon = ps.api_key_header.find(':'); colon != std::string::npos) {
                    std::string prefix = trim(ps.api_key_header.substr(colon + 1));
                    key_header = trim(ps.api_key_header.substr(0, colon)) + ": " +
                                 (prefix.empty() ? "" : prefix + " ") + ps.api_key;
                } else {
                    key_header = trim(ps.api_key_header) + ": " + ps.api_key;
                }
            }
        }
        bool denied = false;
        auto parsed = parse_url(url, &error, &denied);
        if (!parsed)
            return failure(denied ? PLATFORM_PERMISSION_DENIED : PLATFORM_INVALID_ARGUMENT, error);
        ParsedUrl u = *parsed;
        const std::string first_origin = u.origin();

        const int32_t timeout_ms = req.timeout_ms > 0 ? req.timeout_ms : settings_.timeout_ms;
        const uint64_t cap =
            req.max_response_bytes > 0 ? req.max_response_bytes : settings_.max_response_bytes;
        const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
        const bool follow = !(req.flags & PLATFORM_HTTP_NO_REDIRECTS);

        for (int redirects = 0;; ++redirects) {
            const std::string where = redirects ? "redirect to " + u.str() + ": " : "";
            Decision d = decide(u, operator_kind, settings_);
            if (d.status != PLATFORM_OK) {
                spdlog::debug("outbound {} {}: {}", hop.method, u.str(), d.error);
                return failure(d.status, where + d.error, u.str());
            }
            auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())
                    .count();
            if (left <= 0)
                return failure(PLATFORM_TIMEOUT,
                               "timed out after " + std::to_string(timeout_ms) + " ms (timeout_ms)",
                               u.str());

            std::unique_ptr<CURL, void (*)(CURL*)> h(curl_easy_init(), curl_easy_cleanup);
            if (!h) return failure(PLATFORM_INTERNAL, "could not create an HTTP client handle");
            CURL* c = h.get();
            Transfer t;
            t.cap = cap;
            char errbuf[CURL_ERROR_SIZE] = {0};
            const std::string full = u.str();
            Slist headers, resolve;
            const bool same_origin = u.origin() == first_origin;
            for (const auto& [name, value] : hop.headers)
                if (same_origin || !is_credential(name)) headers.add(name + ": " + value);
            if (same_origin && !key_header.empty()) headers.add(key_header);
            headers.add("Expect:");
            bool has_type = std::any_of(hop.headers.begin(), hop.headers.end(), [](const auto& kv) {
                return lower(kv.first) == "content-type";
            });
            if (!has_type) headers.add("Content-Type:");
            if (!d.pins.empty()) {
                std::string all;
                for (const auto& p : d.pins) all += (all.empty() ? "" : ",") + p;
                resolve.add(u.host + ":" + std::to_string(u.port) + ":" + all);
                curl_easy_setopt(c, CURLOPT_RESOLVE, resolve.list);
            }
            curl_easy_setopt(c, CURLOPT_URL, full.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500
            curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
#else
            curl_easy_setopt(c, CURLOPT_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
#endif
            curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
            curl_easy_setopt(c, CURLOPT_PROXY,
                             "");  // never the environment's proxy: pins must hold
            curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
            curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(left));
            curl_easy_setopt(c, CURLOPT_USERAGENT, settings_.user_agent.c_str());
            curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
            curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.list);
            curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
            curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
            curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
            curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
            curl_easy_setopt(c, CURLOPT_HEADERDATA, &t);
            if (hop.method == "HEAD") {
                curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
            } else if (hop.method != "GET" || !hop.body.empty()) {
                curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
                                 static_cast<curl_off_t>(hop.body.size()));
                curl_easy_setopt(c, CURLOPT_POSTFIELDS, hop.body.data());
                if (hop.method != "POST")
                    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, hop.method.c_str());
            }

            CURLcode rc = curl_easy_perform(c);
            if (rc != CURLE_OK) {
                if (t.over)
                    return failure(PLATFORM_PAYLOAD_TOO_LARGE,
                                   where + "response body larger than " + std::to_string(cap) +
                                       " bytes (max_response_bytes)",
                                   full);
                if (rc == CURLE_OPERATION_TIMEDOUT)
                    return failure(PLATFORM_TIMEOUT,
                                   where + "no complete response from " + u.origin() + " within " +
                                       std::to_string(timeout_ms) + " ms (timeout_ms)",
                                   full);
                return failure(PLATFORM_BAD_GATEWAY,
                               where + hop.method + " " + full + ": " +
                                   (errbuf[0] ? errbuf : curl_easy_strerror(rc)),
                               full);
            }
            long status = 0;
            curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
            char* location = nullptr;
            curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &location);
            const bool redirect =
                status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
            if (follow && redirect && location) {
                if (redirects >= settings_.max_redirects)
                    return failure(PLATFORM_BAD_GATEWAY,
                                   "too many redirects (more than outbound.max_redirects = " +
                                       std::to_string(settings_.max_redirects) + ")",
                                   full);
                std::string next = location;
                auto n = parse_url(next, &error, &denied);
                if (!n)
                    return failure(denied ? PLATFORM_PERMISSION_DENIED : PLATFORM_BAD_GATEWAY,
                                   "redirect to " + next + ": " + error, full);
                if (status == 303 || ((status == 301 || status == 302) && hop.method == "POST")) {
                    if (hop.method != "HEAD") hop.method = "GET";
                    hop.body.clear();
                    hop.headers.erase(std::remove_if(hop.headers.begin(), hop.headers.end(),
                                                     [](const auto& kv) {
                                                         return lower(kv.first) == "content-type";
                                                     }),
                                      hop.headers.end());
                }
                u = *n;
                continue;
            }
            Reply r;
            r.http = static_cast<int32_t>(status);
            json hj = json::object();
            for (const auto& [k, v] : t.headers) hj[k] = v;
            r.headers = hj.dump(-1, ' ', false, json::error_handler_t::replace);
            r.body = std::move(t.body);
            r.final_url = full;
            return r;
        }
    };

    Reply r = run();
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

}  // namespace platform::host
