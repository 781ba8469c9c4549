// group_rules — the groups service's state machine as a pure function over one group record.
//
// A group record is {id, name, encrypted, created, members: {account: role}, invitations:
// {account: {by, at}}}; roles are "member", "admin" and "owner". apply() checks the caller's
// right to one action and returns the changed record (nullopt: the group is deleted), or throws
// platform::Error: not_found when the caller may not know the group exists, permission_denied
// naming the rule, invalid_argument naming the argument, conflict for a state that forbids the
// action. No I/O; safe from any thread.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>

namespace groups {

// One update request: the caller, the action and its optional account and value ("" = absent).
struct Change {
    std::string caller, action, account, value, now;
};

// The caller's role in the group ("" when not a member).
std::string role_of(const platform::json& group, const std::string& account);
// True when `account` has a pending invitation to the group.
bool invited(const platform::json& group, const std::string& account);

// The record after `change`, or nullopt when the action deletes the group.
std::optional<platform::json> apply(const platform::json& group, const Change& change);

}  // namespace groups
