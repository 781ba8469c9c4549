// The catalogue's tools and the per-caller filter shared by MCP and call_tools (tool_catalog.hpp).
#include <algorithm>
#include <platform/host/core/admission.hpp>
#include <platform/host/core/names.hpp>
#include <platform/host/core/tool_catalog.hpp>

namespace platform::host {

using nlohmann::json;

namespace {

bool catalogue_service(const ServiceEntry& s) {
    return s.plugin && s.relative.rfind("v1.", 0) == 0;
}

std::string description_of(const Endpoint& ep) {
    return ep.description.empty() ? (ep.title.empty() ? ep.method : ep.title) : ep.description;
}

json definition(const std::string& name, const Endpoint& ep) {
    const bool read_only = ep.flags & PLATFORM_FLAG_READ_ONLY;
    json annotations = {
        {"readOnlyHint", read_only},
        {"destructiveHint", !read_only && (ep.flags & PLATFORM_FLAG_DESTRUCTIVE) != 0},
        {"idempotentHint", read_only || (ep.flags & PLATFORM_FLAG_IDEMPOTENT) != 0},
        {"openWorldHint", (ep.flags & PLATFORM_FLAG_OPEN_WORLD) != 0}};
    if (!ep.title.empty()) annotations["title"] = ep.title;
    json d = {{"name", name},
              {"description", description_of(ep)},
              {"inputSchema", ep.input.source()},
              {"annotations", annotations}};
    if (!ep.title.empty()) d["title"] = ep.title;
    // MCP output schemas describe structuredContent, which is always an object.
    if (ep.output_schema.is_object() && ep.output_schema.value("type", "") == "object" &&
        !(ep.flags & PLATFORM_FLAG_MCP_CONTENT))
        d["outputSchema"] = ep.output_schema;
    return d;
}

// The call_tools entry of a tool, as text.
std::string agent_entry(const Tool& t) {
    const Endpoint& ep = *t.endpoint;
    const json entry = {{"name", t.name},
                        {"title", ep.title.empty() ? ep.method : ep.title},
                        {"description", description_of(ep)},
                        {"inputSchema", ep.input.source()},
                        {"annotations", t.definition.value("annotations", json::object())},
                        {"service", t.service->name},
                        {"method", ep.method}};
    return entry.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

ToolCatalog::ToolCatalog(ServiceRegistry& registry) : registry_(registry) {
    std::weak_ptr<std::atomic<bool>> dirty = dirty_;
    watch_ = registry_.watch([dirty](const json&) {
        if (auto d = dirty.lock()) d->store(true);
    });
}

ToolCatalog::~ToolCatalog() {
    registry_.unwatch(watch_);
}

std::shared_ptr<const std::vector<Tool>> ToolCatalog::all() {
    std::lock_guard<std::mutex> g(m_);
    if (tools_ && !dirty_->exchange(false)) return tools_;
    auto out = std::make_shared<std::vector<Tool>>();
    for (const auto& entry : registry_.all()) {
        if (!catalogue_service(entry)) continue;
        const ServiceEntry* svc = registry_.find_exact(entry.name);
        if (!svc) continue;
        for (const auto& ep : svc->plugin->endpoints) {
            if (ep.mcp_role != PLATFORM_MCP_TOOL || ep.internal()) continue;
            std::string name = std::string(last_segment(svc->relative)) + "_" + ep.name;
            out->push_back(Tool{name, svc, &ep, definition(name, ep), {}});
            out->back().agent_entry = agent_entry(out->back());
        }
    }
    std::sort(out->begin(), out->end(),
              [](const Tool& a, const Tool& b) { return a.name < b.name; });
    tools_ = out;
    return tools_;
}

const Tool* ToolCatalog::find(const std::vector<Tool>& tools, std::string_view name) {
    auto it = std::lower_bound(tools.begin(), tools.end(), name,
                               [](const Tool& t, std::string_view n) { return t.name < n; });
    return it != tools.end() && it->name == name ? &*it : nullptr;
}

std::vector<const Tool*> tools_for(Admission& admission, const std::vector<Tool>& tools,
                                   const Identity& who, const std::string& ns) {
    std::vector<const Tool*> out;
    for (const auto& t : tools)
        if (admission.may_call(who, ns, *t.service, *t.endpoint)) out.push_back(&t);
    return out;
}

std::string agent_tools(Admission& admission, const std::vector<Tool>& tools, const Identity& who,
                        const std::string& ns, const Plugin* own) {
    std::string out = "[";
    for (const Tool* t : tools_for(admission, tools, who, ns)) {
        const Endpoint& ep = *t->endpoint;
        if ((ep.flags & PLATFORM_FLAG_WITHHELD_FROM_AGENT) || (own && t->service->plugin == own))
            continue;
        if (out.size() > 1) out += ',';
        out += t->agent_entry;
    }
    return out += ']';
}

}  // namespace platform::host
