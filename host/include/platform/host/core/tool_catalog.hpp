// platform/host/core/tool_catalog.hpp — the catalogue's endpoints as tools, and which of them a
// caller may use. One description drives every surface: MCP's tools/list and tools/call (mcp.hpp)
// and the host table's call_tools (ABI 1.5, what the agent offers its model) both read this
// catalogue and filter it with tools_for, so the two lists never drift apart.
//
// A tool is an endpoint of a catalogue service (`v1.*`, served by a plugin) whose MCP role is
// PLATFORM_MCP_TOOL, named `<service>_<endpoint>` ("notes_add"); its definition is the tools/list
// entry {name, title?, description, inputSchema, outputSchema?, annotations}.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <platform/host/core/identity.hpp>
#include <platform/host/core/service_registry.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace platform::host {

class Admission;

struct Tool {
    std::string name;  // <service>_<method>
    const ServiceEntry* service = nullptr;
    const Endpoint* endpoint = nullptr;
    nlohmann::json definition;  // the tools/list entry
    std::string agent_entry;    // its call_tools entry as JSON text (agent_tools)
};

class ToolCatalog {
public:
    explicit ToolCatalog(ServiceRegistry& registry);
    ~ToolCatalog();
    ToolCatalog(const ToolCatalog&) = delete;
    ToolCatalog& operator=(const ToolCatalog&) = delete;

    // Every tool, sorted by name; rebuilt after a registry change. Thread-safe.
    std::shared_ptr<const std::vector<Tool>> all();
    // A tool of `tools` by name, or null.
    static const Tool* find(const std::vector<Tool>& tools, std::string_view name);

private:
    ServiceRegistry& registry_;
    std::mutex m_;
    std::shared_ptr<const std::vector<Tool>> tools_;
    std::shared_ptr<std::atomic<bool>> dirty_ = std::make_shared<std::atomic<bool>>(true);
    uint64_t watch_ = 0;
};

// The tools `who` may call in namespace `ns` ("" = the host's): rules, token restrictions and
// endpoint access, as Admission::may_call decides, in name order.
std::vector<const Tool*> tools_for(Admission& admission, const std::vector<Tool>& tools,
                                   const Identity& who, const std::string& ns);

// The host table's call_tools answer: tools_for `who`, minus endpoints flagged
// PLATFORM_FLAG_WITHHELD_FROM_AGENT and the services of `own` (the calling plugin), as a JSON
// array of {name, title, description, inputSchema, annotations, service (full name), method
// (Service.Method)}, as JSON text: the entries' texts are made once with the catalogue, since an
// agent asks for them at every reply and they come to 100 KB and more (decision 79).
std::string agent_tools(Admission& admission, const std::vector<Tool>& tools, const Identity& who,
                        const std::string& ns, const Plugin* own);

}  // namespace platform::host
