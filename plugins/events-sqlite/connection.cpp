// events-sqlite — connections, schema and statement cache.
#include "connection.hpp"

#include <sqlite3.h>

namespace events_sqlite {

namespace {

// `offset` is an SQL keyword, so the column is always quoted.
constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS events("
    " topic BLOB NOT NULL, \"offset\" INTEGER NOT NULL, id TEXT NOT NULL, ts INTEGER NOT NULL,"
    " metadata TEXT NOT NULL, payload BLOB NOT NULL,"
    " PRIMARY KEY(topic, \"offset\")) WITHOUT ROWID";

}  // namespace

Connection::Connection(const std::string& path)
    : db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_NOMUTEX, 5000) {
    db.exec("PRAGMA journal_mode=WAL");
    db.exec("PRAGMA synchronous=FULL");
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

void bind_blob(SQLite::Statement& s, int index, std::string_view bytes) {
    static const char empty[1] = {0};
    s.bindNoCopy(index, static_cast<const void*>(bytes.empty() ? empty : bytes.data()),
                 static_cast<int>(bytes.size()));
}

void bind_text(SQLite::Statement& s, int index, std::string_view text) {
    s.bind(index, std::string(text));
}

std::string_view column_bytes(const SQLite::Column& c) {
    const void* p = c.getBlob();
    int n = c.getBytes();
    return p ? std::string_view(static_cast<const char*>(p), static_cast<size_t>(n))
             : std::string_view();
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
    std::lock_guard<std::mutex> lock(mutex_);
    if (idle_.size() < kMaxIdle) idle_.push_back(std::move(c));
}

}  // namespace events_sqlite
