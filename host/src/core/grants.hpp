// host/src/core/grants.hpp — grants (abi.h 1.6): a plugin's standing permission to act later for
// an account that called it, with exactly that caller's identity and credential restrictions.
//
// A grant is created from a live call (grant_create) and used without one (grant_call_service):
// background work, an event's prompt at its time. Records live in the profile's store, table
// "_grants" (no plugin id starts with "_"), key "<plugin id>/<grant id>", so they outlive
// restarts and one plugin can never use another's. The id is 128 random bits in hex, prefixed
// "g-". The record is the caller's identity as admission saw it (account, scopes, metadata, the
// token's kind, id, services and capabilities; never a session's CSRF secret) and the namespace
// the call was made in.
//
// What a grant does not do (docs/decisions.md): it is a snapshot. Narrowing a token or a rule
// later does not narrow grants already made; the plugin revokes a grant when its job is over,
// and deleting the account's data (or the plugin's records) is the way to end them early.
#pragma once

#include <platform/abi.h>

#include <optional>
#include <platform/host/core/identity.hpp>
#include <string>

namespace platform::host {

class Runtime;
struct Plugin;

struct Grant {
    Identity who;
    std::string ns;  // Platform-Namespace of the call it was made from; "" = the host's
};

class Grants {
public:
    explicit Grants(Runtime& runtime) : runtime_(runtime) {}

    // A new grant of `plugin` for `who`: OK with its id, UNAUTHENTICATED for an anonymous
    // caller, UNAVAILABLE without a store provider.
    platform_status_t create(const Plugin& plugin, const Identity& who, const std::string& ns,
                             std::string& id) const;
    // The grant `id` of `plugin`, or nullopt (unknown, revoked, another plugin's).
    std::optional<Grant> find(const Plugin& plugin, const std::string& id) const;
    // OK, or NOT_FOUND when it is not one of `plugin`'s grants.
    platform_status_t revoke(const Plugin& plugin, const std::string& id) const;

    static constexpr const char* kTable = "_grants";

private:
    Runtime& runtime_;
};

// The identity as a grant keeps it (Identity::from_json reads it back).
nlohmann::json grant_record(const Identity& who, const std::string& ns);

}  // namespace platform::host
