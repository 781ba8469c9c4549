#include "anthropic_format.hpp"

#include <platform/sdk/error.hpp>
#include <utility>

#include "common/model/neutral.hpp"

namespace model_anthropic {

using nlohmann::json;
using namespace common::model;

namespace {

// The upstream role and content blocks of one neutral message (role "system" gives none).
std::pair<std::string, json> blocks_of(const json& m) {
    const std::string role = m["role"];
    json blocks = json::array();
    if (role == "tool") {
        blocks.push_back({{"type", "tool_result"},
                          {"tool_use_id", m["tool_call_id"]},
                          {"content", content_text(m.value("content", json()))},
                          {"is_error", m.value("is_error", false)}});
        return {"user", blocks};
    }
    const std::string text = role == "system" ? "" : content_text(m.value("content", json()));
    if (!text.empty()) blocks.push_back({{"type", "text"}, {"text", text}});
    if (role == "assistant" && m.contains("tool_calls") && m["tool_calls"].is_array())
        for (size_t i = 0; i < m["tool_calls"].size(); ++i) {
            const json& c = m["tool_calls"][i];
            blocks.push_back({{"type", "tool_use"},
                              {"id", string_or(c, "id", "toolu_" + std::to_string(i))},
                              {"name", c["name"]},
                              {"input", arguments_object(c.value("arguments", json()), nullptr)}});
        }
    return {role, blocks};
}

}  // namespace

json to_upstream(const json& request, const std::string& model) {
    const json& messages = checked_messages(request);
    const json& tools = checked_tools(request);
    json out = {{"model", model}, {"max_tokens", max_tokens_of(request, kDefaultMaxTokens)}};
    const std::string system = system_text(request);
    if (!system.empty()) out["system"] = system;
    json list = json::array();
    for (const json& m : messages) {
        auto [role, blocks] = blocks_of(m);
        if (blocks.empty()) continue;
        if (!list.empty() && list.back()["role"] == role) {
            for (auto& b : blocks) list.back()["content"].push_back(std::move(b));
        } else {
            list.push_back({{"role", role}, {"content", std::move(blocks)}});
        }
    }
    out["messages"] = std::move(list);
    if (!tools.empty()) {
        json defs = json::array();
        for (const json& t : tools)
            defs.push_back({{"name", t["name"]},
                            {"description", t.value("description", "")},
                            {"input_schema", input_schema_of(t)}});
        out["tools"] = std::move(defs);
    }
    return out;
}

json from_upstream(const json& body, const std::string& model) {
    if (!body.is_object() || !body.contains("content") || !body["content"].is_array())
        throw platform::Error(
            platform::Code::bad_gateway,
            "anthropic answered without a content array: " + json_text(body).substr(0, 200));
    std::string text;
    json calls = json::array();
    for (const json& block : body["content"]) {
        if (!block.is_object()) continue;
        const std::string type = block.value("type", "");
        if (type == "text" && block.contains("text") && block["text"].is_string()) {
            text += (text.empty() ? "" : "\n") + block["text"].get<std::string>();
        } else if (type == "tool_use") {
            json call;
            call["id"] = string_or(block, "id", "toolu_" + std::to_string(calls.size()));
            call["name"] = string_or(block, "name", "");
            std::string problem;
            call["arguments"] =
                arguments_object(block.contains("input") ? block["input"] : json(), &problem);
            if (!problem.empty()) call["arguments_error"] = problem;
            calls.push_back(std::move(call));
        }
    }
    const json usage = body.contains("usage") ? body["usage"] : json();
    return neutral_reply(text, calls, string_or(body, "stop_reason", "") == "max_tokens",
                         string_or(body, "model", model), token_count(usage, "input_tokens"),
                         token_count(usage, "output_tokens"));
}

std::string messages_url(const std::string& base_url) {
    std::string base = base_url;
    while (!base.empty() && base.back() == '/') base.pop_back();
    if (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0) return base + "/messages";
    return base + "/v1/messages";
}

}  // namespace model_anthropic
