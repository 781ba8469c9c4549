#include <spdlog/spdlog.h>

#include <optional>
#include <platform/host/core/names.hpp>
#include <platform/host/core/service_registry.hpp>
#include <platform/host/core/status.hpp>

namespace platform::host {

using nlohmann::json;

ServiceRegistry::ServiceRegistry(std::string ns, std::string node_id)
    : ns_(std::move(ns)), node_id_(std::move(node_id)) {}

bool ServiceRegistry::add(Plugin* plugin) {
    ServiceEntry e{qualify(ns_, plugin->service), plugin->service, plugin};
    {
        std::unique_lock<std::shared_mutex> g(m_);
        if (!services_.emplace(e.name, e).second) return false;
        generation_.fetch_add(1);
    }
    notify("create", describe(e));
    return true;
}

bool ServiceRegistry::remove(const Plugin* plugin) {
    std::optional<ServiceEntry> removed;
    {
        std::unique_lock<std::shared_mutex> g(m_);
        for (auto it = services_.begin(); it != services_.end(); ++it) {
            if (it->second.plugin != plugin) continue;
            removed = it->second;
            retired_.push_back(services_.extract(it));  // the entry keeps its address
            generation_.fetch_add(1);
            break;
        }
    }
    if (!removed) return false;
    notify("delete", describe(*removed));
    return true;
}

const ServiceEntry* ServiceRegistry::find(std::string_view name) const {
    std::shared_lock<std::shared_mutex> g(m_);
    for (const auto& candidate :
         {std::string(name), qualify(ns_, name), qualify(ns_, "v1." + std::string(name))}) {
        auto it = services_.find(candidate);
        if (it != services_.end()) return &it->second;
    }
    return nullptr;
}

template <class Lookup>
const ServiceEntry* ServiceRegistry::remembered(
    std::map<std::string, const ServiceEntry*, std::less<>> Remembered::*which,
    std::string_view name, Lookup lookup) const {
    Remembered& mine = remembered_.local();
    const uint64_t now = generation_.load();
    if (mine.generation != now) {
        mine.exact.clear();
        mine.catalogue.clear();
        mine.generation = now;
    }
    auto& found = mine.*which;
    if (auto it = found.find(name); it != found.end()) return it->second;
    std::shared_lock<std::shared_mutex> g(m_);
    const ServiceEntry* e = lookup();
    if (e && generation_.load() == now) found.emplace(std::string(name), e);
    return e;
}

const ServiceEntry* ServiceRegistry::find_exact(std::string_view full_name) const {
    return remembered(&Remembered::exact, full_name, [&]() -> const ServiceEntry* {
        auto it = services_.find(std::string(full_name));
        return it == services_.end() ? nullptr : &it->second;
    });
}

const ServiceEntry* ServiceRegistry::find_catalogue(std::string_view name) const {
    return remembered(&Remembered::catalogue, name, [&]() -> const ServiceEntry* {
        auto it = services_.find(qualify(ns_, "v1." + std::string(name)));
        return it == services_.end() ? nullptr : &it->second;
    });
}

std::vector<ServiceEntry> ServiceRegistry::all() const {
    std::shared_lock<std::shared_mutex> g(m_);
    std::vector<ServiceEntry> out;
    for (const auto& [_, s] : services_) out.push_back(s);
    return out;
}

std::string_view access_name(platform_access_t a) {
    switch (a) {
        case PLATFORM_ACCESS_ACCOUNT:
            return "account";
        case PLATFORM_ACCESS_OWNER:
            return "owner";
        case PLATFORM_ACCESS_ADMIN:
            return "admin";
        default:
            return "public";
    }
}

std::string flag_names(uint64_t flags) {
    static const std::pair<uint64_t, const char*> names[] = {
        {PLATFORM_FLAG_READ_ONLY, "read_only"},
        {PLATFORM_FLAG_DESTRUCTIVE, "destructive"},
        {PLATFORM_FLAG_WITHHELD_FROM_AGENT, "withheld_from_agent"},
        {PLATFORM_FLAG_IDEMPOTENT, "idempotent"},
        {PLATFORM_FLAG_METERED, "metered"},
        {PLATFORM_FLAG_ACTION, "action"},
        {PLATFORM_FLAG_STREAMING, "streaming"},
        {PLATFORM_FLAG_OPEN_WORLD, "open_world"}};
    std::string out;
    for (auto& [bit, name] : names)
        if (flags & bit) out += (out.empty() ? "" : ",") + std::string(name);
    return out;
}

// What the endpoint is to MCP, as the registry reports it (clients list tools from it).
const char* mcp_role_name(platform_mcp_role_t role) {
    switch (role) {
        case PLATFORM_MCP_TOOL:
            return "tool";
        case PLATFORM_MCP_RESOURCES:
            return "resources";
        case PLATFORM_MCP_RESOURCE_TEMPLATES:
            return "resource_templates";
        case PLATFORM_MCP_RESOURCE_READ:
            return "resource_read";
        case PLATFORM_MCP_PROMPTS:
            return "prompts";
        case PLATFORM_MCP_PROMPT_GET:
            return "prompt_get";
        case PLATFORM_MCP_COMPLETE:
            return "complete";
        default:
            return "hidden";
    }
}

json describe_endpoint(const ServiceEntry& s, const Endpoint& e) {
    json values = json::array();
    for (const auto& [name, type] : e.input.property_types())
        values.push_back({{"name", name}, {"type", type.empty() ? "any" : type}});
    const bool catalogue = s.relative.rfind("v1.", 0) == 0;
    std::string path = catalogue ? "/api/v1/" + std::string(last_segment(s.relative)) + "/" + e.name
                                 : "/" + s.relative + "/" + e.name;
    json metadata = {{"verb", e.verb == PLATFORM_VERB_GET ? "GET" : "POST"},
                     {"path", path},
                     {"access", access_name(e.access)},
                     {"flags", flag_names(e.flags)},
                     {"title", e.title},
                     {"description", e.description},
                     {"max_body", std::to_string(e.max_body)},
                     {"since", e.since}};
    if (e.flags & PLATFORM_FLAG_METERED) metadata["price"] = std::to_string(e.price);
    metadata["mcp"] = mcp_role_name(e.mcp_role);
    // Built by moving the parts in: a braced list copies each value again (nlohmann), and every
    // service is described at start for the registry's watchers.
    json request = {{"name", e.method + "Request"}, {"type", "object"}};
    request["values"] = std::move(values);
    json out = {{"name", e.method},
                {"response",
                 {{"name", e.method + "Response"}, {"type", "object"}, {"values", json::array()}}},
                {"schema", e.input.source()}};
    out["request"] = std::move(request);
    out["metadata"] = std::move(metadata);
    if (!e.output_schema.is_null()) out["output_schema"] = e.output_schema;
    return out;
}

json ServiceRegistry::describe(const ServiceEntry& s) const {
    json endpoints = json::array();
    for (const auto& e : s.plugin->endpoints)
        if (!e.internal()) endpoints.push_back(describe_endpoint(s, e));
    json node = {{"id", s.name + "-" + node_id_},
                 {"address", ""},
                 {"metadata",
                  {{"server", "platform"},
                   {"transport", "inproc"},
                   {"protocol", "abi"},
                   {"registry", "platform"},
                   {"broker", "platform"}}}};
    json out = {{"name", s.name},
                {"version", s.plugin->version.empty() ? "latest" : s.plugin->version},
                {"metadata", {{"plugin", s.plugin->id}, {"summary", s.plugin->summary}}}};
    out["endpoints"] = std::move(endpoints);
    out["nodes"] = json::array();
    out["nodes"].push_back(std::move(node));
    return out;
}

json ServiceRegistry::list(int64_t now_ms) const {
    json out = json::array();
    for (const auto& s : all()) out.push_back(describe(s));
    if (shared_) {
        std::vector<std::pair<std::string, std::string>> rows;
        if (platform_status_t st = shared_->scan(now_ms, rows); st != PLATFORM_OK)
            store_trouble("the store holding registered services answered " +
                          std::string(status_info(st).name));
        else if (store_failing_.exchange(false))
            spdlog::info("registry: the store answers again");
        for (const auto& [_, raw] : rows) {
            json d = describe_external(from_stored(json::parse(raw, nullptr, false)), now_ms);
            if (!d["nodes"].empty()) out.push_back(std::move(d));
        }
        return out;
    }
    std::shared_lock<std::shared_mutex> g(m_);
    for (const auto& [_, e] : externals_) {
        json d = describe_external(e, now_ms);
        if (!d["nodes"].empty()) out.push_back(std::move(d));
    }
    return out;
}

json ServiceRegistry::get(std::string_view name, int64_t now_ms) const {
    if (const ServiceEntry* s = find(name)) return json::array({describe(*s)});
    for (const auto& candidate : {std::string(name), qualify(ns_, name)}) {
        std::optional<External> found;
        if (shared_) {
            try {
                found = load_shared(candidate, now_ms, nullptr);
            } catch (const std::runtime_error& e) {
                store_trouble(e.what());
            }
        } else {
            std::shared_lock<std::shared_mutex> g(m_);
            if (auto it = externals_.find(candidate); it != externals_.end()) found = it->second;
        }
        if (!found) continue;
        json d = describe_external(*found, now_ms);
        if (!d["nodes"].empty()) return json::array({std::move(d)});
    }
    return nullptr;
}

}  // namespace platform::host
