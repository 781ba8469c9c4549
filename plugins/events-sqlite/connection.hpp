// events-sqlite — one SQLite connection with the events schema and prepared statements.
//
// Opened and pooled as every SQLite provider's (common/sqlite: WAL, synchronous=FULL,
// busy_timeout 5 s, leased one call at a time); this adds the `events` table and its statements.
#pragma once

#include <optional>
#include <string>

#include "common/sqlite/connection.hpp"
#include "common/sqlite/pool.hpp"

namespace events_sqlite {

class Connection : public common::sqlite::Connection {
public:
    explicit Connection(const std::string& path);  // throws SQLite::Exception

    // last(topic) -> max offset or NULL; insert(topic, offset, id, ts, metadata, payload);
    // read(topic, from, limit); topics()
    std::optional<SQLite::Statement> last, insert, read, topics;
};

using Pool = common::sqlite::Pool<Connection>;

}  // namespace events_sqlite
