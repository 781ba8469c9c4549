#include "fetch_request.hpp"

#include <cctype>
#include <nlohmann/json.hpp>
#include <platform/sdk/text.hpp>

namespace platform::host::outbound {

namespace {

using nlohmann::json;
using platform::lower;

// Validates headers_json: an object of strings with token names and single-line values.
std::optional<Reply> read_headers(const std::string& headers_json, Hop& hop) {
    if (headers_json.empty()) return std::nullopt;
    json h = json::parse(headers_json, nullptr, false);
    if (!h.is_object())
        return failure(PLATFORM_INVALID_ARGUMENT, "headers: must be a JSON object of strings");
    static const std::string token_chars = "!#$%&'*+-.^_`|~";
    for (const auto& [name, value] : h.items()) {
        bool ok = !name.empty();
        for (char c : name)
            ok = ok && (std::isalnum(static_cast<unsigned char>(c)) ||
                        token_chars.find(c) != std::string::npos);
        if (!ok || !value.is_string())
            return failure(PLATFORM_INVALID_ARGUMENT,
                           "headers: '" + name + "' must be a header name with a string value");
        const std::string v = value.get<std::string>();
        if (v.find_first_of(std::string("\r\n\0", 3)) != std::string::npos)
            return failure(PLATFORM_INVALID_ARGUMENT,
                           "headers: '" + name + "' must not contain line breaks");
        const std::string l = lower(name);
        if (l == "host" || l == "content-length" || l == "transfer-encoding" || l == "connection")
            return failure(PLATFORM_INVALID_ARGUMENT,
                           "headers: '" + name + "' is set by the host's client");
        hop.headers.emplace_back(name, v);
    }
    return std::nullopt;
}

}  // namespace

platform_http_request_t read_request(const platform_http_request_t& in) {
    platform_http_request_t req{};
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
    return req;
}

std::optional<Reply> read_hop(const platform_http_request_t& req, Hop& hop) {
    hop.method = text(req.method);
    if (hop.method.empty()) hop.method = "GET";
    for (auto& c : hop.method) {
        if (!std::isalpha(static_cast<unsigned char>(c)))
            return failure(PLATFORM_INVALID_ARGUMENT,
                           "method: must be an HTTP method such as GET or POST");
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    hop.body = text(req.body);
    return read_headers(text(req.headers_json), hop);
}

Limits fetch_limits(const platform_http_request_t& req, const OutboundSettings& s) {
    Limits l;
    l.timeout_ms = req.timeout_ms > 0 ? req.timeout_ms : s.timeout_ms;
    if (auto p = s.providers.find(text(req.provider));
        p != s.providers.end() && p->second.timeout_ms > 0)
        l.timeout_ms = p->second.timeout_ms;  // the operator's, for this provider
    l.max_response_bytes =
        req.max_response_bytes > 0 ? req.max_response_bytes : s.max_response_bytes;
    l.deadline = Clock::now() + std::chrono::milliseconds(l.timeout_ms);
    l.follow_redirects = !(req.flags & PLATFORM_HTTP_NO_REDIRECTS);
    return l;
}

}  // namespace platform::host::outbound
