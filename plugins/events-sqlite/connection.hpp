// events-sqlite — one SQLite connection with its prepared statements, and a small pool of them.
//
// SQLiteCpp's Database must not be used by two threads at once, so each call leases a connection
// for its duration (a sink that re-enters the provider gets a second one). WAL lets readers and one
// writer proceed together; writers queue on busy_timeout (5 s).
#pragma once

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace events_sqlite {

class Connection {
public:
    explicit Connection(const std::string& path);  // throws SQLite::Exception

    SQLite::Database db;
    // last(topic) -> max offset or NULL; insert(topic, offset, id, ts, metadata, payload);
    // read(topic, from, limit); topics()
    std::optional<SQLite::Statement> last, insert, read, topics;
};

// Binds bytes as a BLOB (never NULL), so NUL bytes survive. The bytes must outlive the next reset.
void bind_blob(SQLite::Statement& s, int index, std::string_view bytes);
// Binds UTF-8 (or any bytes) as TEXT, copied by SQLite.
void bind_text(SQLite::Statement& s, int index, std::string_view text);
// A column's bytes, valid until the statement steps or resets.
std::string_view column_bytes(const SQLite::Column& c);

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

}  // namespace events_sqlite
