// common/conversations — the agent's conversations as inbox and recall read them. Neither service keeps
// anything: each call is the agent plugin's internal endpoints (plugins/agent/README.md, "Internal
// endpoints") called as the caller, Host::call("agent", <method>, args, r.call()), so ownership
// (another account's thread is 404), token restrictions and deadlines are the caller's. This file
// holds those calls, the checks of the arguments both services take, and the shapes they answer
// with. A library linked by inbox and recall (platform_common_conversations); not a plugin.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <platform/sdk.hpp>
#include <string>

namespace common::conversations {

// agent/<method> as the caller of `r`: its result, or its error passed on with the agent's code
// and message (404 "thread: no such conversation", 400, 401...). A host without the agent
// service (or an agent without the method) is 503.
platform::json agent(const platform::Request& r, const std::string& method,
                     const platform::json& args);

// The required string argument `name` (a conversation id): 400 "<name>: must not be empty".
std::string required(const platform::Request& r, const std::string& name);

// A channel argument (`name`): web, mail or cli; empty when absent; 400 otherwise.
std::string channel(const platform::Request& r, const std::string& name);

// The listed members of `from` that it has (an object; null and absent members are left out).
platform::json pick(const platform::json& from, std::initializer_list<const char*> keys);

// A message as both services show it: {seq, role, text, at, channel, agent}.
platform::json message(const platform::json& stored);

}  // namespace common::conversations
