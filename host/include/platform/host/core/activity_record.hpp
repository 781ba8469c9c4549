// platform/host/core/activity_record.hpp — when each account last called the host.
//
// The host marks an account seen on every authenticated call (Runtime::authenticate): a map
// update under a mutex, no I/O on the call path. The accounts seen since the last flush are
// written out together by a flush that runs at most once per interval: the first change after a
// flush asks `schedule` for one later run (the runtime arms its timer queue, which hands the
// flush to the worker pool), so a thousand calls in an interval cost one write per account.
// The runtime flushes once more when it stops.
//
// Where it lands (activity_store_writer): the profile's store, table "users" (the users
// service's own table, which that plugin reads without any privilege), key "seen/<account id>",
// value {"id", "name", "type", "first_seen", "last_seen"} in business-clock Unix ms. Replicas
// sharing the store merge into the same records: a write keeps the earlier first_seen and the
// later last_seen of what is stored (read then write, not atomic: two replicas flushing the
// same account at the same instant may keep either's last_seen, both recent).
//
// Thread-safe: seen() from any call thread, flush() from the pool or the stopping thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace platform::host {

class Runtime;

// One account's activity: who it is (as the auth provider named it) and when it was seen.
struct Seen {
    std::string id, name, type;
    int64_t first_ms = 0, last_ms = 0;  // business-clock Unix ms
};

class ActivityRecord {
public:
    // Writes the accounts seen since the last flush; false when the write failed (they are kept
    // and written with the next flush).
    using Writer = std::function<bool(const std::vector<Seen>&)>;
    // Runs `flush` once, later (the runtime: after the flush interval, on the worker pool).
    using Scheduler = std::function<void(std::function<void()> flush)>;

    static constexpr int64_t kFlushIntervalMs = 2000;
    static constexpr const char* kTable = "users";
    static constexpr const char* kKeyPrefix = "seen/";

    ActivityRecord(Writer write, Scheduler schedule)
        : write_(std::move(write)), schedule_(std::move(schedule)) {}

    // Marks the account seen at `now_ms`; schedules a flush unless one is pending.
    void seen(const std::string& id, const std::string& name, const std::string& type,
              int64_t now_ms);
    // Writes what was seen since the last flush now (nothing when nothing was). Flushes never
    // overlap.
    void flush();
    // How many accounts wait for the next flush.
    size_t pending() const;

private:
    Writer write_;
    Scheduler schedule_;
    mutable std::mutex m_;
    std::map<std::string, Seen> pending_;  // by account id
    bool armed_ = false;                   // a scheduled flush has not run yet
    std::mutex flush_m_;
};

// The Writer that merges entries into the runtime's store provider (table kTable); false when
// the profile has no store or a write failed.
ActivityRecord::Writer activity_store_writer(Runtime& runtime);

}  // namespace platform::host
