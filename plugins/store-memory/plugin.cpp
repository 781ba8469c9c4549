// store-memory — the exported entry: the SDK's store adapter over MemoryStore.
#include <platform/sdk/provider.hpp>

#include "memory_store.hpp"

namespace store_memory {
using Table =
    platform::StoreProviderTable<MemoryStore, PLATFORM_STORE_TTL | PLATFORM_STORE_PREFIX |
                                                  PLATFORM_STORE_ORDER | PLATFORM_STORE_CAS |
                                                  PLATFORM_STORE_TRANSACTIONS>;
}

PLATFORM_PROVIDER(
    store_memory::MemoryStore, PLATFORM_KIND_STORE, "store-memory", "1.1.0",
    "In-memory key-value store (ordered, TTL, prefix scans, compare-and-set, atomic batches)",
    &store_memory::Table::table)
