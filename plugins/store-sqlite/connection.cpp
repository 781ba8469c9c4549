// store-sqlite — connections, schema and statement cache.
#include "connection.hpp"

#include <sqlite3.h>

namespace store_sqlite {

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS records("
    " tbl BLOB NOT NULL, key BLOB NOT NULL, value BLOB NOT NULL,"
    " expires_at INTEGER NOT NULL DEFAULT 0,"
    " PRIMARY KEY(tbl, key)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS records_expiry ON records(expires_at) WHERE expires_at > 0;";

// `+expires_at` keeps the planner off the partial index records_expiry: comparing it with a bound
// parameter would make SQLite re-prepare the statement on every new value (every scan).
constexpr const char* kLive = "(expires_at = 0 OR +expires_at > ?3)";

std::string scan_sql(bool bounded, bool desc) {
    return std::string("SELECT key, value FROM records WHERE tbl = ?1 AND key >= ?2 AND ") + kLive +
           (bounded ? " AND key < ?4" : "") + " ORDER BY key " + (desc ? "DESC" : "ASC") +
           " LIMIT ?5 OFFSET ?6";
}

}  // namespace

Connection::Connection(const std::string& path)
    : db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_NOMUTEX, 5000) {
    db.exec("PRAGMA journal_mode=WAL");
    db.exec("PRAGMA synchronous=FULL");
    db.exec(kSchema);
    get.emplace(db,
                std::string("SELECT value FROM records WHERE tbl = ?1 AND key = ?2 AND ") + kLive);
    put.emplace(
        db, "INSERT OR REPLACE INTO records(tbl, key, value, expires_at) VALUES(?1, ?2, ?3, ?4)");
    del.emplace(db, "DELETE FROM records WHERE tbl = ?1 AND key = ?2");
    purge.emplace(db, "DELETE FROM records WHERE expires_at > 0 AND expires_at <= ?1");
    for (int b = 0; b < 2; ++b)
        for (int d = 0; d < 2; ++d) scans_[b][d].emplace(db, scan_sql(b, d));
}

void bind_blob(SQLite::Statement& s, int index, std::string_view bytes) {
    static const char empty[1] = {0};
    s.bindNoCopy(index, static_cast<const void*>(bytes.empty() ? empty : bytes.data()),
                 static_cast<int>(bytes.size()));
}

Pool::Pool(std::string path) : path_(std::move(path)) {
    auto first = std::make_unique<Connection>(path_);
    if (first->db.execAndGet("PRAGMA journal_mode").getString() != "wal")
        throw SQLite::Exception("the file system does not support WAL mode");
    idle_.push_back(std::move(first));
}

Pool::Lease Pool::acquire() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!idle_.empty()) {
            auto c = std::move(idle_.back());
            idle_.pop_back();
            return Lease(this, std::move(c));
        }
    }
    return Lease(this, std::make_unique<Connection>(path_));
}

void Pool::release(std::unique_ptr<Connection> c) {
    // A connection still inside a transaction (a rollback that failed) would hold the write lock
    // and leak its state into the next caller: close it instead of pooling it.
    if (!sqlite3_get_autocommit(c->db.getHandle())) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (idle_.size() < kMaxIdle) idle_.push_back(std::move(c));
}

}  // namespace store_sqlite
