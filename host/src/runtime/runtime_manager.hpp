// host/src/runtime/runtime_manager.hpp — the runtime's objects: services built from source and run
// in platform-worker processes while the host serves (docs/decisions.md 27).
//
// RECORDS. One JSON record per object: {name, version, source (what the user typed), type
// ("archive" | "git"), url, ref, status, build, updated (ms since the epoch), metadata {owner,
// group[, error]}, account, commit, ref_is_commit, generation, src_dir, so_path}. Status:
// pending -> building -> starting -> running, or error (the reason in metadata.error, the build
// output in the logs). Every change is handed to Persistence::save; kill calls erase.
//
// WORK. run/update only queue a job and answer the record at once; one builder thread fetches
// (fetch_source), builds (build_plugin) and starts the plugin (WorkerPlugin::load +
// Runtime::add_service: always isolated). update of a running object builds the new version
// while the old worker serves, then WorkerPlugin::replace swaps workers (the old one drains); a
// build or start that fails keeps the old worker and records metadata.error. A git object at a
// commit only restarts its worker. A plugin whose new build changes its endpoints is swapped by
// deregistering the old plugin and registering the new one.
//
// FILES. <work_dir>/<name>/{src-N, build-N, log.txt}; the newest generation is kept, older ones
// removed once replaced. log.txt holds build output, runtime events and the plugin's own log lines.
//
// RESTART. restore() takes the saved records at start-up: running objects come back from their
// last build (rebuilt when the .so is gone), pending/building ones are built again.
//
// THREADS. All public functions are thread-safe; followers are called on the thread that logs.
#pragma once

#include <platform/abi.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "runtime_build.hpp"

namespace platform::host {
class Runtime;
struct Plugin;
}  // namespace platform::host

namespace platform::host::runtime {

// A refusal with the ABI status to answer (INVALID_ARGUMENT, NOT_FOUND, CONFLICT...).
struct RuntimeError : std::runtime_error {
    RuntimeError(platform_status_t c, const std::string& m) : std::runtime_error(m), code(c) {}
    platform_status_t code;
};

struct Persistence {
    std::function<void(const nlohmann::json& record)> save;
    std::function<void(const std::string& name)> erase;
};

struct RunRequest {
    std::string name;     // the service name; validated here
    std::string display;  // the source as the user gave it (status SOURCE)
    Source source;
    std::string owner, group;
};

class Manager {
public:
    Manager(Runtime& runtime, std::string work_dir, Persistence persistence);
    ~Manager();

    void restore(const std::vector<nlohmann::json>& records);  // once, at start-up
    void stop();  // cancels a build in progress and joins the builder; workers stay to the host

    nlohmann::json run(RunRequest request);
    // `archive`: a new upload for an archive object ("" = rebuild the source it has).
    nlohmann::json update(const std::string& name, std::string archive);
    void kill(const std::string& name);
    nlohmann::json status(const std::string& name) const;  // array of records ("" = all)
    std::vector<std::string> logs(const std::string& name, size_t lines) const;
    // fn gets each new log line of `name` until it answers false or unfollow.
    uint64_t follow(const std::string& name, std::function<bool(const std::string&)> fn);
    void unfollow(uint64_t id);

    static bool valid_name(const std::string& name);  // [a-z0-9][a-z0-9-]{0,62}

private:
    struct Object {
        nlohmann::json record;
        Plugin* plugin = nullptr;
        std::string archive;  // the upload a queued job will build
    };
    struct Job {
        std::string kind, name;  // kind: build | update | restore
    };
    struct Follower {
        std::string name;
        std::function<bool(const std::string&)> fn;
    };

    void work();
    void execute(const Job& job);
    bool build_into(const std::string& name, nlohmann::json& rec, const std::string& archive,
                    std::string& so, std::string& error);
    Plugin* start_plugin(const std::string& name, const std::string& so, std::string& error);
    void set(const std::string& name, const std::function<void(nlohmann::json&)>& change);
    void log(const std::string& name, const std::string& line);
    std::string dir_of(const std::string& name) const { return work_dir_ + "/" + name; }

    Runtime& runtime_;
    std::string work_dir_;
    Persistence persistence_;
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::map<std::string, Object> objects_;
    std::deque<Job> jobs_;
    bool stopping_ = false;
    std::atomic<bool> cancel_{false};
    std::string building_;  // the object the builder works on
    std::mutex log_m_;
    std::map<uint64_t, Follower> followers_;
    uint64_t next_follower_ = 1;
    std::thread builder_;
};

}  // namespace platform::host::runtime
