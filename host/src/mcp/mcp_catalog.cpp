// Tools from the descriptors (one description drives every surface, DESIGN §2) and the tool
// results of outcomes.
#include <algorithm>
#include <platform/host/names.hpp>
#include <platform/host/payment.hpp>
#include <platform/host/status.hpp>

#include "mcp_internal.hpp"

namespace platform::host::mcp {

namespace {
bool catalogue_service(const ServiceEntry& s) {
    return s.plugin && s.relative.rfind("v1.", 0) == 0;
}

json definition(const std::string& name, const Endpoint& ep) {
    const bool read_only = ep.flags & PLATFORM_FLAG_READ_ONLY;
    json annotations = {
        {"readOnlyHint", read_only},
        {"destructiveHint", !read_only && (ep.flags & PLATFORM_FLAG_DESTRUCTIVE) != 0},
        {"idempotentHint", read_only || (ep.flags & PLATFORM_FLAG_IDEMPOTENT) != 0},
        {"openWorldHint", (ep.flags & PLATFORM_FLAG_OPEN_WORLD) != 0}};
    if (!ep.title.empty()) annotations["title"] = ep.title;
    std::string description =
        ep.description.empty() ? (ep.title.empty() ? ep.method : ep.title) : ep.description;
    json d = {{"name", name},
              {"description", description},
              {"inputSchema", ep.input.source()},
              {"annotations", annotations}};
    if (!ep.title.empty()) d["title"] = ep.title;
    // MCP output schemas describe structuredContent, which is always an object.
    if (ep.output_schema.is_object() && ep.output_schema.value("type", "") == "object" &&
        !(ep.flags & PLATFORM_FLAG_MCP_CONTENT))
        d["outputSchema"] = ep.output_schema;
    return d;
}
}  // namespace

Catalog::Catalog(Runtime& runtime) : runtime_(runtime) {
    std::weak_ptr<std::atomic<bool>> dirty = dirty_;
    watch_ = runtime_.registry().watch([dirty](const json&) {
        if (auto d = dirty.lock()) d->store(true);
    });
}

Catalog::~Catalog() {
    runtime_.registry().unwatch(watch_);
}

std::shared_ptr<const std::vector<ToolRef>> Catalog::tools() {
    std::lock_guard<std::mutex> g(m_);
    if (tools_ && !dirty_->exchange(false)) return tools_;
    auto out = std::make_shared<std::vector<ToolRef>>();
    for (const auto& entry : runtime_.registry().all()) {
        if (!catalogue_service(entry)) continue;
        const ServiceEntry* svc = runtime_.registry().find_exact(entry.name);
        if (!svc) continue;
        for (const auto& ep : svc->plugin->endpoints) {
            if (ep.mcp_role != PLATFORM_MCP_TOOL) continue;
            std::string name = std::string(last_segment(svc->relative)) + "_" + ep.name;
            out->push_back(ToolRef{name, svc, &ep, definition(name, ep)});
        }
    }
    std::sort(out->begin(), out->end(),
              [](const ToolRef& a, const ToolRef& b) { return a.name < b.name; });
    tools_ = out;
    return tools_;
}

const ToolRef* Catalog::find(const std::vector<ToolRef>& tools, std::string_view name) const {
    auto it = std::lower_bound(tools.begin(), tools.end(), name,
                               [](const ToolRef& t, std::string_view n) { return t.name < n; });
    return it != tools.end() && it->name == name ? &*it : nullptr;
}

std::vector<std::pair<const ServiceEntry*, const Endpoint*>> Catalog::with_role(
    platform_mcp_role_t role) {
    std::vector<std::pair<const ServiceEntry*, const Endpoint*>> out;
    for (const auto& entry : runtime_.registry().all()) {
        const ServiceEntry* svc =
            entry.plugin ? runtime_.registry().find_exact(entry.name) : nullptr;
        if (!svc || !svc->plugin) continue;
        for (const auto& ep : svc->plugin->endpoints)
            if (ep.mcp_role == role) out.emplace_back(svc, &ep);
    }
    return out;
}

json tool_result(const Endpoint& ep, const Outcome& o) {
    if (o.code != PLATFORM_OK) {
        const auto& info = status_info(o.code);
        json r = {{"content", json::array({{{"type", "text"}, {"text", o.body}}})},
                  {"isError", true}};
        if (!ep.output_schema.is_object())
            r["structuredContent"] = {{"error", {{"code", info.name}, {"message", o.body}}}};
        return r;
    }
    if (o.raw) {  // bytes: an embedded blob resource
        const std::string b64 = x402::base64_encode(o.body);
        return {
            {"content",
             json::array({{{"type", "resource"},
                           {"resource",
                            {{"uri", "data:"}, {"mimeType", o.content_type}, {"blob", b64}}}}})}};
    }
    json result = json::parse(o.body, nullptr, false);
    if (result.is_discarded()) result = o.body;
    if ((ep.flags & PLATFORM_FLAG_MCP_CONTENT) && result.is_object() &&
        result.contains("content") && result["content"].is_array())
        return result;
    json r = {
        {"content",
         json::array({{{"type", "text"},
                       {"text", result.dump(-1, ' ', false, json::error_handler_t::replace)}}})}};
    // structuredContent must be an object: a bare array or value rides in {"data": ...}, as on
    // /api/v1.
    r["structuredContent"] = result.is_object() ? result : json{{"data", result}};
    return r;
}

}  // namespace platform::host::mcp
