// platform/host/core/request_args.hpp — an HTTP request's arguments as one JSON object.
//
// Query string (typed by the endpoint's schema, micro's rules elsewhere) merged with the body
// (JSON object, or a form), the body winning. Only JSON and form bodies are served:
// application/protobuf and other types get 415 with a message saying so. Where forms are not
// taken (`/api/v1` endpoints without a browser page, BodyForms::refused) a form body is 415 too:
// curl's `-d` sends one by default, and reading `{"title": ...}` as a form field would answer a
// misleading "title: is required".
#pragma once

#include <platform/abi.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <platform/host/core/http_message.hpp>
#include <platform/validation/schema.hpp>
#include <string>
#include <variant>

namespace platform::host {

using validation::Schema;

struct ArgsError {
    int http_status;         // 400, 413 or 415
    platform_status_t code;  // INVALID_ARGUMENT / PAYLOAD_TOO_LARGE / INVALID_ARGUMENT (415)
    std::string message;
};

enum class BodyForms { taken, refused };

// Builds the argument object; `max_body` is the endpoint's limit. `skip_query_key` names a query
// parameter that is the surface's own (e.g. "envelope") and not an argument.
std::variant<nlohmann::json, ArgsError> request_args(const HttpRequest& req, const Schema* schema,
                                                     uint64_t max_body,
                                                     const std::string& skip_query_key = "",
                                                     BodyForms forms = BodyForms::taken);

// Parses a body as JSON or form by its content type (for /rpc's envelope).
std::variant<nlohmann::json, ArgsError> parse_body(const HttpRequest& req, const Schema* schema,
                                                   BodyForms forms = BodyForms::taken);

// For JSON text that is not valid UTF-8: the dotted path of the value whose string holds the
// first ill-formed sequence ("title", "tags.2", "" for the top level), so the 400 can name the
// argument ("title: must be valid UTF-8") rather than a byte offset. A bad object key is
// reported as "<path of its object> (a key)", or "an argument name" at the top. nullopt when the
// text is valid UTF-8.
std::optional<std::string> invalid_utf8_path(const std::string& json_text);

}  // namespace platform::host
