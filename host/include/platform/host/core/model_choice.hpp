// platform/host/core/model_choice.hpp — which model provider answers host_api.model_complete (ABI
// 1.5, docs/decisions.md 30), chosen again at every call so a `platform config set model.provider`
// or a changed profile takes effect without a restart:
//   1. config `model.provider` (the config built-in, read as the host): "openai", "anthropic",
//      "builtin" or any <name> means plugin model-<name> (a full id "model-<name>" works too);
//   2. the environment: OPENAI_API_KEY or OPENAI_BASE_URL set -> model-openai, else
//      ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL set -> model-anthropic;
//   3. the profile's `providers: model: {plugin: ...}`;
//   4. model-builtin when it is loaded.
// A chosen provider that is not loaded is UNAVAILABLE naming it and why it was chosen; nothing to
// choose is UNAVAILABLE saying how to get a model. Every model plugin the profile loads
// (PLATFORM_KIND_MODEL, `plugins: all` or listed) is started, so switching needs no restart.
#pragma once

#include <platform/abi.h>

#include <functional>
#include <string>
#include <string_view>

namespace platform::host {

class Runtime;

struct ModelSources {
    std::string configured;                       // config model.provider, "" = unset
    std::function<std::string(const char*)> env;  // an environment variable, "" = unset
    std::string profile_choice;                   // providers.model.plugin, "" = none
};

struct ModelPick {
    std::string plugin;   // plugin id; "" = nothing to choose
    std::string because;  // "config model.provider = openai", "OPENAI_API_KEY is set"...
};

// The pure part: the rules above, given what is set and which plugins are loaded.
ModelPick pick_model(const ModelSources& sources,
                     const std::function<bool(const std::string&)>& loaded);

// What is wrong with a model_complete request, "" when nothing: it must be a JSON object whose
// "messages" (the last one, when repeated) is an array. Checked by a SAX pass that builds no
// document: an agent's request carries its whole tool list (100 KB and more) and the provider
// parses it anyway (decision 79).
std::string model_request_problem(std::string_view request_json);

// host_api.model_complete: validates the request (a JSON object with a "messages" array), picks
// the provider and runs its `complete` on the calling thread. `out` is the answer on OK, else the
// reason. Blocking.
platform_status_t complete_with_model(Runtime& runtime, std::string_view request_json,
                                      std::string& out);

}  // namespace platform::host
