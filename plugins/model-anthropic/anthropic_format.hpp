// anthropic_format — the provider-neutral model request and answer of abi.h
// (platform_model_provider_t) translated to and from Anthropic's Messages API. Pure functions, no
// host: unit-tested on their own (tests/unit/models).
//
// Request (POST <base_url>/v1/messages):
//   {"model", "max_tokens": n (default 1024, required upstream),
//    "system": "<system>",                                               when any
//    "messages": [
//      {"role": "user", "content": [{"type": "text", "text"}]}
//      {"role": "assistant", "content": [{"type": "text", "text"},       text only when not empty
//                                        {"type": "tool_use", "id", "name", "input": {...}}]}
//      {"role": "user", "content": [{"type": "tool_result", "tool_use_id", "content": "<result>",
//                                    "is_error": bool}]}                 tool results are user turns
//    ],
//    "tools": [{"name", "description", "input_schema"}]}                 when any
// Consecutive messages of the same upstream role are merged into one (so consecutive tool results
// become one user message, and a user text after tool results joins them, after the results);
// empty text blocks and messages left without blocks are dropped (the API refuses them).
//
// Answer: text blocks joined with "\n" → text; tool_use blocks → tool_calls {id, name, arguments:
// input} (an input that is not an object becomes {} with an "arguments_error"); stop_reason
// tool_use → "tool_calls" (also whenever there are tool calls), max_tokens → "max_tokens", else
// "end"; usage input_tokens/output_tokens; model. An answer without a content array is
// Error(bad_gateway).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace model_anthropic {

constexpr int64_t kDefaultMaxTokens = 1024;

// The upstream request body for `request`, asking `model`. Throws Error(invalid_argument) naming
// the field of a malformed request.
nlohmann::json to_upstream(const nlohmann::json& request, const std::string& model);

// The neutral answer for an upstream answer body. `model` is used when the body names none.
nlohmann::json from_upstream(const nlohmann::json& body, const std::string& model);

// <base_url>/v1/messages, or <base_url>/messages when base_url already ends in /v1.
std::string messages_url(const std::string& base_url);

}  // namespace model_anthropic
