#include "common/sqlite/connection.hpp"

#include <sqlite3.h>

#include "common/sqlite/fenced_vfs.hpp"

namespace common::sqlite {

Connection::LibrarySettings::LibrarySettings() {
    // SQLITE_MISUSE once SQLite is initialised: ignored (see connection.hpp).
    static const int once = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    (void)once;
}

Connection::Connection(const std::string& path)
    : db(path.c_str(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_NOMUTEX,
         kBusyTimeoutMs, fenced_vfs()) {
    db.exec("PRAGMA journal_mode=WAL");
    db.exec("PRAGMA synchronous=FULL");
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

}  // namespace common::sqlite
