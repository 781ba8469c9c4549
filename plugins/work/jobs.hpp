// jobs.hpp — the durable work queue in this plugin's own store (README.md): the owners' records,
// a global queue and a running index, and each change of state.
//
// Keys of the plugin's table (owners escaped as platform::Collection does):
//   work/<owner>/<id>          the record; Request::owned("work") sees exactly these
//   tasks/<owner>/<task id>    {work}: the work made from a task (work/from_task), for
//   de-duplication queue/<seq>-<id>           {owner, id}: todo work, oldest first (seq: 20 digits,
//   ascending) running/<owner>/<id>       {owner, id}: work that has been claimed and not yet
//   cleaned up after
//                              (running, or finished with the task write-back and the grant's
//                              revoke still to do) — what start() looks at after a crash
//
// A record is the public fields of work/get plus `owner`, `grant` (Request::grant, never shown),
// `seq` (its queue position), `done_seq` (grows with each finish: "most recently finished"), and
// `created_ms`, `started_ms`, `finished_ms`.
//
// States: todo -> doing -> done | failed | blocked; failed | blocked -> todo (retry). Every change
// is one atomic store step, and the only way to doing is a compare-and-set of the record from its
// todo bytes, so a job runs at most once per time it is queued:
//   create   batch {record todo, queue entry[, task index]}
//   claim    CAS record todo -> doing, then batch {erase queue entry, put running entry}
//   finish   CAS record doing -> done|failed|blocked (the running entry stays: cleanup is next)
//   cleaned  erase the running entry
//   requeue  batch {record todo with a fresh grant, queue entry} (only from failed or blocked)
//   recover  at start, before any worker runs: running entries and queue entries whose record is
//            `doing` belong to a process that died — the record becomes failed "interrupted"
//            (retryable); stale entries are erased; finished records still needing cleanup are
//            returned to the caller.
// One host per store runs the queue: recover() assumes no other process is running its jobs.
//
// Queue operations of this process are serialised by one mutex (creates, claims, requeues); the
// CAS keeps the claim safe even without it. Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

namespace work {

using platform::json;

// A generation counter to wait on: bump() after a change, wait() until the next one.
class Signal {
public:
    uint64_t current();
    void bump();
    // Until the generation differs from `seen`, the signal is closed, or `until` passes; false
    // once closed.
    bool wait(uint64_t seen, std::chrono::steady_clock::time_point until =
                                 std::chrono::steady_clock::time_point::max());
    void close();  // wakes every waiter for good (stop)
    void reopen();

private:
    std::mutex m_;
    std::condition_variable cv_;
    uint64_t gen_ = 0;
    bool closed_ = false;
};

// What a new job is made of.
struct NewJob {
    std::string owner, prompt, agent, thread, task, grant;
    std::string channel = "web";  // where the conversation is filed: web, mail or cli
    // A service's own job (work/from_call): {service, method, args} called through the grant
    // instead of agent/run; null for agent work. `prompt` is then the job's title.
    json call = nullptr;
};

class Jobs {
public:
    explicit Jobs(const platform::Host& host);

    static bool valid_status(const std::string& s);
    static bool final_status(const std::string& s);  // done, failed, blocked

    // Writes a todo record and queues it; returns the record. For a job made from a task that
    // already has open work, returns that work instead and sets *created to false.
    json create(const NewJob& job, bool* created = nullptr);
    std::optional<json> get(const std::string& owner, const std::string& id) const;
    // Every record of the owner (any order).
    std::vector<json> all(const std::string& owner) const;
    // The open (todo or doing) work made from `task`, if any.
    std::optional<json> open_for_task(const std::string& owner, const std::string& task) const;
    // Todo work queued before this record (counted up to `cap`).
    size_t ahead(const json& record, size_t cap = 1000) const;

    // The oldest queued job moved todo -> doing; nullopt when nothing is queued.
    std::optional<json> claim();
    // doing -> `status` with what the run gave; nullopt when the record is no longer doing (it was
    // recovered as interrupted meanwhile: the late result is dropped).
    std::optional<json> finish(const json& job, const std::string& status, const json& result,
                               const std::string& error, const json& steps,
                               const std::string& thread);
    void cleaned(const json& record);
    // failed | blocked -> todo with `grant`, attempts + 1, queued again. 404 for no such work,
    // 409 naming the status otherwise.
    json requeue(const std::string& owner, const std::string& id, const std::string& grant);
    // Start-up repair (see above); returns finished records whose cleanup is still to do.
    std::vector<json> recover();

    // Bumped after every change of a record's status; work/get's `wait` waits on it.
    Signal& changed() { return changed_; }

    // The public view of a record (work/get): no owner, grant or bookkeeping; with `progress`.
    json view(const json& record) const;

    static std::string record_key(const std::string& owner, const std::string& id);

private:
    static std::string queue_key(int64_t seq, const std::string& id);
    static std::string running_key(const std::string& owner, const std::string& id);
    static std::string task_key(const std::string& owner, const std::string& task);
    static json ref(const json& record);
    int64_t next_seq();
    // A record's new bytes written only if it still holds `raw`.
    bool swap(const json& record, const std::string& raw, const json& next) const;
    // The record as failed "interrupted" (not written).
    json interrupted(json record);

    platform::Host host_;
    platform::Store store_;
    std::mutex mutex_;  // queue operations of this process
    std::mutex seq_m_;
    int64_t last_seq_ = 0;
    Signal changed_;
};

}  // namespace work
