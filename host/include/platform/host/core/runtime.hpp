// platform/host/core/runtime.hpp — the host: plugins wired by a profile, and the call path to them.
//
// start(): finds plugin files (plugin_dirs()), loads each (a refused plugin is one
// log line; the others keep serving), creates the profile's providers and then the service
// plugins, starts them and registers their services. stop(): on_stop in reverse order, then
// on_destroy; libraries stay mapped until the process exits.
#pragma once

#include <platform/abi.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <platform/host/core/activity_record.hpp>
#include <platform/host/core/admission.hpp>
#include <platform/host/core/calls.hpp>
#include <platform/host/core/clock.hpp>
#include <platform/host/core/identity.hpp>
#include <platform/host/core/metrics.hpp>
#include <platform/host/core/node_records.hpp>
#include <platform/host/core/operator_console.hpp>
#include <platform/host/core/payment.hpp>
#include <platform/host/core/plugin.hpp>
#include <platform/host/core/plugin_states.hpp>
#include <platform/host/core/profile.hpp>
#include <platform/host/core/secrets.hpp>
#include <platform/host/core/service_registry.hpp>
#include <platform/host/core/settings.hpp>
#include <platform/host/core/timer_queue.hpp>
#include <platform/host/core/tool_catalog.hpp>
#include <platform/host/core/worker_pool.hpp>
#include <platform/host/outbound/outbound.hpp>
#include <string>
#include <variant>
#include <vector>

namespace platform::host {

// One call as the surfaces hand it to the dispatcher.
struct Invocation {
    const ServiceEntry* service = nullptr;
    const Endpoint* endpoint = nullptr;
    nlohmann::json args = nlohmann::json::object();
    std::map<std::string, std::string> headers;  // lower-case names
    std::string credential;                      // bearer token or session cookie text, "" = none
    bool via_cookie = false;                     // the credential came from the session cookie
    std::string http_method;                     // "" for calls that did not come over HTTP
    std::string ns;                              // Platform-Namespace; "" = the host's
    bool admitted = false;                       // the payment step already ran for this call
    bool from_plugin = false;                    // call_service / grant_call_service: may reach
                                                 // internal endpoints (PLATFORM_FLAG_INTERNAL)
    std::string request_id;
    int64_t timeout_ms = 0;                            // 0 = the profile's default
    int64_t deadline_ms = 0;                           // monotonic cap from a parent call; 0 = none
    std::function<bool(std::string_view)> chunk_sink;  // streaming surfaces only
    std::shared_ptr<CallClient> client;                // MCP tools/call only (calls.hpp)
};

// Loads a plugin the profile isolates (`isolation: process`) from its .so: the Plugin to create
// and start, or why it was refused. The isolation layer provides it (WorkerPlugin::load,
// worker_plugin.hpp); whoever wires the host registers it (set_isolated_loader).
using IsolatedLoader =
    std::function<std::variant<std::unique_ptr<Plugin>, std::string>(const std::string& so_path)>;

class Runtime {
public:
    Runtime(Settings settings, Profile profile);
    ~Runtime();

    void start();
    void stop();

    // Gives up on a call whose client went away: answers it and lets the plugin know (on_cancel).
    void abandon(const std::shared_ptr<Call>& call, const std::string& why);

    // Authenticates, checks access, validates, then runs the endpoint on the worker pool under a
    // deadline. `done` runs exactly once, on a worker or timer thread.
    void dispatch(Invocation inv, std::function<void(Outcome)> done);
    // The same for a caller already identified (internal calls between services).
    void dispatch_as(const Identity& who, Invocation inv, std::function<void(Outcome)> done);

    // Resolves a credential through the auth provider; an account it resolves is marked seen in
    // activity() (the operator's credential and anonymous callers are not).
    platform_status_t authenticate(const std::string& credential, Identity& out,
                                   std::string& error);

    const Settings& settings() const { return settings_; }
    const Profile& profile() const { return profile_; }
    const Outbound& outbound() const { return outbound_; }
    ServiceRegistry& registry() { return registry_; }
    Clock& clock() { return clock_; }
    CallTable& calls() { return CallTable::global(); }
    WorkerPool& pool() { return pool_; }
    const platform_host_api_t* api() const { return &api_; }
    const std::vector<std::unique_ptr<Plugin>>& plugins() const { return plugins_; }
    // The plugins start() refused, with the reasons it logged (plugin_states.hpp).
    const PluginRefusals& refusals() const { return refusals_; }
    // Providers chosen by the profile, by kind name ("store"...); nullptr when none.
    Plugin* provider(const std::string& kind) const;
    // A started model provider by plugin id ("model-builtin"); nullptr when not loaded. Every
    // model plugin the profile loads is started; model_choice.hpp picks one per call.
    Plugin* model(const std::string& id) const;
    // The catalogue's tools (MCP tools/list, call_tools).
    ToolCatalog& tools() { return *tools_; }
    // Largest body any endpoint accepts (the HTTP server's buffer limit).
    uint64_t max_body() const;
    // The host's secret key for sealing values at rest (created by start()).
    const Secrets& secrets() const { return *secrets_; }
    // The account a plugin acts as when it calls another service as itself.
    Identity service_identity(const Plugin& p) const;
    // Where the HTTP surfaces listen, once they do (for the network service).
    void set_addresses(std::string api, std::string proxy);
    // Whether the inbound SMTP listener (host/src/smtp/) takes mail: plugins read it as
    // platform.smtp_listening. Set by host_server once the listener is bound.
    void set_smtp_listening(bool on) { smtp_listening_ = on; }
    bool smtp_listening() const { return smtp_listening_; }
    // Every live node sharing this host's store (node_records.hpp), this one first and always,
    // even when the store cannot be read: [{id, address, metadata {proxy, profile}, services,
    // started, last_seen}].
    nlohmann::json network_nodes() const;
    PaymentGate& payments() { return *payments_; }
    Admission& admission() { return *admission_; }
    TimerQueue& timers() { return timers_; }
    // Plugins' resource_updated (ABI 1.4) reaches the listener the MCP server sets.
    void set_resource_listener(
        std::function<void(const std::string& uri, const std::string& account)> fn);
    void resource_updated(const std::string& uri, const std::string& account);
    // The host's metrics (metrics.hpp): calls counted by the dispatcher, requests by the HTTP
    // server. Thread-safe; lives as long as the runtime.
    Metrics& metrics() { return metrics_; }
    // When each account last called (activity_record.hpp); flushed to the store in the
    // background and by stop().
    ActivityRecord& activity() { return activity_; }

