// store-sqlite — table operations over the pooled connections.
#include "sqlite_store.hpp"

#include <SQLiteCpp/Transaction.h>
#include <sqlite3.h>

#include <climits>
#include <filesystem>
#include <optional>
#include <platform/sdk/error.hpp>

namespace store_sqlite {

namespace {

std::string path_of(const platform::json& config) {
    auto it = config.find("path");
    if (it == config.end() || !it->is_string() || it->get<std::string>().empty())
        throw std::runtime_error("store-sqlite: config `path` (the database file) is required");
    std::string path = it->get<std::string>();
    if (path == ":memory:" || path.rfind("file:", 0) == 0)
        throw std::runtime_error("store-sqlite: config `path` must be a file path, got '" + path +
                                 "' (use store-memory for an in-memory store)");
    auto parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec)
        throw std::runtime_error("store-sqlite: cannot create the directory of '" + path +
                                 "': " + ec.message());
    return path;
}

Pool open_pool(const platform::json& config) {
    std::string path = path_of(config);
    try {
        return Pool(path);
    } catch (const std::exception& e) {
        throw std::runtime_error("store-sqlite: cannot open database '" + path + "': " + e.what());
    }
}

// Turns a SQLite failure into a platform error the host maps to HTTP.
[[noreturn]] void fail(const platform::Host& host, const char* op, const SQLite::Exception& e) {
    int code = e.getErrorCode();
    std::string msg = std::string("store-sqlite: ") + op + ": " + e.what();
    if (code == SQLITE_TOOBIG) throw platform::Error(platform::Code::payload_too_large, msg);
    host.error(msg);
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED || code == SQLITE_FULL || code == SQLITE_IOERR)
        throw platform::unavailable(msg);
    throw platform::internal(msg);
}

void check_size(std::string_view what, std::string_view bytes) {
    if (bytes.size() > static_cast<size_t>(INT_MAX))
        throw platform::Error(platform::Code::payload_too_large,
                              std::string(what) + ": over 2 GiB");
}

std::string_view column_bytes(const SQLite::Column& c) {
    const void* p = c.getBlob();
    int n = c.getBytes();
    return p ? std::string_view(static_cast<const char*>(p), static_cast<size_t>(n))
             : std::string_view();
}

}  // namespace

SqliteStore::SqliteStore(const platform::Host& host, const platform::json& config)
    : host_(host), pool_(open_pool(config)) {
    host_.info("store-sqlite: opened '" + pool_.path() + "' (WAL, synchronous=FULL)");
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
        auto& s = *c->get;
        ResetOnExit reset{s};
        s.tryReset();
        bind_blob(s, 1, table);
        bind_blob(s, 2, key);
        s.bind(3, static_cast<int64_t>(now_ms));
        if (!s.executeStep()) return false;
        fn(column_bytes(s.getColumn(0)));
        return true;
    } catch (const SQLite::Exception& e) {
        fail(host_, "get", e);
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
        {
            auto& s = *c->put;
            ResetOnExit reset{s};
            s.tryReset();
            bind_blob(s, 1, table);
            bind_blob(s, 2, key);
            bind_blob(s, 3, value);
            s.bind(4, static_cast<int64_t>(expires_at_ms > 0 ? expires_at_ms : 0));
            s.exec();
        }
        maybe_purge(*c);
    } catch (const SQLite::Exception& e) {
        fail(host_, "put", e);
    }
}

void SqliteStore::maybe_purge(Connection& c) {
    int64_t now = latest_now_.load(std::memory_order_relaxed);
    if (now <= 0 || puts_.fetch_add(1, std::memory_order_relaxed) % kPurgeEvery != kPurgeEvery - 1)
        return;
    auto& s = *c.purge;
    try {
        ResetOnExit reset{s};
        s.tryReset();
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
        auto& s = *c->del;
        ResetOnExit reset{s};
        s.tryReset();
        bind_blob(s, 1, table);
        bind_blob(s, 2, key);
        return s.exec() > 0;
    } catch (const SQLite::Exception& e) {
        fail(host_, "delete", e);
    }
}

namespace {

void write_row(Connection& c, std::string_view table, std::string_view key, std::string_view value,
               int64_t expires_at_ms) {
    auto& s = *c.put;
    ResetOnExit reset{s};
    s.tryReset();
    bind_blob(s, 1, table);
    bind_blob(s, 2, key);
    bind_blob(s, 3, value);
    s.bind(4, static_cast<int64_t>(expires_at_ms > 0 ? expires_at_ms : 0));
    s.exec();
}

void delete_row(Connection& c, std::string_view table, std::string_view key) {
    auto& s = *c.del;
    ResetOnExit reset{s};
    s.tryReset();
    bind_blob(s, 1, table);
    bind_blob(s, 2, key);
    s.exec();
}

}  // namespace

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
            bool matches;
            {
                auto& s = *c->get;
                ResetOnExit reset{s};
                s.tryReset();
                bind_blob(s, 1, table);
                bind_blob(s, 2, key);
                s.bind(3, static_cast<int64_t>(now_ms));
                bool present = s.executeStep();
                matches =
                    expected ? present && column_bytes(s.getColumn(0)) == *expected : !present;
            }
            if (!matches) return false;
            if (value)
                write_row(*c, table, key, *value, expires_at_ms);
            else
                delete_row(*c, table, key);  // also drops an expired, unpurged row
            tx.commit();
        }
        if (value) maybe_purge(*c);
        return true;
    } catch (const SQLite::Exception& e) {
        fail(host_, "compare-and-set", e);
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
        fail(host_, "batch", e);
    }
}

std::vector<std::string> SqliteStore::tables() {
    std::vector<std::string> out;
    try {
        auto c = pool_.acquire();
        SQLite::Statement s(c->db, "SELECT DISTINCT tbl FROM records ORDER BY tbl");
        while (s.executeStep()) out.emplace_back(column_bytes(s.getColumn(0)));
    } catch (const SQLite::Exception& e) {
        fail(host_, "tables", e);
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
        ResetOnExit reset{s};
        s.tryReset();
        bind_blob(s, 1, table);
        bind_blob(s, 2, q.prefix);
        s.bind(3, static_cast<int64_t>(now_ms));
        if (upper) bind_blob(s, 4, *upper);
        s.bind(5, q.limit ? static_cast<int64_t>(q.limit) : int64_t{-1});
        s.bind(6, static_cast<int64_t>(q.offset));
        while (s.executeStep())
            if (!fn(column_bytes(s.getColumn(0)), column_bytes(s.getColumn(1)))) break;
    } catch (const SQLite::Exception& e) {
        fail(host_, "scan", e);
    }
}

}  // namespace store_sqlite
