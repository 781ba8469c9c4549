// platform/sdk/broker_provider.hpp — the C table of a broker provider (abi.h platform_broker_provider_t)
// from a C++ class, so each broker writes only its logic:
//
//   class MemoryBroker {
//   public:
//       MemoryBroker(const platform::Host& host, const platform::json& config);
//       void publish(std::string_view topic, std::string_view body, std::string_view headers);
//       uint64_t subscribe(std::string_view topic, std::string_view queue,
//                          platform_message_fn fn, void* user);
//       bool unsubscribe(uint64_t id);  // false: no such subscription (NOT_FOUND)
//   };
//   PLATFORM_PROVIDER(MemoryBroker, PLATFORM_KIND_BROKER, "broker-memory", "1.0.0",
//                     "In-process pub/sub broker", &platform::BrokerProviderTable<MemoryBroker>::table)
//
// Each function casts `inst` to the T* the provider runtime created and runs the method inside
// platform::guard, so an exception becomes its status and never crosses the C boundary.
#pragma once

#include <platform/abi.h>

#include <platform/sdk/entry.hpp>
#include <platform/sdk/str.hpp>

namespace platform {

template <class T>
struct BrokerProviderTable {
    static platform_status_t publish(void* inst, platform_str_t topic, platform_str_t body,
                                     platform_str_t headers_json) {
        return guard(
            [&] { static_cast<T*>(inst)->publish(view(topic), view(body), view(headers_json)); });
    }
    static platform_status_t subscribe(void* inst, platform_str_t topic, platform_str_t queue,
                                       platform_message_fn fn, void* user,
                                       uint64_t* out_subscription) {
        return guard([&] {
            if (!out_subscription) throw invalid_argument("out_subscription: must not be NULL");
            *out_subscription =
                static_cast<T*>(inst)->subscribe(view(topic), view(queue), fn, user);
        });
    }
    static platform_status_t unsubscribe(void* inst, uint64_t subscription) {
        platform_status_t st = PLATFORM_OK;
        const platform_status_t g = guard([&] {
            if (!static_cast<T*>(inst)->unsubscribe(subscription)) st = PLATFORM_NOT_FOUND;
        });
        return g != PLATFORM_OK ? g : st;
    }

    static constexpr platform_broker_provider_t table = {sizeof(platform_broker_provider_t),
                                                         &publish, &subscribe, &unsubscribe};
};

}  // namespace platform
