// events-sqlite — the schema and the statement cache of a connection.
#include "connection.hpp"

namespace events_sqlite {

namespace {

// `offset` is an SQL keyword, so the column is always quoted.
constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS events("
    " topic BLOB NOT NULL, \"offset\" INTEGER NOT NULL, id TEXT NOT NULL, ts INTEGER NOT NULL,"
    " metadata TEXT NOT NULL, payload BLOB NOT NULL,"
    " PRIMARY KEY(topic, \"offset\")) WITHOUT ROWID";

}  // namespace

Connection::Connection(const std::string& path) : common::sqlite::Connection(path) {
    db.exec(kSchema);
    last.emplace(db, "SELECT MAX(\"offset\") FROM events WHERE topic = ?1");
    insert.emplace(db,
                   "INSERT INTO events(topic, \"offset\", id, ts, metadata, payload) VALUES(?1, "
                   "?2, ?3, ?4, ?5, ?6)");
    read.emplace(db,
                 "SELECT \"offset\", id, ts, metadata, payload FROM events"
                 " WHERE topic = ?1 AND \"offset\" >= ?2 ORDER BY \"offset\" LIMIT ?3");
    topics.emplace(
        db, "SELECT topic, COUNT(*), MAX(\"offset\") FROM events GROUP BY topic ORDER BY topic");
}

}  // namespace events_sqlite
