// WorkerPlugin's running half: calls, cancels, crashes, restarts with backoff, pings, hang
// detection, replacement and stop (worker_plugin.hpp).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>
#include <platform/host/core/calls.hpp>
#include <platform/host/core/clock.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/core/worker_pool.hpp>
#include <platform/host/isolation/worker_plugin.hpp>

#include "worker_process.hpp"

namespace platform::host {

using nlohmann::json;
using worker::WorkerProcess;

namespace {
platform_call_t* handle(uint64_t id) {
    return reinterpret_cast<platform_call_t*>(static_cast<uintptr_t>(id));
}
uint64_t id_of(platform_call_t* call) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(call));
}
void kill_now(WorkerProcess& p) {
    std::lock_guard<std::mutex> g(p.m);
    if (!p.reaped && p.pid > 0) ::kill(p.pid, SIGKILL);
}
}  // namespace

void WorkerPlugin::call(platform_call_t* call, uint32_t index, platform_str_t args) {
    const uint64_t id = id_of(call);
    const platform_host_api_t* api = plugin_->ctx.runtime->api();
    // The worker that is current now takes the call. One replaced between current() and the lock
    // below is still draining and takes it too, unless the supervisor retired it meanwhile (idle,
    // about to stop): then the worker that replaced it is current, and the call goes there.
    ProcessPtr p;
    bool accepted = false;
    for (int attempt = 0; attempt < 3; ++attempt) {
        p = current();
        if (!p) break;
        std::lock_guard<std::mutex> g(p->m);
        if (p->retired) continue;
        if (!p->dead && p->running) accepted = p->flights.emplace(id, worker::Flight{}).second;
        break;
    }
    auto refuse = [&] {
        std::string why = "plugin " + plugin_->id + " is restarting";
        if (auto last = last_exit(); !last.empty()) why += " (its worker ended: " + last + ")";
        api->respond(call, PLATFORM_UNAVAILABLE, {why.data(), why.size()});
    };
    if (!accepted) return refuse();
    json m = {{"op", "call"},
              {"call", id},
              {"index", index},
              {"args", worker::bytes({args.ptr ? args.ptr : "", args.len})}};
    if (auto c = CallTable::global().find(call)) {
        m["service"] = c->service;
        m["endpoint"] = c->endpoint;
        m["account"] = c->account;
        m["scopes"] = c->scopes;
        m["request_id"] = c->request_id;
        m["deadline_ms"] = c->deadline_ms;
        m["headers"] = c->headers;
    }
    if (p->channel->send(m)) return;
    {
        std::lock_guard<std::mutex> g(p->m);
        p->flights.erase(id);
    }
    refuse();
}

void WorkerPlugin::cancel(platform_call_t* call) {
    const uint64_t id = id_of(call);
    std::vector<ProcessPtr> procs;
    {
        std::lock_guard<std::mutex> g(m_);
        if (current_) procs.push_back(current_);
        procs.insert(procs.end(), draining_.begin(), draining_.end());
    }
    for (auto& p : procs) {
        {
            std::lock_guard<std::mutex> g(p->m);
            auto it = p->flights.find(id);
            if (it == p->flights.end()) continue;
            it->second.answered = true;
            it->second.cancelled_ms = Clock::monotonic_ms();
            p->settle(it);
        }
        p->channel->send({{"op", "cancel"}, {"call", id}});
        return;
    }
}

void WorkerPlugin::on_exit(const ProcessPtr& p, const std::string& why) {
    const std::string how = worker::reap_worker(*p);
    std::vector<uint64_t> unanswered;
    {
        std::lock_guard<std::mutex> g(p->m);
        p->dead = true;
        for (auto& [id, f] : p->flights)
            if (!f.answered) unanswered.push_back(id);
        p->flights.clear();
    }
    Runtime* rt = plugin_ ? plugin_->ctx.runtime : nullptr;
    if (rt)
        worker::drop_relays({rt->api(), reinterpret_cast<platform_host_ctx_t*>(&plugin_->ctx)}, *p);
    bool was_current = false, stopping = false;
    int64_t delay = 0;
    {
        std::lock_guard<std::mutex> g(m_);
        stopping = stopping_;
        draining_.erase(std::remove(draining_.begin(), draining_.end(), p), draining_.end());
        if (current_ == p) {
            was_current = true;
            current_.reset();
            last_exit_ = how;
            if (!stopping_) {
                if (Clock::monotonic_ms() - p->started_ms >= options_.healthy_reset_ms)
                    delay_ms_ = options_.restart_initial_ms;
                delay = delay_ms_;
                restart_at_ = Clock::monotonic_ms() + delay_ms_;
                delay_ms_ = std::min(delay_ms_ * 2, options_.restart_max_ms);
                restart_due_ = true;
                cv_.notify_all();
            }
        }
    }
    const std::string id = plugin_ ? plugin_->id : path_;
    const std::string message =
        stopping ? "plugin " + id + " is stopping"
                 : "plugin " + id + " is restarting (its worker ended: " + how + ")";
    if (rt)
        for (uint64_t call : unanswered)
            rt->api()->respond(handle(call), PLATFORM_UNAVAILABLE,
                               {message.data(), message.size()});
    if (was_current && !stopping)
        spdlog::error(
            "plugin {}: worker pid {} ended: {} ({}); {} calls failed; restarting in {} ms", id,
            p->pid, how, why, unanswered.size(), delay);
}

