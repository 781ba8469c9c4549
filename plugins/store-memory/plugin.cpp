// store-memory — the C table: static functions that cast `inst` and never throw.
#include "memory_store.hpp"

#include <platform/sdk/provider.hpp>

namespace store_memory {

namespace {

MemoryStore* self(void* inst) { return static_cast<MemoryStore*>(inst); }

// Reads a scan request, honouring the struct_size the host gave (absent fields keep defaults).
ScanQuery query_of(const platform_scan_t* s) {
    if (!s) throw platform::invalid_argument("scan: missing request");
    ScanQuery q;
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, prefix)) q.prefix = platform::view(s->prefix);
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, order)) q.descending = s->order == PLATFORM_ORDER_DESC;
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, limit)) q.limit = s->limit;
    if (PLATFORM_HAS_FIELD(platform_scan_t, s, offset)) q.offset = s->offset;
    return q;
}

platform_status_t abi_get(void* inst, platform_str_t table, platform_str_t key, int64_t now_ms,
                      platform_bytes_sink_fn sink, void* user) {
    platform_status_t st = PLATFORM_OK;
    platform_status_t g = platform::guard([&] {
        auto v = self(inst)->get(platform::view(table), platform::view(key), now_ms);
        if (!v) st = PLATFORM_NOT_FOUND;
        else if (sink) sink(user, platform::view(*v));
    });
    return g != PLATFORM_OK ? g : st;
}

platform_status_t abi_put(void* inst, platform_str_t table, platform_str_t key, platform_str_t value,
                      int64_t expires_at_ms) {
    return platform::guard([&] {
        self(inst)->put(platform::view(table), platform::view(key), platform::copy(value), expires_at_ms);
    });
}

platform_status_t abi_del(void* inst, platform_str_t table, platform_str_t key) {
    platform_status_t st = PLATFORM_OK;
    platform_status_t g = platform::guard([&] {
        if (!self(inst)->del(platform::view(table), platform::view(key))) st = PLATFORM_NOT_FOUND;
    });
    return g != PLATFORM_OK ? g : st;
}

platform_status_t abi_scan(void* inst, platform_str_t table, const platform_scan_t* s, int64_t now_ms,
                       platform_record_sink_fn sink, void* user) {
    return platform::guard([&] {
        auto rows = self(inst)->scan(platform::view(table), query_of(s), now_ms);
        if (!sink) return;
        for (const auto& [k, v] : rows)
            if (!sink(user, platform::view(k), platform::view(v))) break;
    });
}

}  // namespace

const platform_store_provider_t MemoryStore::table = {
    sizeof(platform_store_provider_t),
    PLATFORM_STORE_TTL | PLATFORM_STORE_PREFIX | PLATFORM_STORE_ORDER,
    &abi_get, &abi_put, &abi_del, &abi_scan,
};

}  // namespace store_memory

PLATFORM_PROVIDER(store_memory::MemoryStore, PLATFORM_KIND_STORE, "store-memory", "1.0.0",
                  "In-memory key-value store (ordered, TTL, prefix scans)", &store_memory::MemoryStore::table)
