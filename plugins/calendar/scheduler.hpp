// scheduler — fires due events (README.md, "Firing"). One thread per plugin instance, started by
// Calendar::start and joined by Calendar::stop. It waits on a condition variable for `poll_ms`
// of real time (or until create/update wake it), then reads the host's business clock
// (Host::now_ms: manual in the `test` profile, so tests move it with the clock service) and takes
// every entry of the due index (due.hpp) at or before it, soonest first. The first pass waits
// `start_delay_ms` after start, so the services a step calls (agent, auth) are loaded; it first
// puts back any due entry a record names but the index lacks (due.hpp repair).
//
// One step, exactly once across hosts sharing the store and across restarts:
//   1. claim: compare-and-set on the record, from "due = this entry" to "firing {stage,
//      occurrence}" with a recover entry `kLeaseMs` of business time later as its step (the
//      claimed entry is erased). An entry the record does not name is stale: deleted (CAS on its
//      value), nothing runs. Two hosts reading the same entry: one CAS wins.
//   2. run the step (firing.hpp), outside any lock, acting through the event's grant.
//   3. finish: compare-and-set again: the outcome is recorded (prepare: `briefing` or
//      `last_error`; fire: `last_fired`, `last_error`, `done`) and, unless the owner re-planned the
//      event meanwhile, the next step: after prepare, fire at the occurrence; after fire, the first
//      occurrence after both it and now — a host that was down across several occurrences fires
//      once, late, and moves on to the next future one. A one-off with nothing left is marked
//      `fired: true` and its grant revoked.
// A host that dies during step 2 leaves the recover entry: when it comes due (on any host), the
// step is recorded as interrupted in `last_error` and the event moves on — the step is never run
// twice. A deleted event is simply gone when its step finishes.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <platform/sdk.hpp>
#include <thread>

#include "due.hpp"
#include "firing.hpp"

namespace calendar {

class Scheduler {
public:
    explicit Scheduler(const platform::Host& host);
    ~Scheduler() { stop(); }
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    void start();
    void stop();  // waits for a step that is running (a call is not interrupted)
    // A step may be due now (an event was created or changed): pass without waiting.
    void wake();

    // Passes over the due index completed in this process (tests wait on it).
    static uint64_t passes();

    static constexpr int64_t kLeaseMs = 15 * 60 * 1000;  // longer than any step's calls
    static constexpr size_t kPerPass = 256;

private:
    void run();
    void pass();
    void step(const Due& d);

    platform::Host host_;
    Firing firing_;
    int poll_ms_, start_delay_ms_;
    std::thread thread_;
    std::mutex m_;
    std::condition_variable cv_;
    std::atomic<bool> stopping_{false};
    bool woken_ = false;
};

}  // namespace calendar
