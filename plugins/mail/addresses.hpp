// addresses — who a letter goes to: a local account (its handle), optionally with a plus tag, or
// an address outside the instance.
//
//   "bob"                 the account bob
//   "bob+work"            the account bob, filed under tag "work" (when "bob+work" is no account)
//   "bob+work@<domain>"   the same, where <domain> is the instance's mail domain
//   "x@example.org"       an outside address (leaves over SMTP)
//
// A handle is an account id; its address is handle@domain when the instance has a mail domain.
// Account ids may hold '+' and '@' themselves: a name that is an account as a whole is that
// account, and only otherwise is it split at its first '+'. Whether a name is an account is asked
// of the auth service (common::accounts); where it keeps no list (auth-noop) every name is taken.
#pragma once

#include <optional>
#include <platform/sdk.hpp>
#include <string>

namespace mail {

// What a tag may be: 1 to 64 of a-z 0-9 . _ - (tags are compared in lower case).
inline constexpr const char* kTagPattern = "^[A-Za-z0-9._-]{1,64}$";
inline constexpr std::size_t kMaxTag = 64;

// One resolved recipient.
struct Recipient {
    bool outside = false;
    std::string account;  // local: the account the letter is filed for
    std::string tag;      // local: the plus tag, lower case ("" for none)
    std::string address;  // outside: the address as given
};

// Whether `tag` matches kTagPattern.
bool valid_tag(const std::string& tag);

// Whether `address` is an outside address this service sends to: local@domain, at most 254
// characters, the local part 1-64 of letters, digits and !#$%&'*+/=?^_`{|}~.- (no leading,
// trailing or doubled dot), the domain at least two dot-separated DNS labels.
bool valid_address(const std::string& address);

// Resolves `to` (a username, username+tag, or an address) for the mail domain `domain` ("" for
// none). Throws invalid_argument naming `to` for a malformed name, address or tag, and not_found
// for a name that is no account where the auth service lists them. Blocking (the auth service).
Recipient resolve(const platform::Host& host, const std::string& to, const std::string& domain);

// "handle@domain", or nullopt without a domain.
std::optional<std::string> address_of(const std::string& handle, const std::string& domain);

}  // namespace mail
