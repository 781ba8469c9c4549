// groups — private groups shared between accounts: create, list, read and update (invite, accept,
// decline, remove, role, rename, delete). The rules of update are in group_rules.hpp.
//
// Storage: one service-wide collection "groups" (owner "") keyed by group id holds the records;
// "group_index" per account holds one marker per group the account belongs to or is invited to,
// so list reads only the caller's groups. The group record is the truth: markers are written
// before a change that adds an account and erased after one that drops it, and list skips a
// marker whose group no longer names the caller.
#pragma once

#include <platform/sdk.hpp>
#include <string>

class Groups {
public:
    static void describe(platform::ServiceSpec<Groups>& s);
    explicit Groups(const platform::Host& host) : host_(host) {}

    platform::json create(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json read(platform::Request& r);
    platform::json update(platform::Request& r);

private:
    platform::Collection records() const;
    platform::Collection index(const std::string& account) const;
    // The group as read answers it: members and invitations as arrays, room = id.
    static platform::json view(const platform::json& group);

    platform::Host host_;
};
