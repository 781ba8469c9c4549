// platform/sdk/auth_provider.hpp — a platform_auth_provider_t from a C++ class.
//
//   class MyAuth {
//   public:
//       MyAuth(const platform::Host& host, const platform::json& config);
//       // The identity JSON for a credential ("" = anonymous: "{}"); nullopt, or throwing
//       // platform::unauthenticated(...), for a credential that is malformed, forged, expired or
//       // revoked.
//       std::optional<std::string> authenticate(std::string_view credential);
//       // Optional, both or neither (ABI 1.3): the rule set's version and the rules as a JSON array.
//       uint64_t rules_version();
//       std::string rules();
//   };
//   PLATFORM_PROVIDER(MyAuth, PLATFORM_KIND_AUTH, "auth-mine", "1.0.0", "My accounts",
//                     &platform::AuthProviderTable<MyAuth>::table)
//
// The adapter wires `rules_version`/`rules` only when T has both (else NULL: the host then uses
// the default rule alone), and never lets an exception cross the ABI: an Error keeps its code,
// anything else is PLATFORM_INTERNAL; a throwing rules_version() reads as 0.
#pragma once

#include <platform/abi.h>

#include <cstdint>
#include <optional>
#include <platform/sdk/entry.hpp>
#include <platform/sdk/error.hpp>
#include <platform/sdk/str.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace platform {

template <class T>
struct AuthProviderTable {
    static T* self(void* inst) { return static_cast<T*>(inst); }

    template <class U, class = void>
    struct has_rules : std::false_type {};
    template <class U>
    struct has_rules<U, std::void_t<decltype(std::declval<U&>().rules_version()),
                                    decltype(std::declval<U&>().rules())>> : std::true_type {};

    static platform_status_t authenticate(void* inst, platform_str_t credential,
                                          platform_bytes_sink_fn sink, void* user) {
        bool known = false;
        auto g = guard([&] {
            std::optional<std::string> identity = self(inst)->authenticate(view(credential));
            if (!identity) return;
            known = true;
            if (sink) sink(user, view(*identity));
        });
        return g != PLATFORM_OK ? g : (known ? PLATFORM_OK : PLATFORM_UNAUTHENTICATED);
    }

    static uint64_t rules_version(void* inst) {
        if constexpr (has_rules<T>::value) {
            try {
                return static_cast<uint64_t>(self(inst)->rules_version());
            } catch (...) {
                return 0;
            }
        }
        (void)inst;
        return 0;
    }

    static platform_status_t rules(void* inst, platform_bytes_sink_fn sink, void* user) {
        if constexpr (has_rules<T>::value) {
            return guard([&] {
                if (!sink) throw invalid_argument("sink: must not be NULL");
                std::string out = self(inst)->rules();
                sink(user, view(out));
            });
        }
        (void)inst, (void)sink, (void)user;
        return PLATFORM_UNSUPPORTED;
    }

    static inline const platform_auth_provider_t table = {
        sizeof(platform_auth_provider_t), authenticate,
        has_rules<T>::value ? &AuthProviderTable::rules_version : nullptr,
        has_rules<T>::value ? &AuthProviderTable::rules : nullptr};
};

}  // namespace platform
