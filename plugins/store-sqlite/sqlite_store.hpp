// store-sqlite — the platform_store_provider_t on one SQLite file (SQLiteCpp).
//
// All tables share one SQL table `records(tbl, key, value, expires_at)` WITHOUT ROWID, keyed by
// (tbl, key). Keys and values are BLOBs, so NUL bytes survive and ORDER BY key is bytewise
// (memcmp). A prefix scan is the key range [prefix, successor(prefix)). Expired rows are
// filtered in SQL and purged lazily by put. WAL mode with synchronous=FULL: a put that returned
// OK survives a crash or power loss. Compare-and-set and batches each run in one
// BEGIN IMMEDIATE transaction on a pooled connection: the write lock is taken before the compare,
// so no other write slips in between, and a batch commits whole or rolls back.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <platform/sdk/host.hpp>
#include <platform/sdk/store_provider.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "connection.hpp"

namespace store_sqlite {

using platform::RowFn;
using platform::ScanQuery;
using platform::ValueFn;

class SqliteStore {
public:
    // config: {"path": "<database file>"}. Creates parent directories. Throws naming the path.
    SqliteStore(const platform::Host& host, const platform::json& config);

    bool get(std::string_view table, std::string_view key, int64_t now_ms, const ValueFn& fn);
    void put(std::string_view table, std::string_view key, std::string_view value,
             int64_t expires_at_ms);
    bool del(std::string_view table, std::string_view key);  // false when there was no record
    void scan(std::string_view table, const ScanQuery& q, int64_t now_ms, const RowFn& fn);
    std::vector<std::string> tables();  // tables holding records, sorted
    // True when the live value matched `expected` (nullopt: absent) and the write committed.
    bool cas(std::string_view table, std::string_view key, std::optional<std::string_view> expected,
             std::optional<std::string_view> value, int64_t expires_at_ms, int64_t now_ms);
    void batch(std::string_view table, const std::vector<platform::BatchOp>& ops);

private:
    [[noreturn]] void fail(const char* op,
                           const SQLite::Exception& e) const;  // as a platform error
    void seen(int64_t now_ms);
    void maybe_purge(Connection& c);

    static constexpr uint64_t kPurgeEvery = 128;  // puts between two purges of expired rows
    platform::Host host_;
    Pool pool_;
    std::atomic<int64_t> latest_now_{0};
    std::atomic<uint64_t> puts_{0};
    // Writes take this before SQLite's write lock: SQLite's busy handler polls with sleeps of up to
    // 100 ms, so under many concurrent writers one could lose every retry and fail with "database
    // is locked" after busy_timeout; queued here, writers of this process wait their turn instead.
    std::mutex writes_;
};

}  // namespace store_sqlite
