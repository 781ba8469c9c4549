// platform/host/core/plugin.hpp — a loaded plugin and its endpoints, as the host sees them.
#pragma once

#include <platform/abi.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <platform/validation/schema.hpp>
#include <string>
#include <vector>

namespace platform::host {

// The argument validator (plugin-sdk/src/validation), shared with the fake host.
using validation::Schema;
using validation::SchemaError;

class Runtime;
struct Plugin;

// A plugin's worker process (`isolation: process`). The isolation layer implements it
// (WorkerPlugin, worker_plugin.hpp), so the runtime and the services above it can stop, replace
// and inspect a worker without linking that layer. Owned by its Plugin; thread-safe.
class PluginWorker {
public:
    virtual ~PluginWorker() = default;
    // Stops every worker of the plugin; its calls then answer 503. Idempotent.
    virtual void stop() = 0;
    // Serves the plugin from a new .so (same id and endpoints) once its worker is up; "" then,
    // otherwise why not (the old worker keeps serving).
    virtual std::string replace(const std::string& so_path) = 0;
    // The serving worker's pid, 0 when none.
    virtual int pid() const = 0;
};

// The opaque platform_host_ctx_t handed to a plugin: which runtime, which plugin.
struct HostCtx {
    Runtime* runtime = nullptr;
    Plugin* plugin = nullptr;
};

struct Endpoint {
    explicit Endpoint(Schema schema) : input(std::move(schema)) {}
    uint32_t index = 0;
    std::string name;    // as in paths: "add", "listServices"
    std::string method;  // canonical: "Notes.Add"
    std::string title, description, since;
    std::string http_path;  // route template served by the gateway ("/notes/{title}"), "" = none
    platform_mcp_role_t mcp_role = PLATFORM_MCP_TOOL;  // what it is to MCP (abi.h, 1.4)
    std::string mcp_uri_prefix;                        // RESOURCE_READ: the URIs it serves
    std::string live_input;  // streaming: the sibling endpoint a WebSocket's messages call (1.8)
    std::string resume_arg;  // streaming: the argument a resumed stream gets the cursor in (1.8)
    platform_verb_t verb = PLATFORM_VERB_POST;
    platform_access_t access = PLATFORM_ACCESS_PUBLIC;
    uint64_t flags = 0, max_body = PLATFORM_DEFAULT_MAX_BODY, price = 0;
    Schema input;
    nlohmann::json output_schema;  // null when not declared

    // For other plugins only (PLATFORM_FLAG_INTERNAL): not routed from outside, never listed.
    bool internal() const { return (flags & PLATFORM_FLAG_INTERNAL) != 0; }
};

struct Plugin {
    std::string path;
    std::string id, version, summary;
    std::string service;  // relative service name ("v1.notes"), empty for providers
    platform_kind_t kind = 0;
    uint32_t abi_version = 0;
    const platform_plugin_desc_t* desc = nullptr;
    std::vector<Endpoint> endpoints;
    nlohmann::json config = nlohmann::json::object();
    bool privileged = false;
    void* instance = nullptr;
    HostCtx ctx;
    void* library = nullptr;  // boost::dll::shared_library*, deliberately never unloaded
    // Set when the plugin runs in a worker process (`isolation: process`, worker_plugin.hpp);
    // `library` is then null and `desc` forwards to the worker.
    std::shared_ptr<PluginWorker> worker;

    bool has(platform_kind_t k) const { return kind == k; }
    const Endpoint* endpoint(std::string_view name_or_method) const;
    // As endpoint(), but nullptr for an internal one: what callers from outside may name.
    const Endpoint* public_endpoint(std::string_view name_or_method) const {
        const Endpoint* e = endpoint(name_or_method);
        return e && !e->internal() ? e : nullptr;
    }
};

}  // namespace platform::host
