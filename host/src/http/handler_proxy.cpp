// The proxy and web handlers (docs/decisions.md 15): the path names a registered (external)
// service — proxy: resolve_proxy_path ("/foo/bar" -> foo, "/v1/foo/bar" -> v1.foo); web:
// resolve_web_path (the first segment) — and the request is reverse-proxied to one of its live
// nodes (ServiceRegistry::node_addresses) with libcurl: method, path and query as given, headers
// but the hop-by-hop ones, body; X-Forwarded-For (the peer appended), X-Forwarded-Host and
// X-Forwarded-Proto added. The answer's status, headers (but hop-by-hop) and body come back.
// No live node: the rpc handler takes the path (then 404). Upstream failure: 502 (504 after
// 30 s). Nodes are registered by admins only, so no SSRF guard applies to them; redirects are
// passed back, not followed; proxies from the environment are not used.
#include <curl/curl.h>
#include <strings.h>

#include <algorithm>
#include <platform/host/http/http_bodies.hpp>
#include <platform/sdk/text.hpp>
#include <random>

#include "handlers.hpp"

namespace platform::host {

namespace gw {

namespace {
struct Collected {
    int status = 0;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    bool too_large = false;
};

size_t on_header(char* data, size_t size, size_t n, void* user) {
    auto* c = static_cast<Collected*>(user);
    std::string_view line(data, size * n);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    if (line.rfind("HTTP/", 0) == 0) {
        c->headers.clear();  // a new response (after 1xx)
    } else if (auto colon = line.find(':'); colon != std::string_view::npos && colon > 0) {
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
            value.remove_prefix(1);
        while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
            value.remove_suffix(1);
        c->headers.emplace_back(std::string(line.substr(0, colon)), std::string(value));
    }
    return size * n;
}

size_t on_body(char* data, size_t size, size_t n, void* user) {
    auto* c = static_cast<Collected*>(user);
    if (c->body.size() + size * n > kMaxForwardResponse) {
        c->too_large = true;
        return 0;  // aborts the transfer
    }
    c->body.append(data, size * n);
    return size * n;
}

struct CurlFree {
    void operator()(CURL* h) const { curl_easy_cleanup(h); }
    void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

// Header names the Connection header lists are hop-by-hop too.
std::vector<std::string> connection_tokens(const std::string& value) {
    std::vector<std::string> out = comma_list(value);
    for (auto& t : out) t = platform::lower(t);
    return out;
}
}  // namespace

HttpResponse forward_http(const HttpRequest& req, const std::string& address,
                          const std::string& error_id) {
    static const bool curl_ready = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    if (!curl_ready)
        return gateway_error(error_id, 502, "upstream: the HTTP client could not start");
    std::string base = address;
    if (base.find("://") == std::string::npos) base = "http://" + base;
    if (base.rfind("http://", 0) != 0 && base.rfind("https://", 0) != 0)
        return gateway_error(
            error_id, 502, "upstream " + address + ": only http and https nodes can be proxied to");
    while (!base.empty() && base.back() == '/') base.pop_back();
    const std::string url = base + (req.path.empty() || req.path.front() != '/' ? "/" : "") +
                            req.path + (req.query.empty() ? "" : "?" + req.query);

    std::unique_ptr<CURL, CurlFree> h(curl_easy_init());
    if (!h) return gateway_error(error_id, 502, "upstream: the HTTP client could not start");
    CURL* c = h.get();
    const auto skip = connection_tokens(req.header("connection"));
    curl_slist* list = nullptr;
    auto add = [&](const std::string& line) {
        if (curl_slist* l = curl_slist_append(list, line.c_str())) list = l;
    };
    for (const auto& [name, value] : req.headers) {
        if (hop_by_hop(name) || name == "host" || name == "expect" || name == "x-forwarded-for" ||
            name == "x-forwarded-host" || name == "x-forwarded-proto" || !header_name_ok(name) ||
            !header_value_ok(value) || std::find(skip.begin(), skip.end(), name) != skip.end())
            continue;
        add(canonical_header(name) +
            (value.empty() ? ";" : ": " + value));  // "Name;" sends an empty value
    }
    std::string xff = req.header("x-forwarded-for");
    if (!req.remote.empty()) xff = xff.empty() ? req.remote : xff + ", " + req.remote;
    if (!xff.empty() && header_value_ok(xff)) add("X-Forwarded-For: " + xff);
    if (std::string host = req.header("host"); !host.empty() && header_value_ok(host))
        add("X-Forwarded-Host: " + host);
    add(std::string("X-Forwarded-Proto: ") + (req.tls ? "https" : "http"));
    add("Expect:");  // no 100-continue round trip
    std::unique_ptr<curl_slist, CurlFree> headers(list);

    Collected got;
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(c, CURLOPT_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
#endif
    curl_easy_setopt(c, CURLOPT_PROXY, "");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, kForwardTimeoutMs);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &got);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &got);
    if (req.method == "HEAD") {
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    } else {
        if (req.method != "GET" || !req.body.empty())
            curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req.method.c_str());
        if (!req.body.empty() ||
            (req.method != "GET" && req.method != "DELETE" && req.method != "OPTIONS")) {
            curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
                             static_cast<curl_off_t>(req.body.size()));
            curl_easy_setopt(c, CURLOPT_POSTFIELDS, req.body.data());
        }
    }
    CURLcode rc = curl_easy_perform(c);
    if (got.too_large)
        return gateway_error(error_id, 502,
                             "upstream " + address + ": response larger than " +
                                 std::to_string(kMaxForwardResponse) + " bytes");
    if (rc == CURLE_OPERATION_TIMEDOUT)
        return gateway_error(error_id, 504,
                             "upstream " + address + ": no answer within " +
                                 std::to_string(kForwardTimeoutMs / 1000) + " s");
    if (rc != CURLE_OK)
        return gateway_error(error_id, 502, "upstream " + address + ": " + curl_easy_strerror(rc));
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (status < 100 || status > 599)
        return gateway_error(error_id, 502, "upstream " + address + ": no valid HTTP status");

    HttpResponse r;
    r.status = static_cast<int>(status);
    r.content_type = "application/octet-stream";
    std::vector<std::string> drop;
    for (const auto& [name, value] : got.headers)
        if (strcasecmp(name.c_str(), "connection") == 0)
            for (auto& t : connection_tokens(value)) drop.push_back(t);
    for (auto& [name, value] : got.headers) {
        const std::string lower = platform::lower(name);
        if (hop_by_hop(lower) || lower == "x-request-id" || !header_name_ok(name) ||
            !header_value_ok(value) || std::find(drop.begin(), drop.end(), lower) != drop.end())
            continue;
        if (lower == "content-type")
            r.content_type = writable_content_type(value, r.content_type);
        else
            r.headers.emplace_back(name, value);
    }
    r.body = std::move(got.body);
    return r;
}

}  // namespace gw

void Gateway::forward(HttpRequest& req, const std::vector<std::string>& addresses,
                      const std::string& id, const Reply& reply) {
    static thread_local std::mt19937 rng{std::random_device{}()};
    std::string address =
        addresses[std::uniform_int_distribution<size_t>(0, addresses.size() - 1)(rng)];
    auto shared = std::make_shared<HttpRequest>(std::move(req));
    forward_pool_->submit(
        [shared, address, id, reply] { reply(gw::forward_http(*shared, address, id)); });
}

void Gateway::proxy_handler(HttpRequest& req, const Reply& reply, const OpenStream& open,
                            bool web) {
    const std::string ns = request_namespace(req);
    auto route = web ? resolve_web_path(req.path) : resolve_proxy_path(req.path);
    if (route) {
        const std::string full = qualify(ns, route->service);
        auto nodes = runtime_.registry().node_addresses(full, runtime_.clock().now_ms());
        if (!nodes.empty()) return forward(req, nodes, full, reply);
    }
    rpc_path(req, reply, open);  // not a registered service with a node: the default handler
}

}  // namespace platform::host
