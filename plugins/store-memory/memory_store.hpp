// store-memory — the platform_store_provider_t kept in process memory.
//
// One ordered map per table, keyed by raw bytes. std::string compares through
// char_traits<char>, which orders as unsigned char, so iteration order is bytewise (memcmp).
// Readers share a std::shared_mutex; writers take it exclusively. Sinks are always called after
// the lock is released, so a sink may call back into the store.
//
// TTL: a record with 0 < expires_at_ms <= now_ms is invisible to get, scan and cas. Expired
// records are purged lazily by put, against the latest now_ms any reader has passed in.
//
// Compare-and-set and batches (PLATFORM_STORE_CAS, PLATFORM_STORE_TRANSACTIONS) run under the
// exclusive lock, so no reader sees a batch half applied and no write slips between a compare and
// its set. (A batch that runs out of memory half way is the one way to break all-or-nothing here;
// the process is then in trouble anyway.)
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <platform/sdk/host.hpp>
#include <platform/sdk/store_provider.hpp>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace store_memory {

using platform::ScanQuery;

using Row = std::pair<std::string, std::string>;

class MemoryStore {
public:
    MemoryStore(const platform::Host& host, const platform::json& config);

    std::optional<std::string> get(std::string_view table, std::string_view key,
                                   int64_t now_ms) const;
    void put(std::string_view table, std::string_view key, std::string value,
             int64_t expires_at_ms);
    bool del(std::string_view table, std::string_view key);  // false when there was no record
    std::vector<Row> scan(std::string_view table, const ScanQuery& q, int64_t now_ms) const;
    // True when the live value matched `expected` (nullopt: absent) and the write happened.
    bool cas(std::string_view table, std::string_view key, std::optional<std::string_view> expected,
             std::optional<std::string_view> value, int64_t expires_at_ms, int64_t now_ms);
    void batch(std::string_view table, const std::vector<platform::BatchOp>& ops);

    // The shape platform::StoreProviderTable adapts. Sinks run after the lock is released.
    bool get(std::string_view table, std::string_view key, int64_t now_ms,
             const platform::ValueFn& fn) const {
        auto v = get(table, key, now_ms);
        if (v) fn(*v);
        return v.has_value();
    }
    void put(std::string_view table, std::string_view key, std::string_view value,
             int64_t expires_at_ms) {
        put(table, key, std::string(value), expires_at_ms);
    }
    std::vector<std::string> tables() const;
    void scan(std::string_view table, const ScanQuery& q, int64_t now_ms,
              const platform::RowFn& fn) const {
        for (const auto& [k, v] : scan(table, q, now_ms))
            if (!fn(k, v)) break;
    }

private:
    struct Record {
        std::string value;
        int64_t expires_at_ms = 0;  // 0 = never
    };
    struct Table {
        std::map<std::string, Record, std::less<>> records;
        std::set<std::pair<int64_t, std::string>, std::less<>> expiries;  // TTL'd records only
    };

    static bool expired(const Record& r, int64_t now_ms) {
        return r.expires_at_ms > 0 && r.expires_at_ms <= now_ms;
    }
    void seen(int64_t now_ms) const;
    static void purge(Table& t, int64_t now_ms);
    // With the exclusive lock held.
    Table& table_for_write(std::string_view table);
    static void set(Table& t, std::string key, std::string value, int64_t expires_at_ms);
    bool erase(std::string_view table, std::string_view key);

    platform::Host host_;
    mutable std::shared_mutex mutex_;
    std::map<std::string, Table, std::less<>> tables_;
    mutable std::atomic<int64_t> latest_now_{0};
};

}  // namespace store_memory
