// events-memory — the exported entry: the SDK's events adapter over MemoryEvents.
#include <platform/sdk/events_provider.hpp>
#include <platform/sdk/provider.hpp>

#include "memory_events.hpp"

namespace events_memory {
using Table = platform::EventsProviderTable<MemoryEvents, /*persistent=*/false>;
}

PLATFORM_PROVIDER(events_memory::MemoryEvents, PLATFORM_KIND_EVENTS, "events-memory", "1.0.0",
                  "In-memory ordered event streams per topic (not persistent)",
                  &events_memory::Table::table)
