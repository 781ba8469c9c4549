// events-sqlite — append, read, wait and the topic list over pooled connections.
#include "sqlite_events.hpp"

#include <SQLiteCpp/Transaction.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <platform/sdk/error.hpp>

#include "common/sqlite/errors.hpp"

namespace events_sqlite {

using namespace common::sqlite;  // the statement and error helpers

namespace {

constexpr const char* kName = "events-sqlite";

platform_str_t bytes(std::string_view s) {
    return platform_str_t{s.empty() ? "" : s.data(), s.size()};
}

// The topic's newest offset, 0 when it has none.
uint64_t newest_offset(Connection& c, std::string_view topic) {
    auto& s = *c.last;
    StatementScope scope(s);
    bind_blob(s, 1, topic);
    if (s.executeStep() && !s.getColumn(0).isNull())
        return static_cast<uint64_t>(s.getColumn(0).getInt64());
    return 0;
}

}  // namespace

SqliteEvents::SqliteEvents(const platform::Host& host, const platform::json& config)
    : host_(host),
      pool_(common::sqlite::open_pool<Connection>(config, kName,
                                                  "use events-memory for in-memory events")) {
    host_.info("events-sqlite: opened '" + pool_.path() + "' (WAL, synchronous=FULL)");
}

[[noreturn]] void SqliteEvents::fail(const char* op, const SQLite::Exception& e) const {
    common::sqlite::throw_platform_error(host_, kName, op, e);
}

uint64_t SqliteEvents::append(const platform_event_t& e) {
    const std::string_view topic = platform::view(e.topic);
    if (topic.empty()) throw platform::invalid_argument("topic: must not be empty");
    const std::string_view metadata =
        e.metadata_json.len ? platform::view(e.metadata_json) : std::string_view("{}");
    check_size("topic", topic);
    check_size("metadata", metadata);
    check_size("payload", platform::view(e.payload));
    uint64_t offset = 0;
    try {
        auto c = pool_.acquire();
        // IMMEDIATE takes the write lock now: MAX+1 cannot race. Leaving without commit() rolls
        // back.
        SQLite::Transaction tx(c->db, SQLite::TransactionBehavior::IMMEDIATE);
        offset = newest_offset(*c, topic) + 1;
        {
            auto& s = *c->insert;
            StatementScope scope(s);
            bind_blob(s, 1, topic);
            s.bind(2, static_cast<int64_t>(offset));
            bind_text(s, 3, platform::view(e.id));
            s.bind(4, static_cast<int64_t>(e.timestamp_ms));
            bind_text(s, 5, metadata);
            bind_blob(s, 6, platform::view(e.payload));
            s.exec();
        }
        tx.commit();
    } catch (const SQLite::Exception& ex) {
        fail("append", ex);
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = known_.find(topic);
        if (it == known_.end())
            known_.emplace(std::string(topic), offset);
        else
            it->second = std::max(it->second, offset);
    }
    appended_.notify_all();
    return offset;
}

void SqliteEvents::read(std::string_view topic, uint64_t from_offset, uint32_t limit,
                        const EventFn& fn) {
    if (from_offset == 0) from_offset = 1;
    if (from_offset > static_cast<uint64_t>(INT64_MAX)) return;
    try {
        auto c = pool_.acquire();
        auto& s = *c->read;
        StatementScope scope(s);
        bind_blob(s, 1, topic);
        s.bind(2, static_cast<int64_t>(from_offset));
        s.bind(3, limit ? static_cast<int64_t>(limit) : int64_t{-1});
        while (s.executeStep()) {
            platform_event_t ev{};
            ev.struct_size = sizeof ev;
            ev.offset = static_cast<uint64_t>(s.getColumn(0).getInt64());
            ev.id = bytes(column_bytes(s.getColumn(1)));
            ev.topic = bytes(topic);
            ev.timestamp_ms = s.getColumn(2).getInt64();
            ev.metadata_json = bytes(column_bytes(s.getColumn(3)));
            ev.payload = bytes(column_bytes(s.getColumn(4)));
            if (!fn(ev)) break;
        }
    } catch (const SQLite::Exception& e) {
        fail("read", e);
    }
}

uint64_t SqliteEvents::last_offset(std::string_view topic) {
    try {
        auto c = pool_.acquire();
        return newest_offset(*c, topic);
    } catch (const SQLite::Exception& e) {
        fail("wait", e);
    }
}

uint64_t SqliteEvents::known_locked(std::string_view topic) const {
    auto it = known_.find(topic);
    return it == known_.end() ? 0 : it->second;
}

bool SqliteEvents::wait(std::string_view topic, uint64_t after_offset, int32_t timeout_ms) {
    using Clock = std::chrono::steady_clock;
    const auto end = Clock::now() + std::chrono::milliseconds(std::max<int32_t>(timeout_ms, 0));
    for (;;) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (stopping_) throw platform::unavailable("events-sqlite: the provider is stopping");
            if (known_locked(topic) > after_offset) return true;
        }
        // Another process may have appended: the database is the truth.
        if (last_offset(topic) > after_offset) return true;
        std::unique_lock<std::mutex> lock(mutex_);
        const auto now = Clock::now();
        if (now >= end) return false;
        const auto slice = std::min<Clock::duration>(end - now, std::chrono::milliseconds(kPollMs));
        // An append of this process between the check above and here already raised known_.
        if (appended_.wait_for(lock, slice,
                               [&] { return stopping_ || known_locked(topic) > after_offset; })) {
            if (stopping_) throw platform::unavailable("events-sqlite: the provider is stopping");
            return true;
        }
    }
}

std::string SqliteEvents::topics() {
    platform::json out = platform::json::array();
    try {
        auto c = pool_.acquire();
        auto& s = *c->topics;
        StatementScope scope(s);
        while (s.executeStep())
            out.push_back({{"topic", std::string(column_bytes(s.getColumn(0)))},
                           {"events", s.getColumn(1).getInt64()},
                           {"last_offset", s.getColumn(2).getInt64()}});
    } catch (const SQLite::Exception& e) {
        fail("topics", e);
    }
    return out.dump(-1, ' ', false, platform::json::error_handler_t::replace);
}

void SqliteEvents::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    appended_.notify_all();
}

}  // namespace events_sqlite
