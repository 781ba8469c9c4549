// model-openai — a model provider (PLATFORM_KIND_MODEL) for any OpenAI-compatible Chat Completions
// endpoint with tool calling: OpenAI, Ollama, llama.cpp server, vLLM (README.md).
// Settings are read at each completion (common/model/model_settings.hpp); the request and answer
// are translated by openai_format.hpp; the POST, its retry and its errors are upstream_call.hpp's.
#include <platform/sdk.hpp>
#include <platform/sdk/model_provider.hpp>

#include "common/model/model_settings.hpp"
#include "common/model/upstream_call.hpp"
#include "openai_format.hpp"

using platform::json;

namespace {

const common::model::SettingNames kNames{"openai", "OPENAI", "https://api.openai.com/v1",
                                         "gpt-4o-mini"};

}  // namespace

class OpenAiModel {
public:
    OpenAiModel(const platform::Host& host, const json& config)
        : host_(host), config_(config.is_object() ? config : json::object()) {}

    json complete(const json& request) {
        const auto s = common::model::resolve_settings(host_, kNames, config_);
        json body = model_openai::to_upstream(request, s.model);
        common::model::UpstreamPost post;
        post.name = kNames.name;
        post.url = s.base_url + "/chat/completions";
        post.timeout_ms = s.timeout_ms;
        post.key_setting = s.key_setting;
        post.base_setting = s.base_setting;
        if (!s.api_key.empty())
            post.headers["Authorization"] = "Bearer " + s.api_key;
        else if (common::model::url_host(s.base_url) == "api.openai.com")
            throw platform::unavailable(s.key_setting + " is not set");
        post.body = std::move(body);
        return model_openai::from_upstream(common::model::post_json(host_, post), s.model);
    }

private:
    platform::Host host_;
    json config_;
};

PLATFORM_PROVIDER(
    OpenAiModel, PLATFORM_KIND_MODEL, "model-openai", "1.0.0",
    "OpenAI-compatible Chat Completions with tool calling (OpenAI, Ollama, llama.cpp, vLLM)",
    &platform::ModelProviderTable<OpenAiModel>::table)
