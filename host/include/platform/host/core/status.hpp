// platform/host/core/status.hpp — the one table mapping ABI status codes to every surface (abi.h).
#pragma once

#include <platform/abi.h>

#include <string_view>

namespace platform::host {

struct StatusInfo {
    platform_status_t code;
    int http;                 // HTTP status
    std::string_view name;    // /api/v1 error.code, e.g. "invalid_argument"
    std::string_view reason;  // HTTP reason phrase, used as gateway "Status"
    int cli_exit;             // exit code of the `platform` CLI
};

// Unknown codes map to INTERNAL.
const StatusInfo& status_info(platform_status_t code);

// The CLI exit code for an HTTP status answered by the server (400 -> 1, 401 -> 3, 404 -> 5...).
int cli_exit_for_http(int http_status);

// The reason phrase for any HTTP status this host sends ("Unsupported Media Type" for 415...).
std::string_view http_reason(int http_status);

}  // namespace platform::host
