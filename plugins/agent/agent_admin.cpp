// The caller's own agents (agent/create, update, delete, beyond the hosted-assistant API's ask and
// list) and every agent as an MCP prompt (prompts/list, prompts/get).
#include "agent.hpp"
#include "agent_loop.hpp"

using platform::json;

namespace {

constexpr size_t kMaxOwnAgents = 50;
constexpr const char* kPromptPrefix = "agent_";

std::string checked_name(const platform::Request& r) {
    const std::string name = r.str("name");
    if (!agent::valid_name(name))
        throw platform::invalid_argument(
            "name: lowercase letters, digits and '-', 1 to 40 of them");
    return name;
}

// Validates and copies description, instructions and services from the arguments.
void take_fields(const platform::Request& r, json& record) {
    const json& a = r.args();
    if (a.contains("description")) record["description"] = a["description"];
    if (a.contains("instructions")) {
        const std::string text = a["instructions"].get<std::string>();
        if (platform::utf8_length(text) > Agent::kMaxInstructions)
            throw platform::invalid_argument("instructions: at most 4000 characters");
        record["instructions"] = text;
    }
    if (a.contains("services")) {
        for (const auto& s : a["services"])
            if (!s.is_string() || !agent::valid_name(s.get<std::string>()))
                throw platform::invalid_argument("services: short service names such as \"notes\"");
        record["services"] = a["services"];
    }
}

}  // namespace

json Agent::create(platform::Request& r) {
    const std::string name = checked_name(r);
    if (agents_.builtin(name))
        throw platform::conflict("name: '" + name +
                                 "' is the operator's agent; choose another name");
    auto own = agent::Agents::own(r);
    if (own.list().size() >= kMaxOwnAgents)
        throw platform::conflict("name: you have " + std::to_string(kMaxOwnAgents) +
                                 " agents, the most allowed");
    const std::string now = platform::rfc3339(host_.now_ms());
    json record = {{"name", name},
                   {"description", ""},
                   {"services", json::array()},
                   {"created", now},
                   {"updated", now}};
    take_fields(r, record);
    if (!own.insert_if_absent(name, record))
        throw platform::conflict("name: you already have an agent named '" + name +
                                 "' (agent/update changes it)");
    return agent::Agents::from_record(record, "own").to_json();
}

json Agent::update(platform::Request& r) {
    const std::string name = checked_name(r);
    if (agents_.builtin(name))
        throw platform::permission_denied("name: '" + name +
                                          "' is the operator's agent and cannot be changed");
    auto written = agent::Agents::own(r).update(
        name, [&](const std::optional<json>& cur) -> std::optional<json> {
            if (!cur) throw platform::not_found("name: you have no agent named '" + name + "'");
            json record = *cur;
            take_fields(r, record);
            record["updated"] = platform::rfc3339(host_.now_ms());
            return record;
        });
    return agent::Agents::from_record(*written, "own").to_json();
}

json Agent::remove(platform::Request& r) {
    const std::string name = checked_name(r);
    if (agents_.builtin(name))
        throw platform::permission_denied("name: '" + name +
                                          "' is the operator's agent and cannot be deleted");
    if (!agent::Agents::own(r).erase(name))
        throw platform::not_found("name: you have no agent named '" + name + "'");
    return {{"deleted", name}};
}

json Agent::prompts(platform::Request& r) {
    json out = json::array();
    for (const auto& a : agents_.all(r))
        out.push_back(
            {{"name", kPromptPrefix + a.name},
             {"title", "Agent " + a.name},
             {"description", a.description},
             {"arguments", json::array({{{"name", "request"},
                                         {"description", "What to ask the agent (optional)"},
                                         {"required", false}}})}});
    return {{"prompts", out}};
}

json Agent::prompt(platform::Request& r) {
    const std::string name = r.str("name");
    const std::string prefix = kPromptPrefix;
    if (name.compare(0, prefix.size(), prefix) != 0)
        throw platform::not_found("name: not an agent prompt");
    auto a = agents_.find(r, name.substr(prefix.size()));
    if (!a) throw platform::not_found("name: no agent prompt " + name);
    std::string text = a->instructions.empty() ? "" : a->instructions + "\n\n";
    text += "You are " + a->name + "." + (a->description.empty() ? "" : " " + a->description);
    if (!a->services.empty()) {
        text += " Use only the tools of these services:";
        for (const auto& s : a->services) text += " " + s;
        text += ".";
    }
    const json args = r.args().value("arguments", json::object());
    if (args.is_object() && args.contains("request") && args["request"].is_string() &&
        !args["request"].get<std::string>().empty())
        text += "\n\n" + args["request"].get<std::string>();
    return {{"description", a->description},
            {"messages",
             json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", text}}}}})}};
}
