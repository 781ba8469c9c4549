// store-sqlite — one SQLite connection with its prepared statements, and a small pool of them.
//
// SQLiteCpp's Database must not be used by two threads at once, so each call leases a connection
// from the pool for its duration and gives it back afterwards. A caller that re-enters the store
// from a sink (same thread, connection still leased) simply gets a second connection. WAL mode lets
// readers and one writer proceed together; writers queue on busy_timeout (5 s).
#pragma once

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace store_sqlite {

class Connection {
public:
    explicit Connection(const std::string& path);  // throws SQLite::Exception

    SQLite::Database db;
    std::optional<SQLite::Statement> get, put, del, purge;
    // scan(bounded, desc): with or without an upper key bound, ascending or descending.
    SQLite::Statement& scan(bool bounded, bool desc) { return *scans_[bounded][desc]; }

private:
    std::optional<SQLite::Statement> scans_[2][2];
};

// Binds bytes as a BLOB (never TEXT, never NULL), so NUL bytes survive and comparisons are memcmp.
// The bytes must outlive the statement's next reset.
void bind_blob(SQLite::Statement& s, int index, std::string_view bytes);

// Resets a statement when a scope ends, so no read snapshot outlives the call.
struct ResetOnExit {
    SQLite::Statement& s;
    ~ResetOnExit() { s.tryReset(); }
};

class Pool {
public:
    explicit Pool(std::string path);  // opens one connection now: throws if the file is unusable

    class Lease {
    public:
        Lease(Pool* pool, std::unique_ptr<Connection> c) : pool_(pool), c_(std::move(c)) {}
        Lease(Lease&&) = default;
        ~Lease() {
            if (c_) pool_->release(std::move(c_));
        }
        Connection* operator->() const { return c_.get(); }
        Connection& operator*() const { return *c_; }

    private:
        Pool* pool_;
        std::unique_ptr<Connection> c_;
    };

    Lease acquire();
    const std::string& path() const { return path_; }

private:
    void release(std::unique_ptr<Connection> c);

    static constexpr size_t kMaxIdle = 16;
    std::string path_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<Connection>> idle_;
};

}  // namespace store_sqlite
