// model_completion.hpp — one call to a model provider plugin's complete() (the
// platform_model_provider_t of abi.h), as the unit tests of model-openai, model-anthropic and
// model-builtin make it: the status and everything the provider wrote back.
//
// Header-only (included by a relative path). Not thread-safe; one call at a time.
#pragma once

#include <platform/abi.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <platform/sdk/str.hpp>
#include <string>

namespace plugin_test {

// What complete() answered: the status and the answer (or the error message).
struct Completion {
    platform_status_t code = -1;
    std::string text;
    nlohmann::json answer() const { return nlohmann::json::parse(text); }
};

// Calls complete() of the model provider `desc` on its instance `inst` with the request `body`
// (JSON text, passed as it is). `desc` and `inst` are borrowed.
inline Completion complete_with(const platform_plugin_desc_t* desc, void* inst,
                                const std::string& body) {
    const auto* table = static_cast<const platform_model_provider_t*>(desc->provider);
    Completion out;
    out.code = table->complete(
        inst, platform::view(body),
        [](void* user, platform_str_t bytes) {
            static_cast<Completion*>(user)->text.append(bytes.ptr, bytes.len);
        },
        &out);
    return out;
}

// The neutral answer to a text reply that ended by itself (no tool calls, under the token limit).
inline nlohmann::json text_reply(const std::string& text, const std::string& model,
                                 int64_t input_tokens, int64_t output_tokens) {
    return {{"text", text},
            {"tool_calls", nlohmann::json::array()},
            {"stop", "end"},
            {"model", model},
            {"usage", {{"input_tokens", input_tokens}, {"output_tokens", output_tokens}}}};
}

}  // namespace plugin_test
