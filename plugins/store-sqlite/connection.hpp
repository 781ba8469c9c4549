// store-sqlite — one SQLite connection with the store's schema and prepared statements.
//
// Opened and pooled as every SQLite provider's (common/sqlite: WAL, synchronous=FULL,
// busy_timeout 5 s, leased one call at a time); this adds the `records` table and its statements.
#pragma once

#include <optional>
#include <string>

#include "common/sqlite/connection.hpp"
#include "common/sqlite/pool.hpp"

namespace store_sqlite {

class Connection : public common::sqlite::Connection {
public:
    explicit Connection(const std::string& path);  // throws SQLite::Exception

    std::optional<SQLite::Statement> get, put, del, purge;
    // scan(bounded, desc): with or without an upper key bound, ascending or descending.
    SQLite::Statement& scan(bool bounded, bool desc) { return *scans_[bounded][desc]; }

private:
    std::optional<SQLite::Statement> scans_[2][2];
};

using Pool = common::sqlite::Pool<Connection>;

}  // namespace store_sqlite
