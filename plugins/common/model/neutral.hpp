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

// The request's tools ([] when absent), checked as above.
nlohmann::json checked_tools(const nlohmann::json& request);

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

}  // namespace common::model
