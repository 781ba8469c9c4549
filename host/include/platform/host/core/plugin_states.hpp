// platform/host/core/plugin_states.hpp — what became of each plugin a Runtime found at start: the
// `runtime` built-in's `plugins` (docs/decisions.md 82).
//
// Runtime::start (runtime.cpp) records each refusal here as it logs it ("plugin <file> refused:
// <why>"); plugin_states() derives the rest from Runtime::plugins() when asked. The refusals are
// kept beside the Runtime, by its address, not in it: they are written during start() only, and
// the Runtime's destructor forgets them. Thread-safe.
#pragma once

#include <memory>
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

// Keeps a refusal of `runtime`'s plugin `file` (`id` "" when unknown) for plugin_states().
void record_refusal(const Runtime& runtime, const std::string& file, const std::string& id,
                    const std::string& why);
// Every plugin `runtime` found at start and every built-in it serves, sorted by id then file
// (files that could not be loaded, with no id, last).
std::vector<PluginState> plugin_states(const Runtime& runtime);
// Drops what was recorded for `runtime` (its destructor).
void forget_plugin_states(const Runtime& runtime);

}  // namespace platform::host
