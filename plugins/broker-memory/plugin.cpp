// broker-memory — the C table: static functions that cast `inst` and never throw.
#include <platform/sdk/provider.hpp>

#include "broker.hpp"

namespace broker_memory {

namespace {

MemoryBroker* self(void* inst) {
    return static_cast<MemoryBroker*>(inst);
}

platform_status_t abi_publish(void* inst, platform_str_t topic, platform_str_t body,
                              platform_str_t headers_json) {
    return platform::guard([&] {
        self(inst)->publish(platform::view(topic), platform::view(body),
                            platform::view(headers_json));
    });
}

platform_status_t abi_subscribe(void* inst, platform_str_t topic, platform_str_t queue,
                                platform_message_fn fn, void* user, uint64_t* out_subscription) {
    return platform::guard([&] {
        if (!out_subscription)
            throw platform::invalid_argument("out_subscription: must not be NULL");
        *out_subscription =
            self(inst)->subscribe(platform::view(topic), platform::view(queue), fn, user);
    });
}

platform_status_t abi_unsubscribe(void* inst, uint64_t subscription) {
    platform_status_t st = PLATFORM_OK;
    platform_status_t g = platform::guard([&] {
        if (!self(inst)->unsubscribe(subscription)) st = PLATFORM_NOT_FOUND;
    });
    return g != PLATFORM_OK ? g : st;
}

}  // namespace

const platform_broker_provider_t MemoryBroker::table = {
    sizeof(platform_broker_provider_t),
    &abi_publish,
    &abi_subscribe,
    &abi_unsubscribe,
};

}  // namespace broker_memory

PLATFORM_PROVIDER(broker_memory::MemoryBroker, PLATFORM_KIND_BROKER, "broker-memory", "1.0.0",
                  "In-process pub/sub broker with queue groups",
                  &broker_memory::MemoryBroker::table)
