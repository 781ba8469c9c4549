// workers.hpp — the threads that run queued work.
//
// start() writes this node's lease and repairs the store first (Jobs::recover: work this node
// had `doing` when its previous process died becomes failed "interrupted"), then starts `workers`
// threads and a keeper. Each takes the oldest queued job (Jobs::claim,
// todo -> doing by compare-and-set) and runs it through the agent for its owner:
//
//   Host::call_granted(grant, "agent", "run", {prompt, agent?, thread?, channel: "web",
//                      title: "Work: <first line of the prompt>"}, timeout_ms)
//
// ok -> done (result = text, steps, thread: agent/run delivers the reply into the thread, or a
// new one); PAYMENT_REQUIRED -> blocked with the message; anything else -> failed with the message.
// Then the cleanup: work made from a task writes its outcome back through the same grant
// (tasks/update {id, status, result: the text or the error}; tasks/update {status: doing} when
// the run starts), the grant is revoked, and the running entry goes. Threads with nothing to do
// wait on a condition variable that wake() (submit, retry) bumps: no polling.
//
// Calls through grants are made here with the ABI's grant_call_service and a wait that stop()
// can give up: the host may stop answering while it shuts down, and a worker must never keep
// stop() waiting for a reply (up to timeout_ms) that may not come. Work abandoned this way stays
// `doing` in the store, so the next start fails it as interrupted — it is never run again by
// itself. A reply that comes after the record left `doing` is dropped (Jobs::finish).
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <platform/sdk.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "jobs.hpp"

namespace work {

struct Settings {
    int workers = 2;              // threads, 1-16
    int64_t timeout_ms = 600000;  // per agent/run
    int64_t lease_ms = 30000;     // a runner's lease (wall clock): others take its work over after
    int64_t poll_ms = 2000;       // the keeper's wake-up of idle workers
};

// The broker topic that says "work was queued" (no body that matters; anyone may publish it).
inline constexpr const char* kQueuedTopic = "platform.work.queued";

class Workers {
public:
    Workers(const platform::Host& host, Jobs& jobs) : host_(host), jobs_(jobs) {}
    ~Workers() { stop(); }
    Workers(const Workers&) = delete;
    Workers& operator=(const Workers&) = delete;

    // Recovers the store, then starts the threads. Throws when the store cannot be read.
    void start(const Settings& settings);
    // Gives up waiting calls, then joins the threads. Idempotent.
    void stop();
    // Work was queued: wakes this process's workers and, through the broker, every replica's.
    void wake();

    // "Work: <first non-empty line of the prompt>", at most 80 bytes, cut on a UTF-8 boundary.
    static std::string title(const std::string& prompt);
    // `text` cut to at most `bytes`, never inside a UTF-8 sequence.
    static std::string cut(const std::string& text, size_t bytes);

private:
    // One reply of a granted call; `abandoned` when stop() gave up on it.
    struct Answer {
        platform::Code code = platform::Code::internal;
        std::string body;
        bool abandoned = false;
    };
    struct Pending;

    void loop(size_t index);
    void keep();  // the keeper thread (see above)
    void take_cleanup(std::vector<json> records);
    void run(const json& job);
    void cleanup(const json& record);
    Answer call(const std::string& grant, const std::string& service, const std::string& method,
                const json& request, int64_t timeout_ms);

    platform::Host host_;
    Jobs& jobs_;
    Settings settings_;
    Signal queued_;
    std::vector<std::thread> threads_;
    std::thread keeper_;
    std::condition_variable keeper_cv_;
    uint64_t subscription_ = 0;  // kQueuedTopic; 0 = none (no broker)
    std::mutex m_;               // guards the three below
    bool stopping_ = false;
    std::vector<json> cleanup_;  // from recover() and sweeps: done by the next free worker
    std::set<std::shared_ptr<Pending>> inflight_;
};

}  // namespace work
