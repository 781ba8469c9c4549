#include "rpc_client.hpp"

#include <curl/curl.h>

#include <cstdlib>

namespace platform::cli {

using nlohmann::json;

namespace {
size_t collect(char* data, size_t size, size_t n, void* out) {
    static_cast<std::string*>(out)->append(data, size * n);
    return size * n;
}
std::string env_or(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}
TokenProvider& installed_provider() {
    static TokenProvider p;
    return p;
}
}  // namespace

void set_token_provider(TokenProvider provider) { installed_provider() = std::move(provider); }

std::string default_address() { return env_or("PLATFORM_PROXY", "127.0.0.1:8081"); }

std::string RpcResult::detail() const {
    if (body.is_object() && body.contains("Detail") && body["Detail"].is_string()) return body["Detail"];
    return body.is_string() ? body.get<std::string>() : body.dump();
}

RpcClient::RpcClient() : address_(default_address()), provider_(installed_provider()) {}

RpcClient::RpcClient(std::string address, std::string token) : address_(std::move(address)), token_(std::move(token)) {}

RpcResult RpcClient::call(const std::string& service, const std::string& method, const json& request) const {
    const std::string token = provider_ ? provider_() : token_;
    CURL* curl = curl_easy_init();
    if (!curl) throw Unreachable("cannot initialise the HTTP client");
    std::string url = "http://" + address_ + "/rpc";
    std::string payload = json{{"service", service}, {"method", method}, {"request", request}}.dump();
    std::string response;
    curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
    if (!token.empty()) headers = curl_slist_append(headers, ("Authorization: Bearer " + token).c_str());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, payload.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(payload.size()));
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    if (rc != CURLE_OK)
        throw Unreachable("cannot reach the platform server at " + address_ + ": " + curl_easy_strerror(rc) +
                          " (is `platform server` running? PLATFORM_PROXY=host:port picks another address)");
    RpcResult r;
    r.http_status = static_cast<int>(status);
    r.sent_token = !token.empty();
    r.body = json::parse(response, nullptr, false);
    if (r.body.is_discarded()) r.body = response;
    return r;
}

}  // namespace platform::cli
