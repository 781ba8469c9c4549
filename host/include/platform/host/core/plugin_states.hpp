// platform/host/core/plugin_states.hpp — what became of each plugin a Runtime found at start: the
// `runtime` built-in's `plugins` (docs/decisions.md 82).
//
// Runtime::start (runtime.cpp) records each refusal in its PluginRefusals as it logs it ("plugin
// <file> refused: <why>"); plugin_states() derives the rest from Runtime::plugins() when asked.
#pragma once

#include <memory>
#include <mutex>
#include <platform/host/core/plugin.hpp>
#include <string>
#include <vector>

namespace platform::host {

class Runtime;

struct PluginState {
    std::string file;     // the library, or "<built-in runtime>"
    std::string id;       // "" when the file could not be loaded
    std::string version;  // "" when the file could not be loaded
    std::string kind;     // service, store, broker, events, auth, model; "" when not loaded
    std::string service;  // the full name of the service it serves, "" for none
    // loaded (in the host's process), isolated (in a platform-worker), refused (`reason` says
    // why), or unused (found; the profile does not load it, `reason` says so)
    std::string state;
    std::string reason;
    std::shared_ptr<PluginWorker> worker;  // isolated: its worker (restarts, last exit)
};

// The plugins a Runtime refused at start, with the reasons it logged. Thread-safe.
class PluginRefusals {
public:
    struct Refusal {
        std::string file, id, reason;  // id "" when the file could not be loaded
    };
    void add(const std::string& file, const std::string& id, const std::string& why);
    std::vector<Refusal> all() const;

private:
    mutable std::mutex m_;
    std::vector<Refusal> refusals_;
};

// Every plugin `runtime` found at start and every built-in it serves, sorted by id then file
// (files that could not be loaded, with no id, last).
std::vector<PluginState> plugin_states(const Runtime& runtime);

}  // namespace platform::host
