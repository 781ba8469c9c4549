// platform/host/core/activity_record.hpp — when each account last called the host.
//
// The host marks an account seen on every authenticated call (Runtime::authenticate): an update
// of the calling thread's own map (PerThread: its lock is taken by that thread and, once per flush,
// by the flush; no lock is shared by the call threads), no I/O on the call path. The accounts seen
// on any thread since the last flush are
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

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <platform/host/core/per_thread.hpp>
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
    // One thread's accounts seen since the last flush, by account id.
    struct ThreadSeen {
        mutable std::mutex m;
        mutable std::map<std::string, Seen> pending;
    };
    // Adds `s` to `into` (the earlier first_ms, the later last_ms and its name and type).
    static void merge(std::map<std::string, Seen>& into, Seen s);

    Writer write_;
    Scheduler schedule_;
    PerThread<ThreadSeen> seen_;
    // A scheduled flush has not started yet. seen() sets it after its update and schedules a flush
    // when it was the one to set it; flush() clears it before it takes the threads' maps, so an
    // update it misses finds it clear and schedules the next.
    std::atomic<bool> armed_{false};
    std::mutex flush_m_;
};

// The Writer that merges entries into the runtime's store provider (table kTable); false when
// the profile has no store or a write failed.
ActivityRecord::Writer activity_store_writer(Runtime& runtime);

}  // namespace platform::host
