// router — model-builtin's rules: which tool call a user's request means. The rules are a table
// (router.cpp, kRules): a regular expression over the normalised request (phrasing.hpp),
// anchored at both ends and ignoring case, with at most one capture, and a builder turning the
// capture into tool calls, in order of preference ("remind me tomorrow at 9 to X" is an
// events_create, else a tasks_create with that due). The first rule whose builder gives calls
// wins; of its calls, the first whose tool the request lists is made. When none is listed the
// request is refused naming the service (the caller's token does not allow it): a tool that is
// not listed is never called.
//
// Tool names are <service>_<method> and the arguments are exactly those of the services' input
// schemas: notes (add {title, text}, get/delete {title}, list {}), tasks (create {title, due?},
// list {}), events (create {title, when}, list {}, free {from?, to?}) and contacts (find {query}).
// Times are RFC 3339 with the account zone's offset (when.hpp). Requests longer than 500 bytes
// match no rule (commands are short; it also bounds the regular expressions' backtracking).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "clock.hpp"

namespace builtin {

struct ToolCall {
    std::string name;
    nlohmann::json arguments = nlohmann::json::object();
};

struct Routed {
    std::vector<ToolCall> calls;  // to make now (one, or none)
    std::string refused;          // a rule matched but none of its tools is listed: its service
    std::string then;             // the call is places_geocode: this tool follows at the place
    bool matched() const { return !calls.empty() || !refused.empty(); }
};

// What `request` (the user's words) means, given the tools the request lists.
Routed route(const std::string& request, const std::set<std::string>& tools,
             const LocalClock& clock);

// The call that follows places_geocode's answer `geocoded` for `request` when its rule takes two
// steps ("next prayer in Leeds": prayer_times at Leeds), else nullopt (outside_rules.hpp).
std::optional<ToolCall> follow_up(const std::string& request, const nlohmann::json& geocoded,
                                  const std::set<std::string>& tools, const LocalClock& clock);

// A sample phrasing per tool that is listed, in the rules' order ("note that the boiler code is
// 4512"), for the answer that says what this model understands.
std::vector<std::string> examples(const std::set<std::string>& tools);

// "notes" for "notes_add": the service part of a tool name.
std::string service_of(const std::string& tool);

}  // namespace builtin
