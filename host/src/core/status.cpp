#include <array>
#include <platform/host/core/status.hpp>

namespace platform::host {

namespace {
constexpr std::array<StatusInfo, 16> kTable{{
    {PLATFORM_OK, 200, "ok", "OK", 0},
    {PLATFORM_INVALID_ARGUMENT, 400, "invalid_argument", "Bad Request", 1},
    {PLATFORM_UNAUTHENTICATED, 401, "unauthenticated", "Unauthorized", 3},
    {PLATFORM_PAYMENT_REQUIRED, 402, "payment_required", "Payment Required", 6},
    {PLATFORM_PERMISSION_DENIED, 403, "permission_denied", "Forbidden", 3},
    {PLATFORM_NOT_FOUND, 404, "not_found", "Not Found", 5},
    {PLATFORM_METHOD_NOT_ALLOWED, 405, "method_not_allowed", "Method Not Allowed", 1},
    {PLATFORM_TIMEOUT, 408, "timeout", "Request Timeout", 1},
    {PLATFORM_CONFLICT, 409, "conflict", "Conflict", 1},
    {PLATFORM_PAYLOAD_TOO_LARGE, 413, "payload_too_large", "Payload Too Large", 1},
    {PLATFORM_RATE_LIMITED, 429, "rate_limited", "Too Many Requests", 1},
    {PLATFORM_INTERNAL, 500, "internal", "Internal Server Error", 1},
    {PLATFORM_UNSUPPORTED, 501, "unsupported", "Not Implemented", 1},
    {PLATFORM_BAD_GATEWAY, 502, "bad_gateway", "Bad Gateway", 1},
    {PLATFORM_UNAVAILABLE, 503, "unavailable", "Service Unavailable", 1},
    {PLATFORM_DEADLINE_EXCEEDED, 504, "deadline_exceeded", "Gateway Timeout", 1},
}};
}  // namespace

const StatusInfo& status_info(platform_status_t code) {
    for (const auto& s : kTable)
        if (s.code == code) return s;
    return kTable[PLATFORM_INTERNAL];
}

int cli_exit_for_http(int http_status) {
    if (http_status >= 200 && http_status < 300) return 0;
    for (const auto& s : kTable)
        if (s.http == http_status) return s.cli_exit;
    return 1;
}

std::string_view http_reason(int http_status) {
    for (const auto& s : kTable)
        if (s.http == http_status) return s.reason;
    switch (http_status) {
        case 415:
            return "Unsupported Media Type";
        case 431:
            return "Request Header Fields Too Large";
        default:
            return "Error";
    }
}

}  // namespace platform::host
