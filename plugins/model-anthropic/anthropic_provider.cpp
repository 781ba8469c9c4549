// model-anthropic — a model provider (PLATFORM_KIND_MODEL) for Anthropic's Messages API with tool
// use (README.md). Settings are read at each completion
// (common/model/model_settings.hpp); the request and answer are translated by
// anthropic_format.hpp; the POST, its retry and its errors are upstream_call.hpp's.
#include <platform/sdk.hpp>
#include <platform/sdk/model_provider.hpp>

#include "anthropic_format.hpp"
#include "common/model/model_settings.hpp"
#include "common/model/upstream_call.hpp"

using platform::json;

namespace {

const common::model::SettingNames kNames{"anthropic", "ANTHROPIC", "https://api.anthropic.com",
                                         "claude-sonnet-4-5"};
constexpr const char* kApiVersion = "2023-06-01";

}  // namespace

class AnthropicModel {
public:
    AnthropicModel(const platform::Host& host, const json& config)
        : host_(host), config_(config.is_object() ? config : json::object()) {}

    json complete(const json& request) {
        const auto s = common::model::resolve_settings(host_, kNames, config_);
        json body = model_anthropic::to_upstream(request, s.model);
        common::model::UpstreamPost post;
        post.name = kNames.name;
        post.url = model_anthropic::messages_url(s.base_url);
        post.timeout_ms = s.timeout_ms;
        post.key_setting = s.key_setting;
        post.base_setting = s.base_setting;
        post.headers["anthropic-version"] = kApiVersion;
        if (!s.api_key.empty())
            post.headers["x-api-key"] = s.api_key;
        else if (common::model::url_host(s.base_url) == "api.anthropic.com")
            throw platform::unavailable(s.key_setting + " is not set");
        post.body = std::move(body);
        return model_anthropic::from_upstream(common::model::post_json(host_, post), s.model);
    }

private:
    platform::Host host_;
    json config_;
};

PLATFORM_PROVIDER(AnthropicModel, PLATFORM_KIND_MODEL, "model-anthropic", "1.0.0",
                  "Anthropic Messages API with tool use",
                  &platform::ModelProviderTable<AnthropicModel>::table)
