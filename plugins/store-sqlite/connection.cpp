// store-sqlite — the schema and the statement cache of a connection.
#include "connection.hpp"

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

Connection::Connection(const std::string& path) : common::sqlite::Connection(path) {
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

}  // namespace store_sqlite
