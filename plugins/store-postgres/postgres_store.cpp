// store-postgres — table operations over the pooled connections.
#include "postgres_store.hpp"

#include <platform/sdk/error.hpp>
#include <stdexcept>

namespace store_postgres {

namespace {

constexpr const char* kName = "store-postgres";

// Largest key and value accepted. A bytea field may hold 1 GB, but results come back hex-encoded
// (twice the size) and both ends hold a copy; 256 MiB keeps one call's memory bounded. The primary
// key's B-tree limits (table, key) further, to about 2.7 kB (PostgreSQL answers 54000 beyond).
constexpr size_t kMaxValue = size_t{256} << 20;
constexpr int kBatchAttempts = 3;  // a batch that deadlocked with another is run again

void check_size(std::string_view what, std::string_view bytes) {
    if (bytes.size() > kMaxValue)
        throw platform::Error(platform::Code::payload_too_large,
                              std::string(kName) + ": " + std::string(what) + " is over 256 MiB");
}

pqxx::binarystring blob(std::string_view b) {
    return pqxx::binarystring(b.empty() ? "" : b.data(), b.size());
}

std::string_view bytes(const pqxx::binarystring& b) {
    return {reinterpret_cast<const char*>(b.data()), b.size()};
}

// 40001 serialization failure, 40P01 deadlock: the transaction was rolled back and may be re-run.
bool retryable(const pqxx::sql_error& e) {
    return e.sqlstate() == "40001" || e.sqlstate() == "40P01";
}

// A server error as the platform error the host maps to HTTP.
[[noreturn]] void fail(const platform::Host& host, const char* op, const pqxx::sql_error& e) {
    const std::string state = e.sqlstate();
    std::string msg = std::string(kName) + ": " + op + ": " + e.what();
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    if (!state.empty()) msg += " (SQLSTATE " + state + ")";
    // 54xxx program limit exceeded: an index row (key) or a field too large.
    if (state.rfind("54", 0) == 0) throw platform::Error(platform::Code::payload_too_large, msg);
    host.error(msg);
    // 08 connection, 40 rollback, 53 insufficient resources (disk full, too many connections),
    // 57 operator intervention (shutdown, cancel), 58 system error (I/O).
    for (const char* cls : {"08", "40", "53", "57", "58"})
        if (state.rfind(cls, 0) == 0) throw platform::unavailable(msg);
    throw platform::internal(msg);
}

Pool open_pool(const Config& config) {
    try {
        return Pool(config);
    } catch (const std::exception& e) {
        std::string why = e.what();
        while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
        throw std::runtime_error(std::string(kName) + ": cannot use PostgreSQL at '" +
                                 redact(config.dsn) + "' (schema '" + config.schema + "'): " + why);
    }
}

}  // namespace

PostgresStore::PostgresStore(const platform::Host& host, const platform::json& config)
    : host_(host), config_(read_config(config)), pool_(open_pool(config_)) {
    host_.info(std::string(kName) + ": connected to '" + redact(config_.dsn) + "', table " +
               pool_.table() + ", up to " + std::to_string(config_.pool_size) + " connections");
}

template <class F>
auto PostgresStore::run(const char* op, bool retry, F&& fn) {
    for (int attempt = 0;; ++attempt) {
        try {
            auto lease = pool_.acquire();
            try {
                return fn(*lease);
            } catch (const pqxx::broken_connection&) {
                lease.discard();
                throw;
            } catch (const pqxx::in_doubt_error&) {
                lease.discard();
                throw;
            }
        } catch (const pqxx::broken_connection& e) {
            if (retry && attempt == 0) continue;
            std::string msg =
                std::string(kName) + ": " + op + ": connection to PostgreSQL lost: " + e.what();
            host_.error(msg);
            throw platform::unavailable(msg);
        } catch (const pqxx::in_doubt_error& e) {
            std::string msg =
                std::string(kName) + ": " + op +
                ": the connection broke during COMMIT; the outcome is unknown: " + e.what();
            host_.error(msg);
            throw platform::unavailable(msg);
        } catch (const pqxx::sql_error& e) {
            fail(host_, op, e);
        } catch (const pqxx::failure& e) {
            std::string msg = std::string(kName) + ": " + op + ": " + e.what();
            host_.error(msg);
            throw platform::unavailable(msg);
        }
    }
}

void PostgresStore::seen(int64_t now_ms) {
    latest_now_.store(now_ms, std::memory_order_relaxed);
}

bool PostgresStore::get(std::string_view table, std::string_view key, int64_t now_ms,
                        const ValueFn& fn) {
    seen(now_ms);
    auto r = run("get", true, [&](pqxx::connection& c) {
        pqxx::nontransaction tx(c);
        return tx.exec_prepared(stmt::get, blob(table), blob(key), now_ms);
    });
    if (r.empty()) return false;
    pqxx::binarystring v(r[0][0]);
    fn(bytes(v));  // the connection is back in the pool: fn may call the store again
    return true;
}

void PostgresStore::put(std::string_view table, std::string_view key, std::string_view value,
                        int64_t expires_at_ms) {
    check_size("key", key);
    check_size("value", value);
    run("put", true, [&](pqxx::connection& c) {
        {
            pqxx::nontransaction tx(c);  // closed before the purge opens its own
            tx.exec_prepared(stmt::put, blob(table), blob(key), blob(value),
                             expires_at_ms > 0 ? expires_at_ms : int64_t{0});
        }
        maybe_purge(c);
        return 0;
    });
}

void PostgresStore::maybe_purge(pqxx::connection& c) {
    int64_t now = latest_now_.load(std::memory_order_relaxed);
    if (now <= 0 || puts_.fetch_add(1, std::memory_order_relaxed) % kPurgeEvery != kPurgeEvery - 1)
        return;
    try {
        pqxx::nontransaction tx(c);
        tx.exec_prepared(stmt::purge, now);
    } catch (const pqxx::sql_error& e) {  // the put itself succeeded; try again later
        host_.warn(std::string(kName) + ": purge of expired records failed: " + e.what());
    }
}

bool PostgresStore::del(std::string_view table, std::string_view key) {
    return run("delete", false, [&](pqxx::connection& c) {
        pqxx::nontransaction tx(c);
        return tx.exec_prepared(stmt::del, blob(table), blob(key)).affected_rows() > 0;
    });
}

bool PostgresStore::cas(std::string_view table, std::string_view key,
                        std::optional<std::string_view> expected,
                        std::optional<std::string_view> value, int64_t expires_at_ms,
                        int64_t now_ms) {
    seen(now_ms);
    check_size("key", key);
    if (value) check_size("value", *value);
    if (expected) check_size("expected value", *expected);
    const int64_t expires = expires_at_ms > 0 ? expires_at_ms : 0;
    // Each case is one statement, atomic on its own (pool.cpp says why); not retried after a
    // broken connection, whose statement may have run.
    const bool swapped = run("compare-and-set", false, [&](pqxx::connection& c) {
        pqxx::nontransaction tx(c);
        if (!expected && value)
            return tx.exec_prepared(stmt::cas_insert, blob(table), blob(key), blob(*value), expires,
                                    now_ms)
                       .affected_rows() == 1;
        if (expected && value)
            return tx.exec_prepared(stmt::cas_update, blob(table), blob(key), blob(*value), expires,
                                    now_ms, blob(*expected))
                       .affected_rows() == 1;
        if (expected)
            return tx.exec_prepared(stmt::cas_delete, blob(table), blob(key), now_ms,
                                    blob(*expected))
                       .affected_rows() == 1;
        auto r = tx.exec_prepared(stmt::cas_absent, blob(table), blob(key), now_ms);
        return !r[0][0].as<bool>();
    });
    if (swapped && value)
        run("compare-and-set", false, [&](pqxx::connection& c) {
            maybe_purge(c);
            return 0;
        });
    return swapped;
}

void PostgresStore::batch(std::string_view table, const std::vector<platform::BatchOp>& ops) {
    for (const auto& op : ops) {
        check_size("key", op.key);
        check_size("value", op.value);
    }
    if (ops.empty()) return;
    // A broken connection before COMMIT applied nothing, so run() may retry it on a fresh one.
    run("batch", true, [&](pqxx::connection& c) {
        for (int attempt = 1;; ++attempt) {
            try {
                // One transaction: a failure (or a throw) before commit() rolls every op back.
                pqxx::work w(c);
                for (const auto& op : ops) {
                    if (op.kind == platform::BatchOp::put)
                        w.exec_prepared(stmt::put, blob(table), blob(op.key), blob(op.value),
                                        op.expires_at_ms > 0 ? op.expires_at_ms : int64_t{0});
                    else
                        w.exec_prepared(stmt::del, blob(table), blob(op.key));
                }
                w.commit();
                break;
            } catch (const pqxx::sql_error& e) {
                // Deadlocked with a concurrent batch (or a serialization failure): the server
                // rolled it back whole, so it can run again.
                if (!retryable(e) || attempt >= kBatchAttempts) throw;
            }
        }
        maybe_purge(c);
        return 0;
    });
}

std::vector<std::string> PostgresStore::tables() {
    auto r = run("tables", true, [&](pqxx::connection& c) {
        pqxx::nontransaction tx(c);
        return tx.exec_prepared(stmt::tables);
    });
    std::vector<std::string> out;
    out.reserve(r.size());
    for (const auto& row : r) out.emplace_back(pqxx::binarystring(row[0]).str());
    return out;
}

void PostgresStore::scan(std::string_view table, const ScanQuery& q, int64_t now_ms,
                         const RowFn& fn) {
    seen(now_ms);
    auto upper = platform::prefix_successor(q.prefix);
    const int64_t limit = q.limit ? static_cast<int64_t>(q.limit) : INT64_MAX;
    const int64_t offset = q.offset;
    auto r = run("scan", true, [&](pqxx::connection& c) {
        pqxx::nontransaction tx(c);
        const char* s = stmt::scan(upper.has_value(), q.descending);
        if (upper)
            return tx.exec_prepared(s, blob(table), blob(q.prefix), now_ms, limit, offset,
                                    blob(*upper));
        return tx.exec_prepared(s, blob(table), blob(q.prefix), now_ms, limit, offset);
    });
    // The connection is back in the pool: the sink may call the store again.
    for (const auto& row : r) {
        pqxx::binarystring k(row[0]), v(row[1]);
        if (!fn(bytes(k), bytes(v))) break;
    }
}

}  // namespace store_postgres
