// The runtime's builder thread: build, update and restore jobs (runtime_manager.hpp), and the logs.
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <platform/host/core/names.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/isolation/worker_plugin.hpp>

#include "runtime_manager.hpp"

namespace platform::host::runtime {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {
std::string short_hash(const std::string& bytes) {  // FNV-1a, the BUILD column of an upload
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
    return std::string(out, 7);
}
}  // namespace

// Fetches and builds generation N+1 of `name` into src-N+1/build-N+1; fills rec's source fields.
bool Manager::build_into(const std::string& name, json& rec, const std::string& archive,
                         std::string& so, std::string& error) {
    const int gen = rec.value("generation", 0) + 1;
    const std::string dir = dir_of(name), src = dir + "/src-" + std::to_string(gen),
                      build = dir + "/build-" + std::to_string(gen);
    auto out = [&](const std::string& line) { log(name, line); };
    std::error_code ec;
    fs::remove_all(src, ec);
    fs::remove_all(build, ec);
    if (rec.value("type", "") == "archive" && archive.empty()) {  // rebuild what it has
        const std::string old = rec.value("src_dir", "");
        if (old.empty() || !fs::exists(old))
            return error = "source: the uploaded folder is gone; run it again", false;
        fs::copy(old, src, fs::copy_options::recursive, ec);
        if (ec) return error = "source: " + ec.message(), false;
    } else {
        Source s{rec.value("type", ""), rec.value("url", ""), rec.value("ref", ""), archive};
        std::string commit;
        bool at_commit = false;
        if (error = fetch_source(s, src, commit, at_commit, out, &cancel_); !error.empty())
            return false;
        rec["commit"] = commit;
        rec["ref_is_commit"] = at_commit;
        rec["build"] = s.kind == "git" ? commit.substr(0, 7) : short_hash(archive);
    }
    const std::string exe_dir = runtime_.settings().exe_dir,
                      work = runtime_.settings().home + "/runtime";
    BuildEnv env{sdk_dir(exe_dir, work), sdk_prefix(exe_dir, work),
                 work + "/.cache"};  // dot folders: never a service's name
    if (env.cmake_dir.empty())
        return error = "the host does not know where its SDK is (set PLATFORM_SDK_DIR)", false;
    so = build_plugin(src, build, env, name, error, out, &cancel_);
    if (so.empty()) return false;
    rec["generation"] = gen;
    rec["src_dir"] = src;
    return true;
}

// Loads `so` in a new worker, named after the object, and registers it.
Plugin* Manager::start_plugin(const std::string& name, const std::string& so, std::string& error) {
    auto loaded =
        WorkerPlugin::load(so, WorkerOptions{find_worker_binary(runtime_.settings().exe_dir)});
    if (auto* why = std::get_if<std::string>(&loaded)) return error = *why, nullptr;
    auto p = std::move(std::get<std::unique_ptr<Plugin>>(loaded));
    if (p->id != name) {  // --name: the service takes the object's name ("v1.hello" -> "v1.<name>")
        const auto dot = p->service.rfind('.');
        p->service = (dot == std::string::npos ? "" : p->service.substr(0, dot + 1)) + name;
    }
    p->config = json::object();
    p->privileged = false;
    return runtime_.add_service(std::move(p), error);
}

void Manager::execute(const Job& job) {
    json rec;
    Plugin* current = nullptr;
    std::string archive;
    {
        std::lock_guard<std::mutex> g(m_);
        auto& o = objects_.at(job.name);
        rec = o.record;
        current = o.plugin;
        archive = std::move(o.archive);
        o.archive.clear();
    }
    const std::string& name = job.name;
    auto fail = [&](const std::string& why, bool keep_running) {
        log(name, "runtime: " + why);
        set(name, [&](json& r) {
            r["status"] = keep_running ? "running" : "error";  // an update's old worker serves on
            r["metadata"]["error"] = why;
        });
    };
    auto finish = [&](Plugin* p, const std::string& so, json next) {
        const std::string old_src = rec.value("src_dir", ""), old_so = rec.value("so_path", "");
        bool killed = false;
        {
            std::lock_guard<std::mutex> g(m_);
            auto it = objects_.find(name);
            killed = it == objects_.end();
            if (!killed) it->second.plugin = p;
        }
        if (killed) return runtime_.remove_service(p);
        set(name, [&](json& r) {
            for (auto& [k, v] : next.items()) r[k] = v;
            r["status"] = "running";
            r["so_path"] = so;
            r["version"] = p->version;
            r["account"] = runtime_.service_identity(*p).id;
            r["metadata"].erase("error");
        });
        log(name, "runtime: running " + qualify(runtime_.settings().ns, p->service) + " " +
                      p->version + " (worker pid " +
                      std::to_string(p->worker ? p->worker->pid() : 0) + ")");
        std::error_code ec;  // the previous generation, once nothing runs from it
        if (!old_src.empty() && old_src != next.value("src_dir", "")) fs::remove_all(old_src, ec);
        if (!old_so.empty() && old_so != so)
            fs::remove_all(fs::path(old_so).parent_path().parent_path(), ec);
    };

    if (job.kind == "restore" && current == nullptr) {
        const std::string so = rec.value("so_path", "");
        if (!so.empty() && fs::exists(so)) {
            set(name, [](json& r) { r["status"] = "starting"; });
            std::string error;
            if (Plugin* p = start_plugin(name, so, error)) return finish(p, so, json::object());
            return fail("start failed: " + error, false);
        }
    }
    const bool update = current != nullptr;
    if (update && rec.value("ref_is_commit", false)) {  // a commit never changes: restart only
        log(name, "runtime: restarting (the ref is a commit)");
        if (std::string why = current->worker->replace(rec.value("so_path", "")); !why.empty())
            return fail("restart failed: " + why, true);
        return finish(current, rec.value("so_path", ""), json::object());
    }
    log(name, update ? "runtime: updating" : "runtime: building");
    if (!update) set(name, [](json& r) { r["status"] = "building", r["metadata"].erase("error"); });
    std::string so, error;
    json next = rec;
    if (!build_into(name, next, archive, so, error)) return fail(error, update);
    if (!update) {
        set(name, [](json& r) { r["status"] = "starting"; });
        Plugin* p = start_plugin(name, so, error);
        return p ? finish(p, so, next) : fail("start failed: " + error, false);
    }
    // Same endpoints: a new worker takes the calls, the old one drains. Otherwise swap plugins.
    if (std::string why = current->worker->replace(so); why.empty())
        return finish(current, so, next);
    auto loaded =
        WorkerPlugin::load(so, WorkerOptions{find_worker_binary(runtime_.settings().exe_dir)});
    if (auto* why = std::get_if<std::string>(&loaded)) return fail("update failed: " + *why, true);
    std::get<std::unique_ptr<Plugin>>(loaded)->worker->stop();  // it loads; start it for real below
    runtime_.remove_service(current);
    {
        std::lock_guard<std::mutex> g(m_);
        if (auto it = objects_.find(name); it != objects_.end()) it->second.plugin = nullptr;
    }
    Plugin* p = start_plugin(name, so, error);
    return p ? finish(p, so, next) : fail("start failed: " + error, false);
}

void Manager::log(const std::string& name, const std::string& line) {
    std::vector<std::pair<uint64_t, std::function<bool(const std::string&)>>> targets;
    {
        std::lock_guard<std::mutex> g(log_m_);
        std::error_code ec;
        fs::create_directories(dir_of(name), ec);
        std::ofstream(dir_of(name) + "/log.txt", std::ios::app) << line << "\n";
        for (const auto& [id, f] : followers_)
            if (f.name == name) targets.emplace_back(id, f.fn);
    }
    for (auto& [id, fn] : targets)
        if (!fn(line)) unfollow(id);
}

std::vector<std::string> Manager::logs(const std::string& name, size_t lines) const {
    status(name);  // NOT_FOUND for an unknown name
    std::ifstream in(dir_of(name) + "/log.txt");
    std::vector<std::string> all;
    for (std::string line; std::getline(in, line);) all.push_back(line);
    if (all.size() > lines) all.erase(all.begin(), all.end() - static_cast<long>(lines));
    return all;
}

uint64_t Manager::follow(const std::string& name, std::function<bool(const std::string&)> fn) {
    status(name);
    std::lock_guard<std::mutex> g(log_m_);
    followers_[next_follower_] = Follower{name, std::move(fn)};
    return next_follower_++;
}

void Manager::unfollow(uint64_t id) {
    std::lock_guard<std::mutex> g(log_m_);
    followers_.erase(id);
}

}  // namespace platform::host::runtime
