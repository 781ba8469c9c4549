#include "openai_format.hpp"

#include <platform/sdk/error.hpp>
#include <utility>

#include "common/model/neutral.hpp"

namespace model_openai {

using nlohmann::json;
using namespace common::model;

namespace {

json assistant_message(const json& m) {
    json out = {{"role", "assistant"}};
    const std::string text = content_text(m.value("content", json()));
    json calls = json::array();
    if (m.contains("tool_calls") && m["tool_calls"].is_array())
        for (size_t i = 0; i < m["tool_calls"].size(); ++i) {
            const json& c = m["tool_calls"][i];
            calls.push_back({{"id", string_or(c, "id", "call_" + std::to_string(i))},
                             {"type", "function"},
                             {"function",
                              {{"name", c["name"]},
                               {"arguments", json_text(arguments_object(
                                                 c.value("arguments", json()), nullptr))}}}});
        }
    out["content"] = text.empty() && !calls.empty() ? json() : json(text);
    if (!calls.empty()) out["tool_calls"] = calls;
    return out;
}

json tool_message(const json& m) {
    std::string text = content_text(m.value("content", json()));
    if (m.value("is_error", false) && text.rfind("Error", 0) != 0) text = "Error: " + text;
    return {{"role", "tool"}, {"tool_call_id", m["tool_call_id"]}, {"content", text}};
}

json tool_call_of(const json& c, size_t i) {
    const json fn =
        c.contains("function") && c["function"].is_object() ? c["function"] : json::object();
    json out;
    const std::string id = string_or(c, "id", "");
    out["id"] = id.empty() ? "call_" + std::to_string(i) : id;
    out["name"] = string_or(fn, "name", "");
    std::string problem;
    out["arguments"] =
        arguments_object(fn.contains("arguments") ? fn["arguments"] : json(), &problem);
    if (!problem.empty()) out["arguments_error"] = problem;
    return out;
}

}  // namespace

json to_upstream(const json& request, const std::string& model) {
    const json& messages = checked_messages(request);
    const json& tools = checked_tools(request);
    json out = {{"model", model}, {"messages", json::array()}};
    const std::string system = system_text(request);
    if (!system.empty()) out["messages"].push_back({{"role", "system"}, {"content", system}});
    for (const json& m : messages) {
        const std::string role = m["role"];
        if (role == "system") continue;  // folded into the system message
        if (role == "user")
            out["messages"].push_back(
                {{"role", "user"}, {"content", content_text(m.value("content", json()))}});
        else if (role == "assistant")
            out["messages"].push_back(assistant_message(m));
        else
            out["messages"].push_back(tool_message(m));
    }
    if (!tools.empty()) {
        json list = json::array();
        for (const json& t : tools)
            list.push_back({{"type", "function"},
                            {"function",
                             {{"name", t["name"]},
                              {"description", t.value("description", "")},
                              {"parameters", input_schema_of(t)}}}});
        out["tools"] = std::move(list);
    }
    if (request.contains("max_tokens") && !request["max_tokens"].is_null())
        out["max_tokens"] = max_tokens_of(request, 0);
    return out;
}

json from_upstream(const json& body, const std::string& model) {
    if (!body.is_object() || !body.contains("choices") || !body["choices"].is_array() ||
        body["choices"].empty() || !body["choices"][0].is_object() ||
        !body["choices"][0].contains("message") || !body["choices"][0]["message"].is_object())
        throw platform::Error(
            platform::Code::bad_gateway,
            "openai answered without choices[0].message: " + json_text(body).substr(0, 200));
    const json& choice = body["choices"][0];
    const json& message = choice["message"];
    json calls = json::array();
    if (message.contains("tool_calls") && message["tool_calls"].is_array())
        for (size_t i = 0; i < message["tool_calls"].size(); ++i)
            if (message["tool_calls"][i].is_object())
                calls.push_back(tool_call_of(message["tool_calls"][i], i));
    const json usage = body.contains("usage") ? body["usage"] : json();
    return neutral_reply(content_text(message.value("content", json())), calls,
                         string_or(choice, "finish_reason", "") == "length",
                         string_or(body, "model", model), token_count(usage, "prompt_tokens"),
                         token_count(usage, "completion_tokens"));
}

}  // namespace model_openai
