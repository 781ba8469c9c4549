// store-sqlite — the exported entry: the SDK's store adapter over SqliteStore.
#include <platform/sdk/provider.hpp>

#include "sqlite_store.hpp"

namespace store_sqlite {
using Table =
    platform::StoreProviderTable<SqliteStore, PLATFORM_STORE_TTL | PLATFORM_STORE_PREFIX |
                                                  PLATFORM_STORE_ORDER | PLATFORM_STORE_PERSISTENT |
                                                  PLATFORM_STORE_CAS | PLATFORM_STORE_TRANSACTIONS>;
}

PLATFORM_PROVIDER(store_sqlite::SqliteStore, PLATFORM_KIND_STORE, "store-sqlite", "1.1.0",
                  "Durable key-value store on one SQLite file (WAL)", &store_sqlite::Table::table)
