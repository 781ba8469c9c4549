// store-postgres — the platform_store_provider_t on PostgreSQL (libpqxx 6).
//
// All store tables share one SQL table `<schema>.records(tbl bytea, key bytea, value bytea,
// expires_at bigint)` keyed by (tbl, key): bytea keeps NUL bytes and orders bytewise, so a prefix
// scan is the key range [prefix, successor(prefix)) on the primary key's B-tree. Every statement
// is prepared once per pooled connection. Single writes (put, del, every compare-and-set) are one
// autocommitted statement each; a batch is one transaction. Expired rows are filtered in SQL and
// purged every 128th put.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <platform/sdk/host.hpp>
#include <platform/sdk/store_provider.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"
#include "pool.hpp"

namespace store_postgres {

using platform::RowFn;
using platform::ScanQuery;
using platform::ValueFn;

class PostgresStore {
public:
    // config: {"dsn", "schema", "pool_size", "acquire_timeout_ms"} (config.hpp). Connects and
    // creates the schema; throws naming the server (password redacted) when it cannot.
    PostgresStore(const platform::Host& host, const platform::json& config);

    bool get(std::string_view table, std::string_view key, int64_t now_ms, const ValueFn& fn);
    void put(std::string_view table, std::string_view key, std::string_view value,
             int64_t expires_at_ms);
    bool del(std::string_view table, std::string_view key);  // false when there was no record
    void scan(std::string_view table, const ScanQuery& q, int64_t now_ms, const RowFn& fn);
    std::vector<std::string> tables();  // tables holding records, sorted bytewise
    // True when the live value matched `expected` (nullopt: absent) and the write happened.
    bool cas(std::string_view table, std::string_view key, std::optional<std::string_view> expected,
             std::optional<std::string_view> value, int64_t expires_at_ms, int64_t now_ms);
    void batch(std::string_view table, const std::vector<platform::BatchOp>& ops);

private:
    // Runs fn(connection) on a leased connection, mapping failures to platform errors. With
    // `retry`, a call that found its connection broken (the server restarted) runs once more on
    // a fresh one; only for calls that are safe to repeat.
    template <class F>
    auto run(const char* op, bool retry, F&& fn);
    void seen(int64_t now_ms);
    void maybe_purge(pqxx::connection& c);

    static constexpr uint64_t kPurgeEvery = 128;  // puts between two purges of expired rows
    platform::Host host_;
    Config config_;
    Pool pool_;
    std::atomic<int64_t> latest_now_{0};  // the business time of the most recent call
    std::atomic<uint64_t> puts_{0};
};

}  // namespace store_postgres
