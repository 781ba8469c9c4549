// worker_process.hpp (host-internal) — one running `platform-worker` child as the host sees it:
// its pid, its socket, the calls it was sent and what it subscribed to through the host.
//
// Flights: a call id enters when the call is sent, is `answered` when the worker gave a final
// answer or the host answered it itself (cancel, crash), `returned` when the worker said on_call
// returned; it leaves when both are true. Only ids present here may be named by the worker's
// call functions. Everything is guarded by `m`; `dead` is set once, under `m`, before the flights
// are failed, so no flight is added after.
#pragma once

#include <platform/abi.h>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <platform/host/isolation/worker_channel.hpp>
#include <string>
#include <vector>

namespace platform::host::worker {

struct Flight {
    bool answered = false, returned = false;
    int64_t cancelled_ms = 0;  // monotonic time of the host's cancel, 0 = none
};

// A callback the host lends a provider (broker delivery, registry watch) on the worker's behalf.
struct Relay {
    std::weak_ptr<Channel> channel;
    uint64_t token = 0;    // the worker's own handle for it
    uint64_t host_id = 0;  // the subscription / watch id the host gave
};

struct WorkerProcess {
    pid_t pid = -1;
    std::shared_ptr<Channel> channel;
    int64_t started_ms = 0;  // monotonic
    bool running = false;    // created and started: takes calls

    std::mutex m;
    bool dead = false, reaped = false;
    // A replaced worker the supervisor found with no flight and is stopping: it takes no call. Set
    // once, under `m`, only on a worker that is no longer the current one, so a call that picked
    // it before the swap either is already its flight (and it is not idle) or goes to the current
    // worker instead (WorkerPlugin::call; docs/decisions.md 85).
    bool retired = false;
    std::string exit_text;  // "signal 11 (Segmentation fault)", "exit 0"
    std::map<uint64_t, Flight> flights;
    std::map<uint64_t, std::unique_ptr<Relay>> subscriptions, watches;  // by host id

    // Erases the flight once answered and returned (m held).
    void settle(std::map<uint64_t, Flight>::iterator it) {
        if (it->second.answered && it->second.returned) flights.erase(it);
    }
};

// Forks and execs `binary --fd 3 <so_path>` with the child's socket end as fd 3, every other
// descriptor closed and signals unblocked. Returns the pid and the host's end, or -1 and errno text.
pid_t spawn_worker(const std::string& binary, const std::string& so_path, int& host_fd,
                   std::string& error);
// SIGKILL unless reaped, then waitpid; returns how it ended. Safe to call more than once.
std::string reap_worker(WorkerProcess& p);
// SIGTERM, then SIGKILL when the socket is still open after grace_ms; reaps.
void terminate_worker(WorkerProcess& p, int64_t grace_ms);

// Answers one request the worker sent (worker_host_calls.cpp), as the plugin `ctx`.
struct HostSide {
    const platform_host_api_t* api = nullptr;
    platform_host_ctx_t* ctx = nullptr;
};
nlohmann::json serve_host_call(const HostSide& host, WorkerProcess& p,
                               const nlohmann::json& request);
// Ends what the worker subscribed to (broker, registry watches) after it died.
void drop_relays(const HostSide& host, WorkerProcess& p);

}  // namespace platform::host::worker
