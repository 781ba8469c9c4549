// fuzz_host.hpp — a real host in the fuzzer's process, for the targets that drive the gateway
// (http_request.cpp) and the MCP endpoint (mcp_message.cpp) without sockets.
//
// A Runtime is started with the in-memory providers (store-memory, broker-memory, auth-noop: the
// bearer token text is the account id, `admin` is an admin), a manual clock, and "mirror"
// services: the descriptors of real plugins (kMirrored: their names, verbs, access levels, flags,
// argument schemas, HTTP routes and MCP roles) served by an echo handler instead of the plugin's
// code. So every request goes through the real resolver, payload builder, admission and schema
// validation, and an accepted call answers at once with no state left behind: each input is
// independent of the ones before it. The echo answers the argument object, or for an endpoint
// with an MCP role a minimal well-formed answer of that role (resources, contents, prompts,
// messages, completion).
//
// The plugin files come from the build tree (<build>/plugins, <build>/tests/plugins); a missing
// one aborts with its path (build the targets' dependencies first: tests/fuzz/CMakeLists.txt).
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <platform/host/core/plugin.hpp>
#include <platform/host/core/runtime.hpp>
#include <platform/host/http/gateway.hpp>
#include <platform/host/mcp/mcp.hpp>
#include <string>
#include <vector>

namespace fuzz {

using platform::host::Gateway;
using platform::host::HttpRequest;
using platform::host::HttpResponse;
using platform::host::OpenStream;
using platform::host::Plugin;
using platform::host::Runtime;

// Plugin ids whose endpoints the mirror services serve.
extern const std::vector<std::string> kMirrored;

// The path of a built plugin (<build>/plugins, else <build>/tests/plugins); aborts when there is
// none.
std::string plugin_file(const std::string& id);

// The descriptors of the kMirrored plugins, loaded (not created) once per process.
const std::vector<std::unique_ptr<Plugin>>& mirrored_descriptors();

class FuzzHost {
public:
    // The host whose gateway runs `handler` ("rpc", "api", "event"...), started on first use.
    static FuzzHost& get(const std::string& handler = "rpc");

    Runtime& runtime() { return *runtime_; }
    Gateway& gateway() { return *gateway_; }

private:
    explicit FuzzHost(const std::string& handler);
    std::string dir_;  // exe_dir (plugins/ holds links to the providers) and PLATFORM_HOME
    std::vector<std::unique_ptr<Plugin>> mirrors_;
    std::unique_ptr<Runtime> runtime_;
    std::unique_ptr<Gateway> gateway_;
};

// One request's answer: `reply()` runs once, or a stream opened by `open()` ends. wait() blocks
// until then (at most kAnswerSeconds, else it aborts: a request left unanswered is a finding),
// and a second reply aborts too.
class Exchange {
public:
    static constexpr int kAnswerSeconds = 20;
    Exchange();
    std::function<void(HttpResponse)> reply();
    OpenStream open();
    // The answer; a stream's body is what was written to it.
    HttpResponse wait(const std::string& what);

private:
    struct State {
        std::mutex m;
        std::condition_variable cv;
        int replies = 0;
        bool stream_opened = false, stream_ended = false;
        HttpResponse response;
    };
    std::shared_ptr<State> state_;
};

}  // namespace fuzz
