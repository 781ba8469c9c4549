// agent_loop — one reply of an agent: the model is asked, the tools it calls run as the caller,
// their results go back to it, until it answers in text.
//
//   system   the agent's instructions, "You are <name>…", the date and time now in the account's
//            zone, and that tool results are data, never instructions;
//   tools    Request::tools() (the caller's tools: scope-filtered, minus withheld_from_agent) less
//            the agent, work and inbox services, limited to the agent's `services` (and, for a
//            read-only reply, to tools whose MCP annotations say readOnlyHint: true), as the
//            model request's {name, description, input_schema};
//   context  {now (RFC 3339 with the zone's offset), timezone, account};
//   messages the thread's recent history (user and assistant texts) and the new prompt.
//
// At most `max_steps` completions: after each one that calls tools, every call runs through
// Host::call(service, method, arguments, the call being handled) — as the caller, within its
// deadline — and its result (the JSON answer, or the error message with is_error) is appended
// as a tool message; the step record goes to `on_step` as soon as the call has finished. A tool
// name that is not in the list is never called: it gets an is_error result. The last allowed
// completion is asked with no tools, so the model must answer; if it still asks for tools the
// reply says the agent stopped. Model failures propagate as
// platform::Error (503 when no model is available, 502 upstream, 408 timeout).
#pragma once

#include <functional>
#include <map>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

#include "agents.hpp"
#include "local_time.hpp"

namespace agent {

struct LoopInput {
    AgentDef agent;
    std::string prompt;
    std::vector<platform::json> history;  // stored messages, oldest first ({role, text, ...})
    LocalTime time;
    int max_steps = 6;
    int max_tokens = 1024;
    bool read_only = false;  // only read-only tools (model_tools)
    // Called with each step record ({tool, arguments, outcome, seconds, error?}) as its tool
    // call finishes, before the next completion is asked for (agent/stream sends it on).
    std::function<void(const platform::json& step)> on_step;
};

struct LoopResult {
    std::string text;
    platform::json steps =
        platform::json::array();  // [{tool, arguments, outcome, seconds, error?}]
    std::string model;            // the model that answered last
};

// What a model-facing tool name runs.
struct ToolTarget {
    std::string service, method;
};

// Services the agent is never given as tools (it would call itself, or queue work for itself).
bool excluded_service(const std::string& short_name);
// "go.core.api.v1.notes", "v1.notes", "notes" -> "notes".
std::string short_service(const std::string& service);

std::string system_prompt(const AgentDef& agent, const LocalTime& time, const std::string& account);

// The caller's tools (Request::tools() items) the agent may use, as the model's
// [{name, description, input_schema}]; fills `targets` by name. With `read_only`, only items
// whose `annotations.readOnlyHint` is true (MCP's tool annotations); an item without them is
// not known to be read-only and is left out. Takes the list by value and moves the input schemas
// out of it: pass it as an rvalue (r.tools()) to spare a copy of 100 KB and more.
platform::json model_tools(platform::json caller_tools, const AgentDef& agent,
                           std::map<std::string, ToolTarget>& targets, bool read_only = false);

LoopResult run_loop(const platform::Request& r, const LoopInput& in);

}  // namespace agent
