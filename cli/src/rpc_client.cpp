#include "rpc_client.hpp"

#include <curl/curl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "environments.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {
size_t collect(char* data, size_t size, size_t n, void* out) {
    static_cast<std::string*>(out)->append(data, size * n);
    return size * n;
}
std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
}
TokenProvider& installed_provider() {
    static TokenProvider p;
    return p;
}

CURL* new_handle() {
    CURL* curl = curl_easy_init();
    if (!curl) throw Unreachable("cannot initialise the HTTP client");
    return curl;
}

std::string rpc_body(const std::string& service, const std::string& method, const json& request) {
    return json{{"service", service}, {"method", method}, {"request", request}}.dump();
}

struct Exchange {
    CURLcode rc = CURLE_OK;
    long status = 0;
    curl_off_t connected = 0;  // how long connecting took; 0: never connected
};

// POSTs payload to url on curl (set up further by the caller) with headers, handing the answer to
// write(..., data); frees the handle and the headers.
Exchange post(CURL* curl, const std::string& url, curl_slist* headers, const std::string& payload,
              curl_write_callback write, void* data) {
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, payload.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(payload.size()));
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, data);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    Exchange e;
    e.rc = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &e.status);
    curl_easy_getinfo(curl, CURLINFO_CONNECT_TIME_T, &e.connected);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return e;
}

// The answer's body as JSON, or as text when it is not JSON.
RpcResult answer(long status, bool sent_token, const std::string& body) {
    RpcResult r;
    r.http_status = static_cast<int>(status);
    r.sent_token = sent_token;
    r.body = json::parse(body, nullptr, false);
    if (r.body.is_discarded()) r.body = body;
    return r;
}
}  // namespace

void set_token_provider(TokenProvider provider) {
    installed_provider() = std::move(provider);
}

std::string default_address() {
    return selected_address();
}

std::string RpcResult::detail() const {
    if (body.is_object() && body.contains("Detail") && body["Detail"].is_string())
        return body["Detail"];
    return body.is_string() ? body.get<std::string>() : body.dump();
}

RpcClient::RpcClient() : address_(default_address()), provider_(installed_provider()) {}

RpcClient::RpcClient(std::string address, std::string token)
    : address_(std::move(address)), token_(std::move(token)) {}

RpcResult RpcClient::call(const std::string& service, const std::string& method,
                          const json& request, const CallOptions& options) const {
    RpcResult r = once(service, method, request, options);
    bool allowed = false, asked = false;
    for (int attempt = 0; attempt < kMaxRetries && (r.http_status == 500 || r.http_status == 408);
         ++attempt) {
        if (!asked) {
            allowed = options.may_retry && options.may_retry();
            asked = true;
        }
        if (!allowed) break;
        std::this_thread::sleep_for(
            std::chrono::milliseconds(100 << attempt));  // backoff, not synchronisation
        r = once(service, method, request, options);
    }
    return r;
}

RpcResult RpcClient::once(const std::string& service, const std::string& method,
                          const json& request, const CallOptions& options) const {
    const std::string token = provider_ ? provider_() : token_;
    CURL* curl = new_handle();
    const std::string payload = rpc_body(service, method, request);
    std::string response;
    curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
    if (!token.empty())
        headers = curl_slist_append(headers, ("Authorization: Bearer " + token).c_str());
    for (const auto& [k, v] : options.headers)
        headers = curl_slist_append(headers, (k + ": " + v).c_str());
    if (options.timeout_seconds > 0) {
        headers = curl_slist_append(headers,
                                    ("Timeout: " + seconds_text(options.timeout_seconds)).c_str());
        curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                         static_cast<long>(options.timeout_seconds * 1000) + 1000L);
    }
    const Exchange e =
        post(curl, "http://" + address_ + "/rpc", headers, payload, collect, &response);
    if (e.rc == CURLE_OPERATION_TIMEDOUT && e.connected > 0) {  // connected, then no answer in time
        RpcResult late;
        late.http_status = 408;
        late.sent_token = !token.empty();
        late.body = "no answer from " + address_ + " within the request timeout";
        return late;
    }
    if (e.rc != CURLE_OK)
        throw Unreachable("cannot reach the platform server at " + address_ + ": " +
                          curl_easy_strerror(e.rc) +
                          " (is `platform server` running? -e <env> or PLATFORM_PROXY=host:port "
                          "picks another address)");
    return answer(e.status, !token.empty(), response);
}

namespace {
// Splits Server-Sent Events as bytes arrive; a non-stream answer is kept whole in `body`.
struct SseReader {
    const std::function<bool(const std::string&, const std::string&)>* on_event;
    std::string pending, body;
    bool stopped = false;
    static size_t write(char* data, size_t size, size_t n, void* user) {
        auto* r = static_cast<SseReader*>(user);
        r->pending.append(data, size * n);
        r->body.append(data, size * n);
        for (size_t end; (end = r->pending.find("\n\n")) != std::string::npos;) {
            std::string frame = r->pending.substr(0, end), event, payload;
            r->pending.erase(0, end + 2);
            for (size_t i = 0; i <= frame.size();) {
                size_t j = frame.find('\n', i);
                if (j == std::string::npos) j = frame.size();
                std::string line = frame.substr(i, j - i);
                if (line.rfind("event: ", 0) == 0)
                    event = line.substr(7);
                else if (line.rfind("data: ", 0) == 0)
                    payload += (payload.empty() ? "" : "\n") + line.substr(6);
                i = j + 1;
            }
            if (!(*r->on_event)(event, payload)) {
                r->stopped = true;
                return 0;  // aborts the transfer
            }
        }
        return size * n;
    }
};
}  // namespace

RpcResult RpcClient::stream(
    const std::string& service, const std::string& method, const json& request,
    const std::function<bool(const std::string&, const std::string&)>& on_event,
    double timeout_seconds) const {
    const std::string token = provider_ ? provider_() : token_;
    CURL* curl = new_handle();
    const std::string payload = rpc_body(service, method, request);
    curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Accept: text/event-stream");
    if (!token.empty())
        headers = curl_slist_append(headers, ("Authorization: Bearer " + token).c_str());
    if (timeout_seconds > 0)
        headers = curl_slist_append(headers, ("Timeout: " + seconds_text(timeout_seconds)).c_str());
    SseReader reader{&on_event, {}, {}, false};
    const Exchange e =
        post(curl, "http://" + address_ + "/rpc", headers, payload, SseReader::write, &reader);
    if (e.rc != CURLE_OK && !(e.rc == CURLE_WRITE_ERROR && reader.stopped))
        throw Unreachable("cannot reach the platform server at " + address_ + ": " +
                          curl_easy_strerror(e.rc));
    return answer(e.status, !token.empty(), reader.body);
}

}  // namespace platform::cli
