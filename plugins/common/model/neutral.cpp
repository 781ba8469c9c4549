#include "common/model/neutral.hpp"

#include <platform/sdk/error.hpp>
#include <utility>

namespace common::model {

using nlohmann::json;
using platform::invalid_argument;

namespace {

std::string at(size_t i) {
    return "[" + std::to_string(i) + "]";
}

}  // namespace

const json& checked_messages(const json& request) {
    if (!request.contains("messages") || !request["messages"].is_array())
        throw invalid_argument("messages: must be an array of messages");
    const json& messages = request["messages"];
    for (size_t i = 0; i < messages.size(); ++i) {
        const json& m = messages[i];
        const std::string where = "messages" + at(i);
        if (!m.is_object()) throw invalid_argument(where + ": must be an object");
        const std::string role = m.value("role", "");
        if (role != "user" && role != "assistant" && role != "tool" && role != "system")
            throw invalid_argument(where + ".role: must be user, assistant, tool or system");
        if (role == "tool" && (!m.contains("tool_call_id") || !m["tool_call_id"].is_string()))
            throw invalid_argument(where + ".tool_call_id: is required for a tool result");
        if (!m.contains("tool_calls") || m["tool_calls"].is_null()) continue;
        if (!m["tool_calls"].is_array())
            throw invalid_argument(where + ".tool_calls: must be an array");
        for (size_t k = 0; k < m["tool_calls"].size(); ++k) {
            const json& c = m["tool_calls"][k];
            if (!c.is_object() || !c.contains("name") || !c["name"].is_string())
                throw invalid_argument(where + ".tool_calls" + at(k) + ".name: is required");
        }
    }
    return messages;
}

const json& checked_tools(const json& request) {
    static const json kNone = json::array();
    if (!request.contains("tools") || request["tools"].is_null()) return kNone;
    if (!request["tools"].is_array()) throw invalid_argument("tools: must be an array");
    for (size_t i = 0; i < request["tools"].size(); ++i) {
        const json& t = request["tools"][i];
        if (!t.is_object() || !t.contains("name") || !t["name"].is_string() ||
            t["name"].get<std::string>().empty())
            throw invalid_argument("tools" + at(i) + ".name: is required");
    }
    return request["tools"];
}

int64_t max_tokens_of(const json& request, int64_t def) {
    if (!request.contains("max_tokens") || request["max_tokens"].is_null()) return def;
    const json& v = request["max_tokens"];
    if (!v.is_number_integer() || v.get<int64_t>() <= 0)
        throw invalid_argument("max_tokens: must be a positive integer");
    return v.get<int64_t>();
}

std::string content_text(const json& content) {
    if (content.is_string()) return content.get<std::string>();
    if (content.is_null()) return "";
    if (content.is_array()) {
        std::string out;
        for (const json& part : content)
            if (part.is_object() && part.value("type", "") == "text" && part.contains("text") &&
                part["text"].is_string())
                out += part["text"].get<std::string>();
        return out;
    }
    return json_text(content);
}

std::string system_text(const json& request) {
    std::string out = request.contains("system") ? content_text(request["system"]) : "";
    if (request.contains("messages") && request["messages"].is_array())
        for (const json& m : request["messages"]) {
            if (!m.is_object() || m.value("role", "") != "system") continue;
            const std::string text = content_text(m.value("content", json()));
            if (text.empty()) continue;
            out += (out.empty() ? "" : "\n\n") + text;
        }
    return out;
}

json input_schema_of(const json& tool) {
    if (tool.contains("input_schema") && tool["input_schema"].is_object())
        return tool["input_schema"];
    return {{"type", "object"}, {"properties", json::object()}};
}

json arguments_object(const json& arguments, std::string* problem) {
    if (arguments.is_object()) return arguments;
    if (arguments.is_string()) {
        const std::string text = arguments.get<std::string>();
        if (text.find_first_not_of(" \t\r\n") == std::string::npos)
            return json::object();  // "" = no arguments
        json parsed = json::parse(text, nullptr, false);
        if (parsed.is_object()) return parsed;
        if (problem)
            *problem = parsed.is_discarded()
                           ? "arguments are not valid JSON: " + text.substr(0, 200)
                           : "arguments are not a JSON object: " + text.substr(0, 200);
        return json::object();
    }
    if (arguments.is_null()) return json::object();
    if (problem) *problem = "arguments are not a JSON object: " + arguments.dump().substr(0, 200);
    return json::object();
}

std::string json_text(const json& value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string string_or(const json& object, const char* key, const std::string& fallback) {
    return object.is_object() && object.contains(key) && object[key].is_string()
               ? object[key].get<std::string>()
               : fallback;
}

int64_t token_count(const json& usage, const char* key) {
    return usage.is_object() && usage.contains(key) && usage[key].is_number_integer()
               ? usage[key].get<int64_t>()
               : 0;
}

json neutral_reply(std::string text, json calls, bool stopped_at_limit, std::string model,
                   int64_t input_tokens, int64_t output_tokens) {
    const char* stop = !calls.empty() ? "tool_calls" : stopped_at_limit ? "max_tokens" : "end";
    return {{"text", std::move(text)},
            {"tool_calls", std::move(calls)},
            {"stop", stop},
            {"model", std::move(model)},
            {"usage", {{"input_tokens", input_tokens}, {"output_tokens", output_tokens}}}};
}

}  // namespace common::model
