// agents — the agents a caller can ask: the default one, the operator's (plugin profile config
// `agents`) and the caller's own (created with agent/create, owner-scoped).
//
// An agent is {name, description, instructions, services}: `instructions` open its system prompt,
// `services` (short service names such as "notes"; empty = every service the caller may use)
// limit the tools it is given. Names are lowercase [a-z0-9-]{1,40}; the default agent's and the
// operator's names cannot be taken by an account (409).
//
// Storage of own agents: collection `agents`, owner-scoped, key = name:
//   {"name", "description", "instructions", "services": [...], "created", "updated"}
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

namespace agent {

struct AgentDef {
    std::string name, description, instructions;
    std::vector<std::string> services;  // empty = all
    std::string kind;                   // "default", "operator" or "own"

    platform::json to_json() const;  // {name, description, services, kind}
};

// The name the default agent answers to.
inline constexpr const char* kDefaultAgent = "assistant";

// Whether `name` is a valid agent name: [a-z0-9-]{1,40}.
bool valid_name(const std::string& name);

class Agents {
public:
    // Reads the operator's agents from the plugin config (`agents: [{name, description,
    // instructions, services}]`); entries that are not valid are logged and left out.
    explicit Agents(const platform::Host& host);

    const AgentDef& default_agent() const { return default_; }
    const std::vector<AgentDef>& operator_agents() const { return operators_; }
    // The default or an operator agent by name.
    const AgentDef* builtin(const std::string& name) const;

    // An agent the caller can ask, by name (default, operator, own); nullopt when none.
    std::optional<AgentDef> find(const platform::Request& r, const std::string& name) const;
    // Every agent the caller can ask: the default first, then the operator's, then their own.
    std::vector<AgentDef> all(const platform::Request& r) const;

    // The caller's own agents (collection `agents`).
    static platform::Collection own(const platform::Request& r) { return r.owned("agents"); }
    static AgentDef from_record(const platform::json& record, const std::string& kind);

private:
    AgentDef default_;
    std::vector<AgentDef> operators_;
};

}  // namespace agent
