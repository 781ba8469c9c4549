// common/model/neutral — reading the provider-neutral model request of abi.h
// (platform_model_provider_t) the same way in every model provider (the HTTP ones and
// model-builtin). Part of the model client library they link; not a plugin.
//
// Malformed requests are platform::Error(invalid_argument) naming the field:
//   messages                 required, an array of objects
//   messages[i].role         "user", "assistant", "tool" or "system" (folded into the system text)
//   messages[i].tool_calls   an array of {id, name, arguments}; name required
//   messages[i].tool_call_id required for role "tool"
//   tools[i].name            required, a non-empty string
//   max_tokens               a positive integer when present
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace common::model {

// The request's messages, checked as above.
const nlohmann::json& checked_messages(const nlohmann::json& request);

// The request's tools ([] when absent), checked as above. A reference into `request` (or to a
// static empty array): an agent's tool list is large, and a copy of it per completion is
// measurable (decision 79).
const nlohmann::json& checked_tools(const nlohmann::json& request);

// max_tokens, or `def` when absent.
int64_t max_tokens_of(const nlohmann::json& request, int64_t def);

// A message's content as text: a string as it is; null as ""; an array of parts as the text of its
// {"type": "text", "text"} parts, joined; anything else as its JSON text.
std::string content_text(const nlohmann::json& content);

// The system text: request.system plus the content of any role "system" messages, blank-line
// separated.
std::string system_text(const nlohmann::json& request);

// A tool's input schema: input_schema when it is an object, else {"type": "object", "properties": {}}.
nlohmann::json input_schema_of(const nlohmann::json& tool);

// A tool call's arguments as an object: an object as it is; a string holding a JSON object parsed;
// anything else (a malformed string included) becomes {} and *problem says why.
nlohmann::json arguments_object(const nlohmann::json& arguments, std::string* problem);

// Reading upstream replies:

// JSON text for messages and request bodies, invalid UTF-8 replaced rather than thrown on.
std::string json_text(const nlohmann::json& value);

// object[key] when object is an object holding a string there, else `fallback`.
std::string string_or(const nlohmann::json& object, const char* key, const std::string& fallback);

// usage[key] when usage is an object holding an integer there, else 0.
int64_t token_count(const nlohmann::json& usage, const char* key);

// The neutral reply {text, tool_calls, stop, model, usage: {input_tokens, output_tokens}}. stop is
// "tool_calls" when there are calls, else "max_tokens" when the upstream stopped at its token
// limit, else "end".
nlohmann::json neutral_reply(std::string text, nlohmann::json calls, bool stopped_at_limit,
                             std::string model, int64_t input_tokens, int64_t output_tokens);

}  // namespace common::model
