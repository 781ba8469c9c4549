// platform/host/core/identity.hpp — who a call runs as (docs/identity.md).
//
// Built from the identity JSON the auth provider lends for a credential, or by the host for its
// own service accounts. The credential part carries the restrictions of the token used: a
// services token, a list of services, capabilities, and for a browser session the CSRF token
// its state-changing requests must echo.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace platform::host {

struct Identity {
    std::string id;  // empty = anonymous
    std::string type, issuer, name;
    std::vector<std::string> scopes;
    nlohmann::json metadata = nlohmann::json::object();

    std::string credential_kind;  // access | personal | services | session; "" = unrestricted
    std::string credential_id;
    std::string csrf;                                      // sessions only
    std::vector<std::string> services;                     // empty: every service
    std::optional<std::vector<std::string>> capabilities;  // nullopt: every capability

    bool anonymous() const { return id.empty(); }
    bool has_scope(const std::string& s) const;
    bool has_capability(const std::string& c) const;
    std::string scopes_csv() const;

    // From the provider's identity JSON; nullopt when it is not an object.
    static std::optional<Identity> from_json(const nlohmann::json& j);
};

}  // namespace platform::host
