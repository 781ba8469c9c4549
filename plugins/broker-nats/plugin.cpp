// broker-nats — the provider's entry: the C table is the SDK's (platform/sdk/broker_provider.hpp)
// over NatsBroker's methods.
#include <platform/sdk/broker_provider.hpp>
#include <platform/sdk/provider.hpp>

#include "broker.hpp"

PLATFORM_PROVIDER(broker_nats::NatsBroker, PLATFORM_KIND_BROKER, "broker-nats", "1.0.0",
                  "Pub/sub broker with queue groups over core NATS subjects",
                  &platform::BrokerProviderTable<broker_nats::NatsBroker>::table)
