// broker-memory — the provider's entry: the C table is the SDK's (platform/sdk/broker_provider.hpp)
// over MemoryBroker's methods.
#include <platform/sdk/broker_provider.hpp>
#include <platform/sdk/provider.hpp>

#include "broker.hpp"

PLATFORM_PROVIDER(broker_memory::MemoryBroker, PLATFORM_KIND_BROKER, "broker-memory", "1.0.0",
                  "In-process pub/sub broker with queue groups",
                  &platform::BrokerProviderTable<broker_memory::MemoryBroker>::table)