    // ---- what the layers above plug in, before start() (server.cpp wires them) ----
    // How `isolation: process` plugins are loaded. Without one they are refused ("plugin
    // isolation is not available in this host").
    void set_isolated_loader(IsolatedLoader loader) { isolated_loader_ = std::move(loader); }
    // A plugin built into the host (the `runtime` service, runtime_service.hpp), served,
    // privileged, when the profile loads `id` and no plugin file has that id.
    void add_builtin(std::string id, std::function<std::unique_ptr<Plugin>()> make) {
        builtins_.emplace_back(std::move(id), std::move(make));
    }

    // ---- services added while the host serves (the `runtime` built-in, runtime_manager.hpp) ----
    // Creates, starts and registers `p` (an isolated plugin: p->worker set). Thread-safe. On
    // failure answers null with `error` and stops the plugin's worker. The Plugin is kept until the
    // process exits, so calls in flight never see it freed.
    Plugin* add_service(std::unique_ptr<Plugin> p, std::string& error);
    // Deregisters a service added with add_service (new calls: 404) and stops its worker; calls
    // still in flight answer 503. The Plugin stays allocated.
    void remove_service(Plugin* p);
    // Plugins' log lines (host table `log`) also reach this listener (the runtime's `logs`).
    void set_log_listener(
        std::function<void(const Plugin&, platform_log_level_t, std::string_view)> fn);
    void plugin_logged(const Plugin& p, platform_log_level_t level, std::string_view message);
    // Plugins' PLATFORM_LOG_OPERATOR notices and the operator credential (operator_console.hpp).
    OperatorConsole& console() { return console_; }

private:
    void load_all();
    void start_models(const std::map<std::string, Plugin*>& by_id);
    bool create(Plugin& p, std::string& error);
    // create, then on_start; on either failing, logs "plugin <path> refused: ..." and returns
    // false (a failed on_start destroys the instance again).
    bool start_or_refuse(Plugin& p);
    // Whether the profile loads plugin `id` (`plugins: all`, or its `plugins:` list names it).
    bool profile_loads(const std::string& id) const;
    std::vector<std::string> plugin_dirs() const;

    Settings settings_;
    Profile profile_;
    Outbound outbound_{profile_.outbound};
    Clock clock_;
    ServiceRegistry registry_;
    OperatorConsole console_;
    platform_host_api_t api_{};
    WorkerPool pool_;
    TimerQueue timers_;
    ActivityRecord activity_;  // after pool_ and timers_, which its flushes use
    std::vector<std::unique_ptr<Plugin>> plugins_;
    PluginRefusals refusals_;
    std::vector<Plugin*> started_;
    std::map<std::string, Plugin*> providers_;
    std::map<std::string, Plugin*> models_;  // started model providers by id
    std::unique_ptr<ToolCatalog> tools_;
    std::unique_ptr<Secrets> secrets_;
    std::unique_ptr<PaymentGate> payments_;
    std::unique_ptr<Admission> admission_;
    Metrics metrics_;
    IsolatedLoader isolated_loader_;
    std::vector<std::pair<std::string, std::function<std::unique_ptr<Plugin>()>>> builtins_;
    std::string api_address_, proxy_address_;
    std::unique_ptr<NodeRecords> node_records_;  // `_nodes` in the store (network_nodes)
    int64_t started_ms_ = 0;                     // real time the runtime was made
    std::atomic<bool> listening_{false};         // set_addresses ran: the record is written
    nlohmann::json own_node(int64_t now_ms) const;
    void refresh_node_record();
    // Registered-service changes to and from the other replicas over the broker (decision 72).
    void relay_registry_changes();
    static void registry_message(void* user, platform_str_t topic, platform_str_t body,
                                 platform_str_t headers);
    uint64_t registry_subscription_ = 0;  // 0 = none
    std::atomic<bool> smtp_listening_{false};
    std::mutex resource_listener_m_;
    std::function<void(const std::string&, const std::string&)> resource_listener_;
    std::atomic<bool> stopped_{false};
    std::mutex dynamic_m_;
    std::vector<std::unique_ptr<Plugin>> dynamic_;  // added by add_service; never freed before exit
    std::vector<Plugin*> dynamic_started_;
    std::mutex log_listener_m_;
    std::function<void(const Plugin&, platform_log_level_t, std::string_view)> log_listener_;
    void sweep_registry();
    void give_up(const std::shared_ptr<Call>& call, Outcome outcome);
};

// Builds the host-services table whose functions reach `Runtime` through each HostCtx.
platform_host_api_t make_host_api();

}  // namespace platform::host
