// auth-noop — the C table, from the SDK's adapter (platform/sdk/auth_provider.hpp). auth-noop has
// no rules of its own, so the table's rules_version/rules are NULL: the host uses the default rule.
#include <platform/sdk/auth_provider.hpp>
#include <platform/sdk/provider.hpp>

#include "auth_noop.hpp"

PLATFORM_PROVIDER(auth_noop::NoopAuth, PLATFORM_KIND_AUTH, "auth-noop", "1.0.0",
                  "Test authentication: the bearer token is the account id",
                  &platform::AuthProviderTable<auth_noop::NoopAuth>::table)
