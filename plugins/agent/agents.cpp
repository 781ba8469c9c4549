#include "agents.hpp"

using platform::json;

namespace agent {

namespace {
std::vector<std::string> strings(const json& j) {
    std::vector<std::string> out;
    if (j.is_array())
        for (const auto& s : j)
            if (s.is_string()) out.push_back(s.get<std::string>());
    return out;
}
}  // namespace

json AgentDef::to_json() const {
    return {{"name", name}, {"description", description}, {"services", services}, {"kind", kind}};
}

bool valid_name(const std::string& name) {
    if (name.empty() || name.size() > 40) return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    return true;
}

AgentDef Agents::from_record(const json& r, const std::string& kind) {
    return {r.value("name", ""), r.value("description", ""), r.value("instructions", ""),
            strings(r.value("services", json::array())), kind};
}

Agents::Agents(const platform::Host& host) {
    default_ = {kDefaultAgent,
                "The general assistant: every service you may use, as tools.",
                "Help the account holder with their notes, tasks, calendar, contacts and the other "
                "services "
                "you have as tools. Act with the tools rather than describing what you would do; "
                "keep answers "
                "short.",
                {},
                "default"};
    const json list = host.config("agents");
    if (!list.is_array()) {
        if (!list.is_null())
            host.warn("agent: config `agents` is not an array; no operator agents");
        return;
    }
    for (const auto& item : list) {
        AgentDef a = item.is_object() ? from_record(item, "operator") : AgentDef{};
        if (!valid_name(a.name) || builtin(a.name)) {
            host.warn(
                "agent: config `agents`: an entry without a valid, unique name ([a-z0-9-]{1,40}) "
                "is left out: " +
                item.dump());
            continue;
        }
        operators_.push_back(std::move(a));
    }
}

const AgentDef* Agents::builtin(const std::string& name) const {
    if (name == default_.name) return &default_;
    for (const auto& a : operators_)
        if (a.name == name) return &a;
    return nullptr;
}

std::optional<AgentDef> Agents::find(const platform::Request& r, const std::string& name) const {
    if (const AgentDef* a = builtin(name)) return *a;
    if (!valid_name(name)) return std::nullopt;
    auto record = own(r).get(name);
    if (!record) return std::nullopt;
    return from_record(*record, "own");
}

std::vector<AgentDef> Agents::all(const platform::Request& r) const {
    std::vector<AgentDef> out{default_};
    out.insert(out.end(), operators_.begin(), operators_.end());
    for (auto& [name, record] : own(r).list()) out.push_back(from_record(record, "own"));
    return out;
}

}  // namespace agent
