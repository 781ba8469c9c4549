#include <spdlog/spdlog.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <platform/host/core/calls.hpp>
#include <platform/host/core/clock.hpp>
#include <platform/host/core/loader.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/core/worker_pool.hpp>
#include <platform/host/isolation/worker_descriptor.hpp>
#include <platform/host/isolation/worker_plugin.hpp>

#include "worker_process.hpp"

namespace platform::host {

using nlohmann::json;
using worker::WorkerProcess;

namespace {

// The descriptor hooks of an isolated plugin: `inst` is its WorkerPlugin.
WorkerPlugin& of(void* inst) {
    return *static_cast<WorkerPlugin*>(inst);
}
void* hook_create(const platform_host_api_t*, platform_host_ctx_t* ctx, platform_str_t config,
                  char* err, size_t size) {
    auto& wp = static_cast<WorkerPlugin&>(*reinterpret_cast<HostCtx*>(ctx)->plugin->worker);
    json cfg = json::parse(std::string(config.ptr ? config.ptr : "", config.len), nullptr, false);
    std::string error;
    if (!wp.create(cfg.is_object() ? cfg : json::object(), error)) {
        std::snprintf(err, size, "%s", error.c_str());
        return nullptr;
    }
    return &wp;
}
platform_status_t hook_start(void* inst) {
    return of(inst).start_plugin() ? PLATFORM_OK : PLATFORM_INTERNAL;
}
void hook_stop(void* inst) {
    of(inst).stop();
}
void hook_destroy(void*) {}
void hook_call(void* inst, platform_call_t* call, uint32_t index, platform_str_t args) {
    of(inst).call(call, index, args);
}
void hook_cancel(void* inst, platform_call_t* call) {
    of(inst).cancel(call);
}

std::string error_of(const std::optional<json>& r, const char* what) {
    if (!r) return std::string("the worker did not answer ") + what;
    auto e = r->find("error");
    return e != r->end() && e->is_string() ? e->get<std::string>() : std::string(what) + " failed";
}
bool ok(const std::optional<json>& r) {
    return r && r->value("code", -1) == PLATFORM_OK;
}
}  // namespace

std::string find_worker_binary(const std::string& exe_dir) {
    if (const char* env = std::getenv("PLATFORM_WORKER"); env && *env) return env;
    for (const std::string& candidate :
         {exe_dir + "/platform-worker", exe_dir + "/../lib/platform/platform-worker"})
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    return "";
}

WorkerPlugin::WorkerPlugin(std::string so_path, WorkerOptions options)
    : path_(std::move(so_path)),
      options_(std::move(options)),
      pool_(std::make_unique<WorkerPool>(2, 32)),
      delay_ms_(options_.restart_initial_ms) {}

WorkerPlugin::~WorkerPlugin() {
    stop();
}

std::variant<std::unique_ptr<Plugin>, std::string> WorkerPlugin::load(const std::string& so_path,
                                                                      WorkerOptions options) {
    if (options.binary.empty())
        return std::string("isolation: process needs the platform-worker executable (not found)");
    auto wp = std::make_shared<WorkerPlugin>(so_path, std::move(options));
    json described;
    std::string error;
    auto proc = wp->spawn(so_path, described, error);
    if (!proc) return "in a worker: " + error;
    auto refuse = [&](std::string why) {
        worker::terminate_worker(*proc, 0);
        return why;
    };
    if (described.value("kind", 0) != PLATFORM_KIND_SERVICE)
        return refuse("isolation: process is for service plugins; providers run in the host");
    platform_plugin_desc_t hooks{};
    hooks.on_create = hook_create;
    hooks.on_start = hook_start;
    hooks.on_stop = hook_stop;
    hooks.on_destroy = hook_destroy;
    hooks.on_call = hook_call;
    hooks.on_cancel = hook_cancel;
    wp->desc_ = std::make_unique<worker::OwnedDescriptor>(described, hooks);
    auto plugin = std::make_unique<Plugin>();
    plugin->path = so_path;
    plugin->desc = wp->desc_->get();
    if (auto problem = check_descriptor(plugin->desc, *plugin); !problem.empty())
        return refuse(problem);
    plugin->worker = wp;
    wp->plugin_ = plugin.get();
    wp->described_ = std::move(described);
    wp->current_ = std::move(proc);
    wp->supervisor_ = std::thread([raw = wp.get()] { raw->supervise(); });
    return plugin;
}

WorkerPlugin::ProcessPtr WorkerPlugin::spawn(const std::string& so_path, json& described,
                                             std::string& error) {
    int fd = -1;
    pid_t pid = worker::spawn_worker(options_.binary, so_path, fd, error);
    if (pid < 0) return nullptr;
    auto p = std::make_shared<WorkerProcess>();
    p->pid = pid;
    p->started_ms = Clock::monotonic_ms();
    std::weak_ptr<WorkerPlugin> self = weak_from_this();
    std::weak_ptr<WorkerProcess> weak = p;
    auto on_message = [self, weak](json m) {
        auto wp = self.lock();
        auto proc = weak.lock();
        if (!wp || !proc) return;
        if (m["op"] == "returned") {
            std::lock_guard<std::mutex> g(proc->m);
            auto it = proc->flights.find(m.value("call", uint64_t{0}));
            if (it != proc->flights.end()) {
                it->second.returned = true;
                proc->settle(it);
            }
            return;
        }
        wp->pool_->submit([wp, proc, m = std::move(m)] {
            Plugin* plugin = wp->plugin_;
            json answer = {{"code", PLATFORM_UNAVAILABLE}};
            if (plugin && plugin->ctx.runtime)
                answer =
                    worker::serve_host_call({plugin->ctx.runtime->api(),
                                             reinterpret_cast<platform_host_ctx_t*>(&plugin->ctx)},
                                            *proc, m);
            if (m.contains("id"))
                proc->channel->reply(m, answer.is_null() ? json::object() : std::move(answer));
        });
    };
    // The closure keeps the process record until its socket closes (Channel drops it then).
    auto on_closed = [self, p](const std::string& why) {
        if (auto wp = self.lock())
            wp->on_exit(p, why);
        else
            worker::reap_worker(*p);
    };
    p->channel = std::make_shared<worker::Channel>(fd, on_message, on_closed);
    p->channel->start();
    auto reply = p->channel->request({{"op", "describe"}}, options_.start_timeout_ms);
    if (!ok(reply) || !(*reply)["desc"].is_object()) {
        error = error_of(reply, "describe");
        worker::terminate_worker(*p, 0);
        if (!reply) error += " (" + p->exit_text + ")";
        return nullptr;
    }
    described = (*reply)["desc"];
    return p;
}

bool WorkerPlugin::create(const json& config, std::string& error) {
    config_ = config;
    created_ = true;
    auto p = current();
    if (!p) return error = "its worker is not running", false;
    auto r = p->channel->request(
        {{"op", "create"}, {"config", config_}, {"privileged", plugin_->privileged}},
        options_.start_timeout_ms);
    if (!ok(r)) error = error_of(r, "create");
    return ok(r);
}

bool WorkerPlugin::start_plugin() {
    auto p = current();
    auto r = p ? p->channel->request({{"op", "start"}}, options_.start_timeout_ms) : std::nullopt;
    if (!ok(r)) return false;
    std::lock_guard<std::mutex> g(p->m);
    p->running = true;
    spdlog::info("plugin {} runs in worker pid {}", plugin_->id, p->pid);
    return true;
}

bool WorkerPlugin::bring_up(const ProcessPtr& p, std::string& error) {
    auto r = p->channel->request(
        {{"op", "create"}, {"config", config_}, {"privileged", plugin_->privileged}},
        options_.start_timeout_ms);
    if (!ok(r)) return error = error_of(r, "create"), false;
    r = p->channel->request({{"op", "start"}}, options_.start_timeout_ms);
    if (!ok(r)) return error = error_of(r, "start"), false;
    std::lock_guard<std::mutex> g(p->m);
    p->running = true;
    return true;
}

WorkerPlugin::ProcessPtr WorkerPlugin::current() const {
    std::lock_guard<std::mutex> g(m_);
    return current_;
}

int WorkerPlugin::pid() const {
    auto p = current();
    return p ? p->pid : 0;
}
int WorkerPlugin::restarts() const {
    std::lock_guard<std::mutex> g(m_);
    return restarts_;
}
std::string WorkerPlugin::last_exit() const {
    std::lock_guard<std::mutex> g(m_);
    return last_exit_;
}

}  // namespace platform::host
