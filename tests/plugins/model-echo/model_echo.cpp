// model-echo — test-only model provider (PLATFORM_KIND_MODEL, ABI 1.5): answers the last user
// message as its text and echoes the request's `context` and the names of the tools it was
// offered, so integration tests can see which provider answered and what reached it. With
// config.provider set to "model-<name>" by `platform config set model.provider echo`, the host
// picks it (model_choice.hpp). A user message "fail:<code>" fails with that status code.
#include <platform/sdk.hpp>
#include <platform/sdk/model_provider.hpp>
#include <string>

using platform::json;

class EchoModel {
public:
    EchoModel(const platform::Host&, const json&) {}

    json complete(const json& request) {
        if (!request.contains("messages") || !request["messages"].is_array())
            throw platform::invalid_argument("messages: required, an array");
        std::string last;
        for (const auto& m : request["messages"])
            if (m.is_object() && m.value("role", "") == "user" && m.contains("content") &&
                m["content"].is_string())
                last = m["content"].get<std::string>();
        if (last.rfind("fail:", 0) == 0)
            throw platform::Error(static_cast<platform::Code>(std::stoi(last.substr(5))),
                                  "model-echo was told to fail");
        json tools = json::array();
        if (request.contains("tools") && request["tools"].is_array())
            for (const auto& t : request["tools"])
                if (t.is_object()) tools.push_back(t.value("name", ""));
        return {{"text", last},
                {"tool_calls", json::array()},
                {"stop", "end"},
                {"model", "echo"},
                {"usage", {{"input_tokens", 0}, {"output_tokens", 0}}},
                {"context", request.value("context", json::object())},
                {"tools", tools}};
    }
};

PLATFORM_PROVIDER(EchoModel, PLATFORM_KIND_MODEL, "model-echo", "1.0.0",
                  "Test-only model: answers the last user message, echoes the context",
                  &platform::ModelProviderTable<EchoModel>::table)
