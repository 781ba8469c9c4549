// events-sqlite — the exported entry: the SDK's events adapter over SqliteEvents.
#include <platform/sdk/events_provider.hpp>
#include <platform/sdk/provider.hpp>

#include "sqlite_events.hpp"

namespace events_sqlite {
using Table = platform::EventsProviderTable<SqliteEvents, /*persistent=*/true>;
}

PLATFORM_PROVIDER(events_sqlite::SqliteEvents, PLATFORM_KIND_EVENTS, "events-sqlite", "1.0.0",
                  "Durable ordered event streams per topic on one SQLite file (WAL)",
                  &events_sqlite::Table::table)
