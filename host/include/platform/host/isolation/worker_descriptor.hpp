// platform/host/isolation/worker_descriptor.hpp — a plugin descriptor as it crosses the worker
// socket.
//
// The worker loads the .so with the in-process loader (load_plugin: ELF check, entry, version
// policy, schemas) and sends describe_json(); the host rebuilds a platform_plugin_desc_t from it
// (OwnedDescriptor) and checks it again with check_descriptor, so an isolated plugin gets the same
// endpoints, routes, MCP tools and OpenAPI entries as the same plugin loaded in process.
//
// JSON shape: {"abi_version", "id", "version", "kind", "summary", "config_schema", "service",
//   "on_cancel": bool, "endpoints": [{"name", "title", "description", "verb", "access", "flags",
//   "input_schema", "output_schema", "max_body_bytes", "price", "since", "http_path", "mcp_role",
//   "mcp_uri_prefix", "live_input", "resume_arg"}]}; fields absent from the plugin's (older) structs are sent as their
//   zero/empty value.
#pragma once

#include <platform/abi.h>

#include <deque>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace platform::host::worker {

// Worker side: the descriptor of a loaded plugin (`d` already passed check_descriptor).
nlohmann::json describe_json(const platform_plugin_desc_t* d);

// Host side: a descriptor built from describe_json() output, owning every string it points to.
// `hooks` supplies the lifecycle and call functions (on_create ... on_cancel; provider NULL).
// Not copyable or movable (the descriptor points into itself); keep it where it was made.
class OwnedDescriptor {
public:
    OwnedDescriptor(const nlohmann::json& described, const platform_plugin_desc_t& hooks);
    OwnedDescriptor(const OwnedDescriptor&) = delete;
    OwnedDescriptor& operator=(const OwnedDescriptor&) = delete;

    const platform_plugin_desc_t* get() const { return &desc_; }
    bool plugin_has_on_cancel() const { return on_cancel_; }

private:
    platform_str_t keep(const nlohmann::json& v);

    std::deque<std::string> strings_;
    std::vector<platform_endpoint_t> endpoints_;
    platform_plugin_desc_t desc_{};
    bool on_cancel_ = false;
};

}  // namespace platform::host::worker
