// auth-noop — the platform_auth_provider_t of the `test` profile.
//
// The bearer token text IS the account id: "alice" authenticates as the user "alice" with the
// configured scopes. No token is anonymous (`{}`), unless `anonymous_account` names an account
// for single-user mode, which then also gets the `admin` scope. A token must be printable ASCII
// without spaces (0x21..0x7E) and at most 256 bytes, else UNAUTHENTICATED. Nothing is checked
// against any secret: never use this provider where the network is not trusted.
#pragma once

#include <optional>
#include <platform/sdk/host.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace auth_noop {

class NoopAuth {
public:
    // config: {"anonymous_account": "", "scopes": [], "admins": [], "issuer": "go.core.api"}
    NoopAuth(const platform::Host& host, const platform::json& config);

    static constexpr size_t kMaxCredential = 256;

    // The account JSON for a credential; nullopt when the credential is malformed. Wired into
    // the C table by platform::AuthProviderTable (plugin.cpp).
    std::optional<std::string> authenticate(std::string_view credential) const;

    static bool valid_credential(std::string_view credential);

private:
    std::string account(std::string_view id, const std::vector<std::string>& scopes) const;

    std::string issuer_;
    std::vector<std::string> scopes_;
    std::vector<std::string> admins_;  // accounts that also get the `admin` scope
    std::string anonymous_;            // the answer for an empty credential
};

}  // namespace auth_noop
