// links — outside addresses an account has linked to itself, so that mail from that address to
// the agent (agent@<domain>, agent+<name>@<domain>) runs as the account (agent_mail.hpp).
//
// An account links at most one address (`mail/link {address}`; an empty address unlinks). An
// address belongs to at most one account (409 for a second). Linking takes a grant to act for the
// account later (Request::grant, as calendar events do), kept with the link and never shown; it is
// revoked when the account unlinks or links another address. Storage, this plugin's store:
//
//   links/<account>/address        {address, linked}         (owner-scoped: the account's link)
//   link-by-address/<address>      {account, grant}          (plain key: the reverse lookup)
//
// Addresses are kept in lower case and compared so. The link is the account's word that the
// address is its own: nothing is mailed to confirm it (see README, "Mail to the agent").
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>

namespace mail {

struct Link {
    std::string account, grant;
};

class Links {
public:
    explicit Links(const platform::Host& host) : host_(host) {}

    // Links `address` (checked by the caller) to `account` with `grant`, replacing the account's
    // earlier link (its grant is revoked). Throws conflict when another account holds the address;
    // then `grant` is revoked here.
    void link(const std::string& account, const std::string& address,
              const std::string& grant) const;
    // Removes the account's link; false when it had none.
    bool unlink(const std::string& account) const;

    // The address `account` linked, or nullopt.
    std::optional<std::string> address_of(const std::string& account) const;
    // Who linked `address` (any case), or nullopt.
    std::optional<Link> find(const std::string& address) const;

private:
    platform::Collection mine(const std::string& account) const {
        return platform::Collection(host_.store(), "links", account);
    }
    static std::string key(const std::string& address) { return "link-by-address/" + address; }

    platform::Host host_;
};

}  // namespace mail
