// common/model/model_settings — where an HTTP model provider (model-openai, model-anthropic) finds
// its upstream (docs/decisions.md 29). Part of the model client library both link; not a plugin.
//
// Each setting is read at every completion, first found wins:
//   1. the config service, `model.<name>.base_url|api_key|model|timeout_ms` (one Config.Get of
//      `model.<name>`, decrypted, as the plugin's own service account; a missing config service
//      or path counts as unset);
//   2. the plugin's profile config (`plugin_config: {model-<name>: {base_url, api_key, model,
//      timeout_ms}}`);
//   3. the conventional variables <PREFIX>_BASE_URL, <PREFIX>_API_KEY, <PREFIX>_MODEL
//      (OPENAI_..., ANTHROPIC_...);
//   4. the provider's defaults (base URL, model; timeout 60 s).
// Empty strings count as unset. Trailing slashes of the base URL are removed.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <platform/sdk/host.hpp>
#include <string>

namespace common::model {

// What a provider calls its settings and what it uses when none is set.
struct SettingNames {
    std::string name;        // "openai": config model.openai.*, errors "openai answered ..."
    std::string env_prefix;  // "OPENAI": OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL
    std::string default_base_url;
    std::string default_model;
    int64_t default_timeout_ms = 60000;
};

struct UpstreamSettings {
    std::string base_url, api_key, model;
    int64_t timeout_ms = 60000;
    std::string key_setting;   // "model.openai.api_key (or OPENAI_API_KEY)", for messages
    std::string base_setting;  // "model.openai.base_url (or OPENAI_BASE_URL)"
};

// Reads the settings as described above. `profile_config` is the plugin's profile config object.
UpstreamSettings resolve_settings(const platform::Host& host, const SettingNames& names,
                                  const nlohmann::json& profile_config);

// The same from already-read layers (the config service's `model.<name>` object, the profile
// config, an environment lookup returning "" for an unset variable): the pure part, for unit tests.
UpstreamSettings merge_settings(const SettingNames& names, const nlohmann::json& config_service,
                                const nlohmann::json& profile_config,
                                const std::function<std::string(const std::string&)>& env);

// The host part of a URL ("api.openai.com" for "https://api.openai.com/v1"), lower case.
std::string url_host(const std::string& url);

}  // namespace common::model
