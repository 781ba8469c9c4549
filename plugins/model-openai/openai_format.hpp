// openai_format — the provider-neutral model request and answer of abi.h
// (platform_model_provider_t) translated to and from OpenAI's Chat Completions format. Pure
// functions, no host: unit-tested on their own (tests/unit/models).
//
// Request (POST <base_url>/chat/completions):
//   {"model", "messages": [
//      {"role": "system", "content": <system>}                                  first, when any
//      {"role": "user", "content": "<text>"}
//      {"role": "assistant", "content": "<text>" | null,                        null when only calling
//       "tool_calls": [{"id", "type": "function",
//                       "function": {"name", "arguments": "<arguments as a JSON string>"}}]}
//      {"role": "tool", "tool_call_id", "content": "<result>"}                  "Error: " prefixed
//                                                                               when is_error
//    ],
//    "tools": [{"type": "function", "function": {"name", "description", "parameters"}}],  when any
//    "max_tokens": n}                                                           when given
//
// Answer: choices[0].message → {"text", "tool_calls": [{"id", "name", "arguments": {...}}], "stop",
// "model", "usage": {"input_tokens": prompt_tokens, "output_tokens": completion_tokens}}.
// A tool call whose arguments string is not a JSON object gets arguments {} and an
// "arguments_error" saying why. stop: "tool_calls" when there are tool calls (whatever
// finish_reason says), "max_tokens" for finish_reason "length", else "end".
// An answer without choices[0].message is Error(bad_gateway).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace model_openai {

// The upstream request body for `request`, asking `model`. Throws Error(invalid_argument) naming
// the field of a malformed request.
nlohmann::json to_upstream(const nlohmann::json& request, const std::string& model);

// The neutral answer for an upstream answer body. `model` is used when the body names none.
nlohmann::json from_upstream(const nlohmann::json& body, const std::string& model);

}  // namespace model_openai
