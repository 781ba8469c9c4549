// store-postgres — the exported entry: the SDK's store adapter over PostgresStore.
#include <platform/sdk/provider.hpp>

#include "postgres_store.hpp"

namespace store_postgres {
using Table = platform::StoreProviderTable<PostgresStore,
                                           PLATFORM_STORE_TTL | PLATFORM_STORE_PREFIX |
                                               PLATFORM_STORE_ORDER | PLATFORM_STORE_PERSISTENT |
                                               PLATFORM_STORE_CAS | PLATFORM_STORE_TRANSACTIONS>;
}

PLATFORM_PROVIDER(store_postgres::PostgresStore, PLATFORM_KIND_STORE, "store-postgres", "1.0.0",
                  "Key-value store on PostgreSQL (libpqxx), shared by every replica",
                  &store_postgres::Table::table)
