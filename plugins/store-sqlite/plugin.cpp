// store-sqlite — the C table: static functions that cast `inst` and never throw.
#include "sqlite_store.hpp"

#include <platform/sdk/provider.hpp>

namespace store_sqlite {

namespace {

SqliteStore* self(void* inst) { return static_cast<SqliteStore*>(inst); }

platform_str_t bytes(std::string_view s) { return platform_str_t{s.empty() ? "" : s.data(), s.size()}; }

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
        bool found = self(inst)->get(platform::view(table), platform::view(key), now_ms,
                                     [&](std::string_view v) { if (sink) sink(user, bytes(v)); });
        if (!found) st = PLATFORM_NOT_FOUND;
    });
    return g != PLATFORM_OK ? g : st;
}

platform_status_t abi_put(void* inst, platform_str_t table, platform_str_t key, platform_str_t value,
                      int64_t expires_at_ms) {
    return platform::guard([&] {
        self(inst)->put(platform::view(table), platform::view(key), platform::view(value), expires_at_ms);
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
        self(inst)->scan(platform::view(table), query_of(s), now_ms,
                         [&](std::string_view k, std::string_view v) { return !sink || sink(user, bytes(k), bytes(v)); });
    });
}

}  // namespace

const platform_store_provider_t SqliteStore::table = {
    sizeof(platform_store_provider_t),
    PLATFORM_STORE_TTL | PLATFORM_STORE_PREFIX | PLATFORM_STORE_ORDER | PLATFORM_STORE_PERSISTENT,
    &abi_get, &abi_put, &abi_del, &abi_scan,
};

}  // namespace store_sqlite

PLATFORM_PROVIDER(store_sqlite::SqliteStore, PLATFORM_KIND_STORE, "store-sqlite", "1.0.0",
                  "Durable key-value store on one SQLite file (WAL)", &store_sqlite::SqliteStore::table)
