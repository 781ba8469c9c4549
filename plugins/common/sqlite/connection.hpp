// common/sqlite/connection — one SQLite connection as the SQLite providers (store-sqlite,
// events-sqlite) open it, and the statement helpers they share. Linked into each provider
// (platform_common_sqlite); not a plugin.
//
// A Connection is the database file opened read-write (created when missing), without SQLite's
// own mutex, in WAL mode with synchronous=FULL (a commit that returned survives a crash or power
// loss) and a busy_timeout of 5 s, through the fenced unix VFS (fenced_vfs.hpp). A provider derives from it to add its schema and prepared
// statements. Not thread-safe: one thread uses a connection at a time (Pool leases them).
//
// The first Connection a plugin opens first turns SQLite's memory statistics off
// (sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0)): with them on, every sqlite3_malloc and
// sqlite3_free — and this build of SQLite (Debian's, without lookaside) allocates on every
// statement step — takes one mutex that all the connections of the process share. SQLite accepts
// the setting only before it initialises (the first open by any SQLite user of the process: they
// share one libsqlite3); afterwards it answers SQLITE_MISUSE and the statistics stay on, an
// optimisation missed, not an error. Without them sqlite3_memory_used() reports nothing and no soft
// heap limit applies; no plugin uses either.
#pragma once

#include <SQLiteCpp/Column.h>
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <string>
#include <string_view>

namespace common::sqlite {

class Connection {
    struct LibrarySettings {
        LibrarySettings();  // the process-wide settings above, tried once per plugin
    };
    LibrarySettings settings_;  // declared before db: applied before it opens

public:
    explicit Connection(const std::string& path);  // throws SQLite::Exception
    virtual ~Connection() = default;
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    SQLite::Database db;

    static constexpr int kBusyTimeoutMs = 5000;
};

// Binds bytes as a BLOB (never TEXT, never NULL), so NUL bytes survive and comparisons are memcmp.
// Not copied: the bytes must outlive the statement's next reset.
void bind_blob(SQLite::Statement& s, int index, std::string_view bytes);

// Binds UTF-8 (or any bytes) as TEXT, copied by SQLite.
void bind_text(SQLite::Statement& s, int index, std::string_view text);

// A column's bytes (BLOB or TEXT; empty for NULL), valid until the statement steps or resets.
std::string_view column_bytes(const SQLite::Column& c);

// A prepared statement in use for one scope: reset (bindings kept until rebound) when the scope
// begins, and again when it ends, so no read snapshot outlives the call.
class StatementScope {
public:
    explicit StatementScope(SQLite::Statement& s) : s_(s) { s_.tryReset(); }
    ~StatementScope() { s_.tryReset(); }
    StatementScope(const StatementScope&) = delete;
    StatementScope& operator=(const StatementScope&) = delete;

private:
    SQLite::Statement& s_;
};

}  // namespace common::sqlite
