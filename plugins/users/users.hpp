// users — the accounts of the platform as other people see them: find by text, get by id, list
// (online first). Who is listed and where it comes from is in directory.hpp.
//
// A user is {"id", "name" (display name, else the id), "type", "agent", "online", "last_seen"}:
// nothing else of an account (scopes, metadata, secrets) leaves this service. Every method needs
// an account. Stateless: the only storage is the activity the host writes into this plugin's
// table.
#pragma once

#include <platform/sdk.hpp>

class Users {
public:
    static void describe(platform::ServiceSpec<Users>& s);
    explicit Users(const platform::Host& host) : host_(host) {}

    platform::json find(platform::Request& r);
    platform::json get(platform::Request& r);
    platform::json list(platform::Request& r);

private:
    platform::Host host_;
};
