// platform/host/request_args.hpp — an HTTP request's arguments as one JSON object.
//
// Query string (typed by the endpoint's schema, micro's rules elsewhere) merged with the body
// (JSON object, or a form), the body winning. Only JSON and form bodies are served:
// application/protobuf and other types get 415 with a message saying so (DESIGN §5).
#pragma once

#include <platform/abi.h>
#include <platform/host/gateway.hpp>
#include <platform/host/schema.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <variant>
#include <string>

namespace platform::host {

struct ArgsError {
    int http_status;             // 400, 413 or 415
    platform_status_t code;      // INVALID_ARGUMENT / PAYLOAD_TOO_LARGE / INVALID_ARGUMENT (415)
    std::string message;
};

// Builds the argument object; `max_body` is the endpoint's limit. `skip_query_key` names a query
// parameter that is the surface's own (e.g. "envelope") and not an argument.
std::variant<nlohmann::json, ArgsError> request_args(const HttpRequest& req, const Schema* schema,
                                                     uint64_t max_body,
                                                     const std::string& skip_query_key = "");

// Parses a body as JSON or form by its content type (for /rpc's envelope).
std::variant<nlohmann::json, ArgsError> parse_body(const HttpRequest& req, const Schema* schema);

}  // namespace platform::host
