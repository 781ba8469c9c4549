#include <strings.h>

#include <algorithm>
#include <platform/host/http/http_cors.hpp>

namespace platform::host {

bool has_header(const HeaderList& headers, const std::string& name) {
    for (const auto& [k, v] : headers)
        if (k.size() == name.size() && strcasecmp(k.c_str(), name.c_str()) == 0) return true;
    return false;
}

namespace {

bool listed(const CorsSettings& cors, const std::string& origin) {
    return std::any_of(cors.origins.begin(), cors.origins.end(), [&](const std::string& o) {
        return o.size() == origin.size() && strcasecmp(o.c_str(), origin.c_str()) == 0;
    });
}

}  // namespace

void add_cors_headers(HeaderList& headers, const std::string& origin, const CorsSettings& cors) {
    if (origin.empty() || cors.origins.empty()) return;
    // The answer depends on the Origin header: caches must keep one per origin.
    if (!has_header(headers, "Vary")) headers.emplace_back("Vary", "Origin");
    const bool credentials = listed(cors, origin) && origin != "null" && origin != "*";
    const bool any = !credentials && origin != "null" && listed(cors, "*");
    if (!credentials && !any) return;
    auto set = [&](const char* name, std::string value) {
        if (!has_header(headers, name)) headers.emplace_back(name, std::move(value));
    };
    set("Access-Control-Allow-Origin", credentials ? origin : "*");
    if (credentials) set("Access-Control-Allow-Credentials", "true");
    set("Access-Control-Allow-Methods", "POST, PATCH, GET, OPTIONS, PUT, DELETE");
    set("Access-Control-Allow-Headers",
        "Accept, Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, "
        "Platform-Namespace, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID");
    // Browser MCP clients read the session id the answer carries (mcp.hpp).
    set("Access-Control-Expose-Headers", "Mcp-Session-Id, X-Request-Id, WWW-Authenticate");
}

}  // namespace platform::host
