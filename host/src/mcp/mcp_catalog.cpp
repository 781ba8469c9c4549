// Tools (the runtime's ToolCatalog, tool_catalog.hpp), role endpoints from the descriptors, and
// the tool results of outcomes.
#include <algorithm>
#include <platform/host/core/names.hpp>
#include <platform/host/core/payment.hpp>
#include <platform/host/core/status.hpp>
#include <platform/validation/json_check.hpp>

#include "mcp_internal.hpp"

namespace platform::host::mcp {

Catalog::Catalog(Runtime& runtime) : runtime_(runtime) {}

std::shared_ptr<const std::vector<ToolRef>> Catalog::tools() {
    return runtime_.tools().all();
}

const ToolRef* Catalog::find(const std::vector<ToolRef>& tools, std::string_view name) const {
    return ToolCatalog::find(tools, name);
}

std::vector<std::pair<const ServiceEntry*, const Endpoint*>> Catalog::with_role(
    platform_mcp_role_t role) {
    std::vector<std::pair<const ServiceEntry*, const Endpoint*>> out;
    for (const auto& entry : runtime_.registry().all()) {
        const ServiceEntry* svc =
            entry.plugin ? runtime_.registry().find_exact(entry.name) : nullptr;
        if (!svc || !svc->plugin) continue;
        for (const auto& ep : svc->plugin->endpoints)
            if (ep.mcp_role == role && !ep.internal()) out.emplace_back(svc, &ep);
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

std::optional<std::string> tool_result_text(const Endpoint& ep, const Outcome& o) {
    if (o.code != PLATFORM_OK || o.raw || (ep.flags & PLATFORM_FLAG_MCP_CONTENT) ||
        !validation::json_valid(o.body))
        return std::nullopt;
    const std::string_view body = o.body;
    const size_t first = body.find_first_not_of(" \t\r\n");
    const bool object = first != std::string_view::npos && body[first] == '{';
    std::string out = "{\"content\":[{\"text\":";
    out += json(o.body).dump();  // valid JSON is valid UTF-8: nothing to replace
    out += ",\"type\":\"text\"}],\"structuredContent\":";
    if (!object) out += "{\"data\":";
    out += body;
    if (!object) out += '}';
    out += '}';
    return out;
}

}  // namespace platform::host::mcp
