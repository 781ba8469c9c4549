// conversation — one completion of model-builtin (abi.h, platform_model_provider_t): what the
// provider-neutral request's last message calls for.
//
//   an app build                 the request's tools include `app_html` and the last message is
//                                the user's: one app_html call from the template it names
//                                (app_templates.hpp), else kAppsNeedAModel, stop "end"; the rules
//                                below are not tried
//   last message from the user   a rule (router.hpp) matches: one tool call, stop "tool_calls";
//                                its tools are not listed: text saying this agent may not use
//                                that service with the caller's current permissions, stop "end";
//                                no rule: the help text below
//   tool results at the end      text composed from them (reply.hpp), stop "end"
//   anything else                the help text: the sample phrasings of the listed tools, and how
//                                to configure a real model (model.provider openai / anthropic)
//
// Answer: {"text", "tool_calls": [{"id": "call_<n>", "name", "arguments"}], "stop", "model":
// "builtin", "usage": {"input_tokens": 0, "output_tokens": 0}}; call ids go on from the number of
// calls already in the conversation, so they are unique in it. A request without a messages array
// (or with an empty one) is invalid_argument naming `messages`; other shape checks are
// plugins/common/model's (neutral.hpp), as in the HTTP providers.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace builtin {

// The answer to `request`; `fallback_now_ms` is "now" when the request has no context.now.
// Throws platform::Error(invalid_argument) for a malformed request.
nlohmann::json respond(const nlohmann::json& request, int64_t fallback_now_ms);

// The help text for a request listing `tools`.
std::string help_text(const std::set<std::string>& tools);

}  // namespace builtin
