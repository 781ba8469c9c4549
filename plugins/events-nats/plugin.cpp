// events-nats — the exported entry: the SDK's events adapter over NatsEvents.
#include <platform/sdk/events_provider.hpp>
#include <platform/sdk/provider.hpp>

#include "nats_events.hpp"

namespace events_nats {
using Table = platform::EventsProviderTable<NatsEvents, /*persistent=*/true>;
}

PLATFORM_PROVIDER(events_nats::NatsEvents, PLATFORM_KIND_EVENTS, "events-nats", "1.0.0",
                  "Durable ordered event streams per topic on NATS JetStream (file storage)",
                  &events_nats::Table::table)
