#include "conversation.hpp"

#include <optional>
#include <platform/sdk/error.hpp>

#include "app_templates.hpp"
#include "clock.hpp"
#include "common/model/neutral.hpp"
#include "reply.hpp"
#include "router.hpp"

namespace builtin {

using nlohmann::json;

namespace {

json answer(const std::string& text, json calls = json::array()) {
    const bool calling = !calls.empty();
    return {{"text", text},
            {"tool_calls", std::move(calls)},
            {"stop", calling ? "tool_calls" : "end"},
            {"model", "builtin"},
            {"usage", {{"input_tokens", 0}, {"output_tokens", 0}}}};
}

size_t calls_so_far(const json& messages) {
    size_t n = 0;
    for (const auto& m : messages)
        if (m.contains("tool_calls") && m["tool_calls"].is_array()) n += m["tool_calls"].size();
    return n;
}

// The call that follows a places_geocode answer (router.hpp, follow_up): when the last message
// is that tool's successful result and the last user message takes two steps.
std::optional<ToolCall> second_step(const json& messages, const std::set<std::string>& tools,
                                    const LocalClock& clock) {
    const json& last = messages.back();
    if (messages.size() < 3 || (last.contains("is_error") && last["is_error"] == true))
        return std::nullopt;
    const json& asked = messages[messages.size() - 2];
    if (!asked.contains("tool_calls") || !asked["tool_calls"].is_array() ||
        asked["tool_calls"].size() != 1 ||
        asked["tool_calls"][0].value("name", "") != "places_geocode")
        return std::nullopt;
    for (size_t i = messages.size(); i-- > 0;)
        if (messages[i].value("role", "") == "user") {
            const std::string said = common::model::content_text(
                messages[i].contains("content") ? messages[i]["content"] : json());
            const json geocoded = json::parse(
                common::model::content_text(last.contains("content") ? last["content"] : json()),
                nullptr, false);
            return follow_up(said, geocoded, tools, clock);
        }
    return std::nullopt;
}

// An app build (app_templates.hpp): the template the user's message names as one app_html call,
// or the text saying which model setting to configure.
json app_build(const json& said, const json& messages) {
    const AppTemplate* t =
        match_app(common::model::content_text(said.contains("content") ? said["content"] : json()));
    if (!t) return answer(kAppsNeedAModel);
    json call = {
        {"id", "call_" + std::to_string(calls_so_far(messages) + 1)},
        {"name", kAppTool},
        {"arguments", {{"name", t->name}, {"description", t->description}, {"html", t->html}}}};
    return answer("", json::array({call}));
}

}  // namespace

std::string help_text(const std::set<std::string>& tools) {
    const auto samples = examples(tools);
    std::string out =
        "I'm the built-in assistant: I work offline and understand only a few fixed phrasings";
    if (samples.empty()) {
        out +=
            ", and with your current permissions this agent may not use any of the services I "
            "know.";
    } else {
        out += ", such as:";
        for (const auto& s : samples) out += "\n- “" + s + "”";
    }
    out +=
        "\nFor anything else, configure a real model: `platform config set model.provider openai` "
        "with "
        "`model.openai.api_key` (or OPENAI_API_KEY) and, for another OpenAI-compatible server, "
        "`model.openai.base_url`; or `platform config set model.provider anthropic` with "
        "`model.anthropic.api_key` (or ANTHROPIC_API_KEY).";
    return out;
}

json respond(const json& request, int64_t fallback_now_ms) {
    const json& messages = common::model::checked_messages(request);
    if (messages.empty()) throw platform::invalid_argument("messages: must not be empty");
    std::set<std::string> tools;
    for (const auto& t : common::model::checked_tools(request))
        tools.insert(t["name"].get<std::string>());
    const LocalClock clock =
        LocalClock::from_context(request.value("context", json::object()), fallback_now_ms / 1000);
    const json& last = messages.back();
    const std::string role = last.value("role", "");
    if (role == "user" && tools.count(kAppTool)) return app_build(last, messages);
    if (role == "tool") {
        if (auto next = second_step(messages, tools, clock)) {
            json call = {{"id", "call_" + std::to_string(calls_so_far(messages) + 1)},
                         {"name", next->name},
                         {"arguments", next->arguments}};
            return answer("", json::array({call}));
        }
        return answer(reply_to_results(messages, clock));
    }
    if (role != "user") return answer(help_text(tools));

    const std::string said =
        common::model::content_text(last.contains("content") ? last["content"] : json());
    const Routed routed = route(said, tools, clock);
    if (!routed.refused.empty())
        return answer("I can't do that: this agent may not use " + routed.refused +
                      " with your current permissions.");
    if (routed.calls.empty()) return answer(help_text(tools));
    json calls = json::array();
    size_t n = calls_so_far(messages);
    for (const auto& c : routed.calls)
        calls.push_back(
            {{"id", "call_" + std::to_string(++n)}, {"name", c.name}, {"arguments", c.arguments}});
    return answer("", std::move(calls));
}

}  // namespace builtin