void WorkerPlugin::supervise() {
    std::unique_lock<std::mutex> lock(m_);
    int64_t next_check = Clock::monotonic_ms() + options_.ping_interval_ms;
    while (!stopping_) {
        int64_t wake = restart_due_ ? std::min(next_check, restart_at_) : next_check;
        cv_.wait_for(lock,
                     std::chrono::milliseconds(std::max<int64_t>(0, wake - Clock::monotonic_ms())));
        if (stopping_) break;
        if (restart_due_ && Clock::monotonic_ms() >= restart_at_) {
            restart_due_ = false;
            lock.unlock();
            restart();
            lock.lock();
            continue;
        }
        if (Clock::monotonic_ms() < next_check) continue;
        next_check = Clock::monotonic_ms() + options_.ping_interval_ms;
        std::vector<ProcessPtr> procs = draining_;
        if (current_) procs.insert(procs.begin(), current_);
        lock.unlock();
        for (auto& p : procs) check_health(p);
        lock.lock();
    }
}

void WorkerPlugin::check_health(const ProcessPtr& p) {
    bool draining, retire = false, wedged = false;
    {
        std::lock_guard<std::mutex> g(m_);
        draining = current_ != p;  // a replaced worker never becomes current again
    }
    {
        std::lock_guard<std::mutex> g(p->m);
        if (p->dead || !p->running) return;
        // Idle and replaced: retired under the same lock a call takes to become its flight, so no
        // call lands on it from here on (WorkerPlugin::call goes to the current worker instead).
        if (draining && p->flights.empty()) retire = p->retired = true;
        for (auto& [id, f] : p->flights)
            if (f.cancelled_ms && !f.returned &&
                Clock::monotonic_ms() - f.cancelled_ms > options_.hang_grace_ms)
                wedged = true;
    }
    const std::string& id = plugin_->id;
    if (wedged) {
        spdlog::error(
            "plugin {}: a handler is still running {} ms after its call was cancelled; killing "
            "worker pid {}",
            id, options_.hang_grace_ms, p->pid);
        return kill_now(*p);
    }
    if (retire) {
        {
            std::lock_guard<std::mutex> g(m_);
            draining_.erase(std::remove(draining_.begin(), draining_.end(), p), draining_.end());
        }
        return worker::terminate_worker(*p, options_.stop_grace_ms);
    }
    if (!p->channel->request({{"op", "ping"}}, options_.ping_timeout_ms) && !p->channel->closed()) {
        spdlog::error("plugin {}: worker pid {} missed a ping ({} ms); killing it", id, p->pid,
                      options_.ping_timeout_ms);
        kill_now(*p);
    }
}

void WorkerPlugin::restart() {
    json described;
    std::string error;
    auto p = spawn(path_, described, error);
    if (p && described != described_) {
        error = "the plugin now describes other endpoints than when it was loaded";
        worker::terminate_worker(*p, 0);
        p.reset();
    }
    if (p && created_ && !bring_up(p, error)) {
        worker::terminate_worker(*p, 0);
        p.reset();
    }
    std::unique_lock<std::mutex> lock(m_);
    if (stopping_) {
        lock.unlock();
        if (p) worker::terminate_worker(*p, options_.stop_grace_ms);
        return;
    }
    if (!p) {
        spdlog::error("plugin {}: worker failed to start: {}; next try in {} ms", plugin_->id,
                      error, delay_ms_);
        restart_at_ = Clock::monotonic_ms() + delay_ms_;
        delay_ms_ = std::min(delay_ms_ * 2, options_.restart_max_ms);
        restart_due_ = true;
        return;
    }
    current_ = p;
    ++restarts_;
    bool died;
    {
        std::lock_guard<std::mutex> g(p->m);
        died = p->dead;
    }
    if (died) {  // it ended before it was current: on_exit did not schedule the next try
        current_.reset();
        restart_at_ = Clock::monotonic_ms() + delay_ms_;
        delay_ms_ = std::min(delay_ms_ * 2, options_.restart_max_ms);
        restart_due_ = true;
        return;
    }
    spdlog::info("plugin {} restarted in worker pid {}", plugin_->id, p->pid);
}

std::string WorkerPlugin::replace(const std::string& so_path) {
    json described;
    std::string error;
    auto p = spawn(so_path, described, error);
    if (!p) return error;
    if (described.value("id", "") != described_.value("id", "") ||
        described["service"] != described_["service"] ||
        described["endpoints"] != described_["endpoints"]) {
        worker::terminate_worker(*p, 0);
        return "the new build changes the plugin's id, service or endpoints";
    }
    if (!bring_up(p, error)) {
        worker::terminate_worker(*p, 0);
        return error;
    }
    std::lock_guard<std::mutex> g(m_);
    if (stopping_) return "stopping";
    if (current_) draining_.push_back(current_);
    current_ = p;
    path_ = so_path;
    restart_due_ = false;
    delay_ms_ = options_.restart_initial_ms;
    return "";
}

void WorkerPlugin::stop() {
    std::vector<ProcessPtr> procs;
    {
        std::lock_guard<std::mutex> g(m_);
        if (stopping_) return;
        stopping_ = true;
        if (current_) procs.push_back(current_);
        procs.insert(procs.end(), draining_.begin(), draining_.end());
        current_.reset();
        draining_.clear();
        cv_.notify_all();
    }
    if (supervisor_.joinable() && supervisor_.get_id() != std::this_thread::get_id())
        supervisor_.join();
    for (auto& p : procs) worker::terminate_worker(*p, options_.stop_grace_ms);
    pool_->stop();
}

}  // namespace platform::host
