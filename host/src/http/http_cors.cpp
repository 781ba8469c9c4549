#include <strings.h>

#include <platform/host/http_cors.hpp>

namespace platform::host {

bool has_header(const HeaderList& headers, const std::string& name) {
    for (const auto& [k, v] : headers)
        if (k.size() == name.size() && strcasecmp(k.c_str(), name.c_str()) == 0) return true;
    return false;
}

void add_cors_headers(HeaderList& headers, const std::string& origin) {
    auto set = [&](const char* name, std::string value) {
        if (!has_header(headers, name)) headers.emplace_back(name, std::move(value));
    };
    const bool echo = !origin.empty();
    const bool origin_was_set = has_header(headers, "Access-Control-Allow-Origin");
    set("Access-Control-Allow-Origin", echo ? origin : "*");
    set("Access-Control-Allow-Credentials", "true");
    set("Access-Control-Allow-Methods", "POST, PATCH, GET, OPTIONS, PUT, DELETE");
    set("Access-Control-Allow-Headers",
        "Accept, Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, "
        "Platform-Namespace, "
        "Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID");
    // Browser MCP clients read the session id the answer carries (mcp.hpp).
    set("Access-Control-Expose-Headers", "Mcp-Session-Id, X-Request-Id, WWW-Authenticate");
    if (echo && !origin_was_set) set("Vary", "Origin");
}

}  // namespace platform::host
