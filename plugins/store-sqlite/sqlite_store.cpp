// store-sqlite — table operations over the pooled connections.
#include "sqlite_store.hpp"

#include <SQLiteCpp/Transaction.h>

#include <optional>

#include "common/sqlite/errors.hpp"

namespace store_sqlite {

using namespace common::sqlite;  // the statement and error helpers

namespace {

constexpr const char* kName = "store-sqlite";

// The live value of (table, key) as of now_ms, passed to fn; false when there is none.
bool read_live(Connection& c, std::string_view table, std::string_view key, int64_t now_ms,
               const ValueFn& fn) {
    auto& s = *c.get;
    StatementScope scope(s);
    bind_blob(s, 1, table);
    bind_blob(s, 2, key);
    s.bind(3, static_cast<int64_t>(now_ms));
    if (!s.executeStep()) return false;
    fn(column_bytes(s.getColumn(0)));
    return true;
}

void write_row(Connection& c, std::string_view table, std::string_view key, std::string_view value,
               int64_t expires_at_ms) {
    auto& s = *c.put;
    StatementScope scope(s);
    bind_blob(s, 1, table);
    bind_blob(s, 2, key);
    bind_blob(s, 3, value);
    s.bind(4, static_cast<int64_t>(expires_at_ms > 0 ? expires_at_ms : 0));
    s.exec();
}

bool delete_row(Connection& c, std::string_view table, std::string_view key) {
    auto& s = *c.del;
    StatementScope scope(s);
    bind_blob(s, 1, table);
    bind_blob(s, 2, key);
    return s.exec() > 0;
}

}  // namespace

SqliteStore::SqliteStore(const platform::Host& host, const platform::json& config)
    : host_(host),
      pool_(common::sqlite::open_pool<Connection>(config, kName,
                                                  "use store-memory for an in-memory store")) {
    host_.info("store-sqlite: opened '" + pool_.path() + "' (WAL, synchronous=FULL)");
}

[[noreturn]] void SqliteStore::fail(const char* op, const SQLite::Exception& e) const {
    common::sqlite::throw_platform_error(host_, kName, op, e);
}

void SqliteStore::seen(int64_t now_ms) {
    int64_t cur = latest_now_.load(std::memory_order_relaxed);
    while (now_ms > cur &&
           !latest_now_.compare_exchange_weak(cur, now_ms, std::memory_order_relaxed)) {
    }
}

bool SqliteStore::get(std::string_view table, std::string_view key, int64_t now_ms,
                      const ValueFn& fn) {
    seen(now_ms);
    try {
        auto c = pool_.acquire();
        return read_live(*c, table, key, now_ms, fn);
    } catch (const SQLite::Exception& e) {
        fail("get", e);
    }
}

void SqliteStore::put(std::string_view table, std::string_view key, std::string_view value,
                      int64_t expires_at_ms) {
    check_size("key", key);
    check_size("value", value);
    try {
        std::lock_guard<std::mutex> writing(
            writes_);  // before the lease: queued writers hold no connection
        auto c = pool_.acquire();
        write_row(*c, table, key, value, expires_at_ms);
        maybe_purge(*c);
    } catch (const SQLite::Exception& e) {
        fail("put", e);
    }
}

void SqliteStore::maybe_purge(Connection& c) {
    int64_t now = latest_now_.load(std::memory_order_relaxed);
    if (now <= 0 || puts_.fetch_add(1, std::memory_order_relaxed) % kPurgeEvery != kPurgeEvery - 1)
        return;
    auto& s = *c.purge;
    try {
        StatementScope scope(s);
        s.bind(1, static_cast<int64_t>(now));
        s.exec();
    } catch (const SQLite::Exception& e) {  // the put itself succeeded; try again later
        host_.warn(std::string("store-sqlite: purge of expired records failed: ") + e.what());
    }
}

bool SqliteStore::del(std::string_view table, std::string_view key) {
    try {
        std::lock_guard<std::mutex> writing(
            writes_);  // before the lease: queued writers hold no connection
        auto c = pool_.acquire();
        return delete_row(*c, table, key);
    } catch (const SQLite::Exception& e) {
        fail("delete", e);
    }
}

bool SqliteStore::cas(std::string_view table, std::string_view key,
                      std::optional<std::string_view> expected,
                      std::optional<std::string_view> value, int64_t expires_at_ms,
                      int64_t now_ms) {
    seen(now_ms);
    check_size("key", key);
    if (value) check_size("value", *value);
    try {
        std::lock_guard<std::mutex> writing(
            writes_);  // before the lease: queued writers hold no connection
        auto c = pool_.acquire();
        {
            // IMMEDIATE: the write lock is ours before we read, so the compare still holds at the
            // write. Leaving the scope without commit() rolls back.
            SQLite::Transaction tx(c->db, SQLite::TransactionBehavior::IMMEDIATE);
            bool same = false;
            const bool present = read_live(*c, table, key, now_ms, [&](std::string_view live) {
                same = expected && live == *expected;
            });
            if (expected ? !same : present) return false;
            if (value)
                write_row(*c, table, key, *value, expires_at_ms);
            else
                delete_row(*c, table, key);  // also drops an expired, unpurged row
            tx.commit();
        }
        if (value) maybe_purge(*c);
        return true;
    } catch (const SQLite::Exception& e) {
        fail("compare-and-set", e);
    }
}

void SqliteStore::batch(std::string_view table, const std::vector<platform::BatchOp>& ops) {
    for (const auto& op : ops) {
        check_size("key", op.key);
        check_size("value", op.value);
    }
    try {
        std::lock_guard<std::mutex> writing(
            writes_);  // before the lease: queued writers hold no connection
        auto c = pool_.acquire();
        {
            SQLite::Transaction tx(c->db, SQLite::TransactionBehavior::IMMEDIATE);
            for (const auto& op : ops) {
                if (op.kind == platform::BatchOp::put)
                    write_row(*c, table, op.key, op.value, op.expires_at_ms);
                else
                    delete_row(*c, table, op.key);
            }
            tx.commit();  // a throw before this rolls every op back
        }
        maybe_purge(*c);
    } catch (const SQLite::Exception& e) {
        fail("batch", e);
    }
}

std::vector<std::string> SqliteStore::tables() {
    std::vector<std::string> out;
    try {
        auto c = pool_.acquire();
        SQLite::Statement s(c->db, "SELECT DISTINCT tbl FROM records ORDER BY tbl");
        while (s.executeStep()) out.emplace_back(column_bytes(s.getColumn(0)));
    } catch (const SQLite::Exception& e) {
        fail("tables", e);
    }
    return out;
}

void SqliteStore::scan(std::string_view table, const ScanQuery& q, int64_t now_ms,
                       const RowFn& fn) {
    seen(now_ms);
    auto upper = platform::prefix_successor(q.prefix);
    try {
        auto c = pool_.acquire();
        auto& s = c->scan(upper.has_value(), q.descending);
        StatementScope scope(s);
        bind_blob(s, 1, table);
        bind_blob(s, 2, q.prefix);
        s.bind(3, static_cast<int64_t>(now_ms));
        if (upper) bind_blob(s, 4, *upper);
        s.bind(5, q.limit ? static_cast<int64_t>(q.limit) : int64_t{-1});
        s.bind(6, static_cast<int64_t>(q.offset));
        while (s.executeStep())
            if (!fn(column_bytes(s.getColumn(0)), column_bytes(s.getColumn(1)))) break;
    } catch (const SQLite::Exception& e) {
        fail("scan", e);
    }
}

}  // namespace store_sqlite
