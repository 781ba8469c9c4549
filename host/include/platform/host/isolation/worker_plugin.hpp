// platform/host/isolation/worker_plugin.hpp — a plugin that runs in a `platform-worker` process
// (docs/decisions.md 25, protocol in worker_protocol.hpp).
//
// WorkerPlugin::load starts a worker for a .so, takes the descriptor it sends and builds a Plugin
// whose descriptor hooks (on_create, on_start, on_call, on_cancel, on_stop) forward to the worker.
// The runtime then creates, starts and registers it like an in-process plugin: same routes, MCP
// tools and OpenAPI entries. Every host-table function the plugin calls is answered here on the
// plugin's own thread pool (worker_host_calls.cpp), as this plugin.
//
// FAILURES. When the worker dies (crash, abort, kill, protocol error) its calls in flight answer
// 503 UNAVAILABLE "plugin <id> is restarting (...)" and a new worker is started after a backoff
// (restart_initial_ms doubling to restart_max_ms; back to the start once a worker lived
// healthy_reset_ms). Calls arriving meanwhile answer 503 at once. A worker that misses pings for
// ping_timeout_ms, or whose handler is still running hang_grace_ms after its call was cancelled
// (deadline passed: the caller already got 504), is killed and restarted the same way. A new
// worker must describe the same endpoints, else it counts as a failed start.
//
// THREADS. All public functions are thread-safe. One supervisor thread per plugin pings, restarts
// and detects hangs; each worker's socket has a reader thread; host calls run on a small pool.
//
// LIFETIME. Owned by its Plugin (Plugin::worker) and alive until the process exits; stop() ends
// the workers (SIGTERM, SIGKILL after stop_grace_ms; reaped) and the supervisor. No zombies: every
// child is reaped by the thread that saw its socket close.
#pragma once

#include <platform/abi.h>

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <platform/host/core/plugin.hpp>
#include <string>
#include <thread>
#include <variant>
#include <vector>

namespace platform::host {

class WorkerPool;

namespace worker {
class OwnedDescriptor;
struct WorkerProcess;
}  // namespace worker

struct WorkerOptions {
    std::string binary;  // the platform-worker executable (find_worker_binary)
    int64_t restart_initial_ms = 100, restart_max_ms = 10000, healthy_reset_ms = 60000;
    int64_t ping_interval_ms = 1000, ping_timeout_ms = 3000;
    int64_t hang_grace_ms = 2000;
    int64_t stop_grace_ms = 3000;
    int64_t start_timeout_ms = 30000;  // describe, create and start, each
};

// <exe_dir>/platform-worker (build tree and installed bin/), else <exe_dir>/../lib/platform/
// platform-worker; PLATFORM_WORKER overrides. "" when none exists.
std::string find_worker_binary(const std::string& exe_dir);

class WorkerPlugin : public PluginWorker, public std::enable_shared_from_this<WorkerPlugin> {
public:
    // Starts a worker for `so_path` and returns the Plugin to hand to the runtime (its `worker`
    // is this object, its `instance` set by on_create), or why it was refused.
    static std::variant<std::unique_ptr<Plugin>, std::string> load(const std::string& so_path,
                                                                   WorkerOptions options);

    WorkerPlugin(std::string so_path, WorkerOptions options);
    ~WorkerPlugin();

    // Starts a new worker for `so_path` (same id and endpoints), makes it take the new calls and
    // lets the old one finish its calls in flight (up to stop_grace_ms after the last) before
    // stopping it. On failure the old worker keeps serving and the reason is returned. For the
    // runtime's `update`.
    std::string replace(const std::string& so_path) override;
    // Stops every worker and the supervisor; calls then answer 503. Idempotent.
    void stop() override;

    int pid() const override;       // the serving worker's pid, 0 when none
    int restarts() const;           // workers started after the first
    std::string last_exit() const;  // how the last worker ended ("signal 11 (...)"), or ""
    const std::string& path() const { return path_; }

    // Descriptor hooks (through Plugin::desc); public for the trampolines only.
    bool create(const nlohmann::json& config, std::string& error);
    bool start_plugin();
    void call(platform_call_t* call, uint32_t index, platform_str_t args);
    void cancel(platform_call_t* call);

private:
    using ProcessPtr = std::shared_ptr<worker::WorkerProcess>;
    ProcessPtr spawn(const std::string& so_path, nlohmann::json& described, std::string& error);
    bool bring_up(const ProcessPtr& p, std::string& error);  // create + start in the worker
    void on_exit(const ProcessPtr& p, const std::string& why);
    void supervise();
    void restart();
    void check_health(const ProcessPtr& p);
    ProcessPtr current() const;

    std::string path_;
    WorkerOptions options_;
    Plugin* plugin_ = nullptr;  // the Plugin this serves (owns us)
    std::unique_ptr<worker::OwnedDescriptor> desc_;
    nlohmann::json described_;  // what the first worker sent; later workers must match
    nlohmann::json config_ = nlohmann::json::object();
    bool created_ = false;
    std::unique_ptr<WorkerPool> pool_;

    mutable std::mutex m_;
    std::condition_variable cv_;
    ProcessPtr current_;
    std::vector<ProcessPtr> draining_;
    bool stopping_ = false, restart_due_ = false;
    int64_t restart_at_ = 0, delay_ms_ = 0;
    int restarts_ = 0;
    std::string last_exit_;
    std::thread supervisor_;
};

}  // namespace platform::host
