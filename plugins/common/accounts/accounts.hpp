// common/accounts/accounts — the platform's accounts as the auth service lists them, for plugins
// that name other accounts (users lists them, groups invites them, chat opens direct rooms to
// them). A library linked by those plugins; not a plugin. Stateless; any thread; blocking (it calls
// the auth service), so call it from a handler.
//
// The list comes from the auth service's `listAccounts`, called as the plugin's service account
// (the host lets service accounts use the built-in services' admin methods). Only a profile whose
// auth provider keeps accounts serves it (auth-local). Under one that keeps none (auth-noop, where
// any bearer names an account) there is no list, and whether an account exists cannot be known:
// the functions say so with nullopt rather than guess.
#pragma once

#include <optional>
#include <platform/sdk/host.hpp>
#include <string>

namespace common::accounts {

// Every account of the server's namespace ({"id", "name", "type", "created", ...} each, ordered
// by id, never a secret), or nullopt when the profile's auth provider keeps no list (no auth
// service) or the list could not be read (logged as a warning through `host`).
std::optional<platform::json> listed(const platform::Host& host);

// Whether `id` is an account: true or false where the auth provider keeps a list, nullopt where
// it keeps none or the list could not be read.
std::optional<bool> known(const platform::Host& host, const std::string& id);

}  // namespace common::accounts
