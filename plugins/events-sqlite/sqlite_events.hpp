// events-sqlite — the platform_events_provider_t on one SQLite file (SQLiteCpp), persistent.
//
// One SQL table `events(topic BLOB, offset INTEGER, id TEXT, ts INTEGER, metadata TEXT,
// payload BLOB, PRIMARY KEY(topic, offset)) WITHOUT ROWID`. append runs
// `BEGIN IMMEDIATE; SELECT MAX(offset)+1; INSERT; COMMIT`, so concurrent appends (threads or
// processes) never collide and offsets stay gapless. WAL with synchronous=FULL: an append that
// returned OK survives a crash or power loss.
//
// wait: appends of this process notify a condition variable at once; appends of other processes
// on the same file are noticed by re-checking the database every 200 ms until the timeout.
#pragma once

#include <platform/abi.h>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <platform/sdk/host.hpp>
#include <string>
#include <string_view>

#include "connection.hpp"

namespace events_sqlite {

// Receives one event (views valid during the call); returns false to stop.
using EventFn = std::function<bool(const platform_event_t&)>;

class SqliteEvents {
public:
    // config: {"path": "<database file>"}. Creates parent directories. Throws naming the path.
    SqliteEvents(const platform::Host& host, const platform::json& config);

    uint64_t append(const platform_event_t& e);
    void read(std::string_view topic, uint64_t from_offset, uint32_t limit, const EventFn& fn);
    // True once the topic has an event after `after_offset`, false after timeout_ms; throws
    // UNAVAILABLE once the provider is stopping.
    bool wait(std::string_view topic, uint64_t after_offset, int32_t timeout_ms);
    std::string topics();
    void stop();  // wakes every waiter

    static constexpr int kPollMs = 200;  // cross-process re-check interval of wait

private:
    [[noreturn]] void fail(const char* op,
                           const SQLite::Exception& e) const;  // as a platform error
    uint64_t last_offset(std::string_view topic);              // 0 for an empty topic
    uint64_t known_locked(std::string_view topic) const;

    platform::Host host_;
    Pool pool_;
    // The newest offset this process appended per topic: waiters' fast path, set after COMMIT.
    mutable std::mutex mutex_;
    std::condition_variable appended_;
    std::map<std::string, uint64_t, std::less<>> known_;
    bool stopping_ = false;
};

}  // namespace events_sqlite
