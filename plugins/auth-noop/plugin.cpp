// auth-noop — the C table: a static function that casts `inst` and never throws.
#include "auth_noop.hpp"

#include <platform/sdk/provider.hpp>

namespace auth_noop {

namespace {

platform_status_t abi_authenticate(void* inst, platform_str_t credential, platform_bytes_sink_fn sink, void* user) {
    platform_status_t st = PLATFORM_OK;
    platform_status_t g = platform::guard([&] {
        auto account = static_cast<const NoopAuth*>(inst)->authenticate(platform::view(credential));
        if (!account) st = PLATFORM_UNAUTHENTICATED;
        else if (sink) sink(user, platform::view(*account));
    });
    return g != PLATFORM_OK ? g : st;
}

}  // namespace

const platform_auth_provider_t NoopAuth::table = {
    sizeof(platform_auth_provider_t),
    &abi_authenticate,
};

}  // namespace auth_noop

PLATFORM_PROVIDER(auth_noop::NoopAuth, PLATFORM_KIND_AUTH, "auth-noop", "1.0.0",
                  "Test authentication: the bearer token is the account id", &auth_noop::NoopAuth::table)
