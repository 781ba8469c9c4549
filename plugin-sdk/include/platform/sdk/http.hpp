// platform/sdk/http.hpp — outbound HTTP requests and responses as the SDK sees them.
// Plugins make no network calls of their own: Host::fetch goes through the host's client (SSRF
// guard for user URLs, allow-list for operator URLs, provider base URLs and keys, size caps).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace platform {

struct HttpRequest {
    std::string method = "GET";
    std::string url;  // absolute, or a path under `provider`'s base URL
    nlohmann::json headers = nlohmann::json::object();
    std::string body;
    std::string provider;       // config providers.<name>; empty = none
    int32_t timeout_ms = 0;     // 0 = the host's default (30 s)
    uint64_t max_bytes = 0;     // 0 = the host's default (10 MiB)
    bool operator_url = false;  // an operator-configured upstream (allow-list, not the SSRF guard)
    bool follow_redirects = true;
};

struct HttpResponse {
    int status = 0;                                     // 0 when no response arrived
    nlohmann::json headers = nlohmann::json::object();  // lower-case names
    std::string body;
    std::string error;  // why the request failed or was refused
    std::string final_url;
    nlohmann::json json() const { return nlohmann::json::parse(body); }
};

}  // namespace platform
