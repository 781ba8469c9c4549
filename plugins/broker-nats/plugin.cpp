// broker-nats — the C table: static functions that cast `inst` and never throw.
#include <platform/sdk/provider.hpp>

#include "broker.hpp"

namespace broker_nats {

namespace {

NatsBroker* self(void* inst) {
    return static_cast<NatsBroker*>(inst);
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

const platform_broker_provider_t NatsBroker::table = {
    sizeof(platform_broker_provider_t),
    &abi_publish,
    &abi_subscribe,
    &abi_unsubscribe,
};

}  // namespace broker_nats

PLATFORM_PROVIDER(broker_nats::NatsBroker, PLATFORM_KIND_BROKER, "broker-nats", "1.0.0",
                  "Pub/sub broker with queue groups over core NATS subjects",
                  &broker_nats::NatsBroker::table)
