#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <platform/host/core/runtime.hpp>
#include <platform/host/isolation/worker_plugin.hpp>
#include <regex>

#include "runtime_manager.hpp"

namespace platform::host::runtime {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {
int64_t wall_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}
void remove_dir(const std::string& dir) {
    std::error_code ec;
    if (!dir.empty()) fs::remove_all(dir, ec);
}
}  // namespace

bool Manager::valid_name(const std::string& name) {
    static const std::regex re("^[a-z0-9][a-z0-9-]{0,62}$");
    return std::regex_match(name, re);
}

Manager::Manager(Runtime& runtime, std::string work_dir, Persistence persistence)
    : runtime_(runtime), work_dir_(std::move(work_dir)), persistence_(std::move(persistence)) {
    runtime_.set_log_listener([this](const Plugin& p, platform_log_level_t level,
                                     std::string_view message) {
        std::string name;
        {
            std::lock_guard<std::mutex> g(m_);
            for (const auto& [n, o] : objects_)
                if (o.plugin == &p) name = n;
        }
        static const char* levels[] = {"debug", "info", "warn", "error"};
        if (!name.empty())
            log(name,
                std::string("[") + levels[std::min<int>(level, 3)] + "] " + std::string(message));
    });
    builder_ = std::thread([this] { work(); });
}

Manager::~Manager() {
    stop();
}

void Manager::stop() {
    {
        std::lock_guard<std::mutex> g(m_);
        if (stopping_) return;
        stopping_ = true;
        cancel_ = true;
        cv_.notify_all();
    }
    if (builder_.joinable()) builder_.join();
    runtime_.set_log_listener(nullptr);
}

void Manager::restore(const std::vector<json>& records) {
    std::lock_guard<std::mutex> g(m_);
    for (const auto& r : records) {
        const std::string name = r.value("name", "");
        if (!valid_name(name)) continue;
        objects_[name].record = r;
        const std::string status = r.value("status", "");
        if (status == "error") continue;
        jobs_.push_back({"restore", name});
    }
    cv_.notify_all();
}

json Manager::run(RunRequest req) {
    if (!valid_name(req.name))
        throw RuntimeError(
            PLATFORM_INVALID_ARGUMENT,
            "name: '" + req.name + "' is not a service name (a-z, 0-9 and -, at most 63)");
    json rec = {
        {"name", req.name},       {"version", ""},
        {"source", req.display},  {"type", req.source.kind},
        {"url", req.source.url},  {"ref", req.source.ref},
        {"status", "pending"},    {"build", ""},
        {"updated", wall_ms()},   {"metadata", {{"owner", req.owner}, {"group", req.group}}},
        {"account", ""},          {"commit", ""},
        {"ref_is_commit", false}, {"generation", 0},
        {"src_dir", ""},          {"so_path", ""}};
    {
        std::lock_guard<std::mutex> g(m_);
        if (objects_.count(req.name))
            throw RuntimeError(PLATFORM_CONFLICT,
                               "name: '" + req.name + "' already runs (update or kill it first)");
        objects_[req.name] = Object{rec, nullptr, std::move(req.source.archive)};
    }
    remove_dir(dir_of(req.name));  // leftovers of an earlier object of that name
    persistence_.save(rec);
    log(req.name, "runtime: run " + req.display + " queued");
    std::lock_guard<std::mutex> g(m_);
    jobs_.push_back({"build", req.name});
    cv_.notify_all();
    return rec;
}

json Manager::update(const std::string& name, std::string archive) {
    json rec;
    {
        std::lock_guard<std::mutex> g(m_);
        auto it = objects_.find(name);
        if (it == objects_.end())
            throw RuntimeError(PLATFORM_NOT_FOUND, "name: no service '" + name + "' (see status)");
        if (!archive.empty() && it->second.record.value("type", "") != "archive")
            throw RuntimeError(PLATFORM_INVALID_ARGUMENT,
                               "archive: '" + name + "' runs from git; update it by name");
        it->second.archive = std::move(archive);
        // A running service keeps serving while it is rebuilt: `updating` until the job ends, then
        // `running`, with metadata.error when the new build failed. One that does not run (an
        // earlier error) starts over from `pending`.
        json& r = it->second.record;
        r["status"] = it->second.plugin ? "updating" : "pending";
        if (r.contains("metadata") && r["metadata"].is_object()) r["metadata"].erase("error");
        r["updated"] = wall_ms();
        rec = r;
        jobs_.push_back({"update", name});
        cv_.notify_all();
    }
    persistence_.save(rec);
    return rec;
}

void Manager::kill(const std::string& name) {
    Plugin* plugin = nullptr;
    {
        std::lock_guard<std::mutex> g(m_);
        auto it = objects_.find(name);
        if (it == objects_.end())
            throw RuntimeError(PLATFORM_NOT_FOUND, "name: no service '" + name + "' (see status)");
        plugin = it->second.plugin;
        objects_.erase(it);
        if (building_ == name) cancel_ = true;
    }
    log(name, "runtime: killed");
    if (plugin) runtime_.remove_service(plugin);
    persistence_.erase(name);
    remove_dir(dir_of(name));
}

json Manager::status(const std::string& name) const {
    std::lock_guard<std::mutex> g(m_);
    json out = json::array();
    for (const auto& [n, o] : objects_)
        if (name.empty() || n == name) out.push_back(o.record);
    if (!name.empty() && out.empty())
        throw RuntimeError(PLATFORM_NOT_FOUND, "name: no service '" + name + "' (see status)");
    return out;
}

void Manager::set(const std::string& name, const std::function<void(json&)>& change) {
    json copy;
    {
        std::lock_guard<std::mutex> g(m_);
        auto it = objects_.find(name);
        // Killed meanwhile; or the host is stopping, and a build it cancelled must stay as it was
        // (restore builds it again).
        if (it == objects_.end() || stopping_) return;
        change(it->second.record);
        it->second.record["updated"] = wall_ms();
        copy = it->second.record;
    }
    persistence_.save(copy);
}

void Manager::work() {
    for (;;) {
        Job job;
        {
            std::unique_lock<std::mutex> g(m_);
            cv_.wait(g, [&] { return stopping_ || !jobs_.empty(); });
            if (stopping_) return;
            job = jobs_.front();
            jobs_.pop_front();
            if (!objects_.count(job.name)) continue;
            building_ = job.name;
            cancel_ = false;
        }
        try {
            execute(job);
        } catch (const std::exception& e) {
            spdlog::error("runtime: {} {}: {}", job.kind, job.name, e.what());
            set(job.name,
                [&](json& r) { r["status"] = "error", r["metadata"]["error"] = e.what(); });
        }
        std::lock_guard<std::mutex> g(m_);
        building_.clear();
    }
}

}  // namespace platform::host::runtime
