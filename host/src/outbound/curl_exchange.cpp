#include "curl_exchange.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <platform/sdk/text.hpp>
#include <set>

namespace platform::host::outbound {

namespace {

using nlohmann::json;
using platform::lower;

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

// The header lines, then "Expect:" (no 100-continue) and, without a caller's Content-Type,
// "Content-Type:" (none of curl's own for a POST body).
void add_headers(const HopRequest& req, Slist& headers) {
    for (const auto& line : req.header_lines) headers.add(line);
    headers.add("Expect:");
    bool has_type = std::any_of(req.hop.headers.begin(), req.hop.headers.end(),
                                [](const auto& kv) { return lower(kv.first) == "content-type"; });
    if (!has_type) headers.add("Content-Type:");
}

// The method and body: HEAD without a body, GET without one as it is, anything else posted.
void set_method(CURL* c, const Hop& hop) {
    if (hop.method == "HEAD") {
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    } else if (hop.method != "GET" || !hop.body.empty()) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(hop.body.size()));
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, hop.body.data());
        if (hop.method != "POST") curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, hop.method.c_str());
    }
}

void set_options(CURL* c, const HopRequest& req, const std::string& full, curl_slist* headers,
                 char* errbuf, Transfer& t) {
    curl_easy_setopt(c, CURLOPT_URL, full.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(c, CURLOPT_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
#endif
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_PROXY, "");  // never the environment's proxy: pins must hold
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, req.time_left_ms);
    curl_easy_setopt(c, CURLOPT_USERAGENT, req.user_agent.c_str());
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &t);
    set_method(c, req.hop);
}

// Why the transfer failed, as the fetch's answer.
Reply transfer_failure(const HopRequest& req, CURLcode rc, const Transfer& t, const char* errbuf,
                       const std::string& full) {
    if (t.over)
        return failure(PLATFORM_PAYLOAD_TOO_LARGE,
                       req.where + "response body larger than " +
                           std::to_string(req.limits.max_response_bytes) +
                           " bytes (max_response_bytes)",
                       full);
    if (rc == CURLE_OPERATION_TIMEDOUT)
        return failure(PLATFORM_TIMEOUT,
                       req.where + "no complete response from " + req.url.origin() + " within " +
                           std::to_string(req.limits.timeout_ms) + " ms (timeout_ms)",
                       full);
    return failure(PLATFORM_BAD_GATEWAY,
                   req.where + req.hop.method + " " + full + ": " +
                       (errbuf[0] ? errbuf : curl_easy_strerror(rc)),
                   full);
}

// The easy handle of this thread, kept from one exchange to the next: curl keeps the connections
// a handle made (keep-alive, at most CURLOPT_MAXCONNECTS = 5, none older than 118 s), so the next
// exchange with the same origin on this thread reuses one instead of a new TCP (and TLS)
// handshake: an agent's completions, one after the other on one worker, share a connection
// (decision 79). Options do not carry over: every exchange starts from curl_easy_reset, which
// keeps the connections and the DNS cache only.
struct ThreadHandle {
    CURL* handle = nullptr;
    // host:port entries CURLOPT_RESOLVE put in the handle's DNS cache (the guard's pins); they
    // never expire there, so an exchange removes those it does not pin again.
    std::set<std::string> pinned;
    ~ThreadHandle() {
        if (handle) curl_easy_cleanup(handle);
    }
};

thread_local ThreadHandle tls_handle;

// This thread's handle with every option reset; null when none could be made.
CURL* thread_handle() {
    if (!tls_handle.handle) tls_handle.handle = curl_easy_init();
    if (tls_handle.handle) curl_easy_reset(tls_handle.handle);
    return tls_handle.handle;
}

// The CURLOPT_RESOLVE lines of an exchange: the guard's pins for this host:port (replacing an
// earlier entry for it) and the removal of any other entry an earlier exchange left in the cache,
// so that an unpinned exchange resolves afresh.
void pin(const HopRequest& req, Slist& resolve) {
    const std::string key = req.url.host + ":" + std::to_string(req.url.port);
    for (const auto& old : tls_handle.pinned)
        if (req.pins.empty() || old != key) resolve.add("-" + old);
    tls_handle.pinned.clear();
    if (req.pins.empty()) return;
    std::string all;
    for (const auto& p : req.pins) all += (all.empty() ? "" : ",") + p;
    resolve.add(key + ":" + all);
    tls_handle.pinned.insert(key);
}

}  // namespace

std::optional<Reply> exchange(const HopRequest& req, HopResponse& out) {
    CURL* c = thread_handle();
    if (!c) return failure(PLATFORM_INTERNAL, "could not create an HTTP client handle");
    Transfer t;
    t.cap = req.limits.max_response_bytes;
    char errbuf[CURL_ERROR_SIZE] = {0};
    const std::string full = req.url.str();
    Slist headers, resolve;
    add_headers(req, headers);
    pin(req, resolve);
    if (resolve.list) curl_easy_setopt(c, CURLOPT_RESOLVE, resolve.list);
    set_options(c, req, full, headers.list, errbuf, t);
    CURLcode rc = curl_easy_perform(c);
    // Nothing of this exchange stays set on the handle (the lists, buffers and callbacks' data
    // die with this frame); the connection does.
    struct Reset {
        CURL* c;
        ~Reset() { curl_easy_reset(c); }
    } reset{c};
    if (rc != CURLE_OK) return transfer_failure(req, rc, t, errbuf, full);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out.status);
    char* location = nullptr;
    curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &location);
    if (location) out.location = location;
    json hj = json::object();
    for (const auto& [k, v] : t.headers) hj[k] = v;
    out.headers_json = hj.dump(-1, ' ', false, json::error_handler_t::replace);
    out.body = std::move(t.body);
    return std::nullopt;
}

}  // namespace platform::host::outbound
