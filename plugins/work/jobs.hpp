// jobs.hpp — the durable work queue in this plugin's own store (README.md): the owners' records,
// a global queue and a running index, the runners' leases, and each change of state.
//
// Keys of the plugin's table (owners escaped as platform::Collection does):
//   work/<owner>/<id>          the record; Request::owned("work") sees exactly these
//   tasks/<owner>/<task id>    {work}: the work made from a task (work/from_task), for
//                              de-duplication
//   queue/<seq>-<id>           {owner, id, seq}: todo work, oldest first (seq: 20 digits, ascending)
//   running/<owner>/<id>       {owner, id, seq}: work that has been claimed and not yet cleaned up
//                              after (running, or finished with the task write-back and the
//                              grant's revoke still to do)
//   runner/<node>              {node, alive_until}: a process running the queue and its lease, in
//                              wall-clock Unix ms (real time, never the business clock, which a
//                              test profile sets by hand); renewed every few seconds (workers.hpp)
//
// A record is the public fields of work/get plus `owner`, `grant` (Request::grant, never shown),
// `seq` (its queue position), `done_seq` (grows with each finish: "most recently finished"),
// `runner` (the node that claimed it, or took over its cleanup), and `created_ms`, `started_ms`,
// `finished_ms`.
//
// States: todo -> doing -> done | failed | blocked; failed | blocked -> todo (retry). Every change
// is one atomic store step, and the only way to doing is a compare-and-set of the record from its
// todo bytes, so a job runs at most once per time it is queued, however many processes (replicas
// sharing the store) claim from the queue:
//   create   batch {record todo, queue entry[, task index]}
//   claim    CAS record todo -> doing (runner = this node), then batch {erase queue entry, put
//            running entry}
//   finish   CAS record doing -> done|failed|blocked (the running entry stays: cleanup is next)
//   cleaned  erase the running entry
//   requeue  batch {record todo with a fresh grant, queue entry} (only from failed or blocked)
//   recover  at start, before any worker runs; and sweep, every few seconds after: work whose
//            runner is gone — this node itself at start (the same machine restarting: its old
//            process died), or another node whose lease lapsed — is taken over by a CAS of the
//            record (so one process does it): `doing` becomes failed "interrupted" (retryable),
//            finished records still needing cleanup get this node as runner; both are returned to
//            the caller for the cleanup. Work of a live runner is left alone. Stale entries
//            are erased. Records without a runner (written before runners existed) count as
//            this node's.
//
// Queue operations of this process are serialised by one mutex (creates, claims, requeues); the
// CAS keeps them safe across processes. Thread-safe.
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
    // `node`: this process's runner id (Jobs::node_of).
    Jobs(const platform::Host& host, std::string node);

    // The node id: config platform.node (the host's stable id), else one made of the machine's
    // name and PLATFORM_HOME, else a random id made once per process.
    static std::string node_of(const platform::Host& host);
    const std::string& node() const { return node_; }
    // Wall-clock Unix ms (leases).
    static int64_t wall_ms();

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
    // The same for work of runners whose lease lapsed (not this node's); any process may run it.
    std::vector<json> sweep();

    // Writes this node's lease: alive until `lease_ms` from now (wall clock).
    void renew(int64_t lease_ms);
    // Ends this node's lease now (a clean stop): other processes take its work over at once.
    void retire();

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
    // The record as failed "interrupted" (not written), with this node as its runner.
    json interrupted(json record);
    // recover() (at_start) and sweep(): see above.
    std::vector<json> repair(bool at_start);
    static std::string runner_key(const std::string& node);

    platform::Host host_;
    platform::Store store_;
    std::string node_;
    std::mutex mutex_;  // queue operations of this process
    std::mutex seq_m_;
    int64_t last_seq_ = 0;
    Signal changed_;
};

}  // namespace work
