// Services registered through the registry service: records with nodes (id, address, metadata)
// that expire without a heartbeat within their TTL (90 s by default).
#include <platform/host/core/names.hpp>
#include <platform/host/core/service_registry.hpp>
#include <regex>

namespace platform::host {

using nlohmann::json;

namespace {
std::string check_record(const json& s) {
    static const std::regex name_re("^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$");
    if (!s.is_object()) return "service: must be a JSON object";
    if (!s.contains("name") || !s["name"].is_string() ||
        !std::regex_match(s["name"].get<std::string>(), name_re))
        return "service.name: must be a name of letters, digits, '.', '_' or '-'";
    if (s.contains("version") && !s["version"].is_string())
        return "service.version: must be a string";
    if (s.contains("metadata") && !s["metadata"].is_object())
        return "service.metadata: must be an object";
    if (s.contains("endpoints")) {
        if (!s["endpoints"].is_array()) return "service.endpoints: must be an array";
        for (const auto& e : s["endpoints"])
            if (!e.is_object() || !e.contains("name") || !e["name"].is_string())
                return "service.endpoints: each needs a string name";
    }
    if (s.contains("nodes")) {
        if (!s["nodes"].is_array()) return "service.nodes: must be an array";
        for (const auto& n : s["nodes"]) {
            if (!n.is_object() || !n.contains("id") || !n["id"].is_string() ||
                n["id"].get<std::string>().empty())
                return "service.nodes: each needs a non-empty string id";
            if (n.contains("address") && !n["address"].is_string())
                return "service.nodes.address: must be a string";
            if (n.contains("metadata") && !n["metadata"].is_object())
                return "service.nodes.metadata: must be an object";
        }
    }
    return "";
}
}  // namespace

json ServiceRegistry::describe_external(const External& e, int64_t now_ms) const {
    json out = e.record;
    out["nodes"] = json::array();
    for (const auto& [_, n] : e.nodes)
        if (n.expires_at_ms > now_ms) out["nodes"].push_back(n.record);
    return out;
}

platform_status_t ServiceRegistry::register_external(const json& service, int64_t ttl_ms,
                                                     int64_t now_ms, std::string& error) {
    if (error = check_record(service); !error.empty()) return PLATFORM_INVALID_ARGUMENT;
    if (!service.contains("nodes") || service["nodes"].empty()) {
        error = "service.nodes: at least one node is needed to register";
        return PLATFORM_INVALID_ARGUMENT;
    }
    const std::string name = service["name"];
    if (find_exact(name) || find_exact(qualify(ns_, name))) {
        error = "service.name: " + name + " is served by a plugin of this host";
        return PLATFORM_CONFLICT;
    }
    if (ttl_ms <= 0) ttl_ms = kDefaultTtlMs;
    json snapshot;
    std::string action;
    {
        std::unique_lock<std::shared_mutex> g(m_);
        auto [it, created] = externals_.try_emplace(name);
        External& e = it->second;
        e.record = {{"name", name},
                    {"version", service.value("version", "latest")},
                    {"endpoints", service.value("endpoints", json::array())},
                    {"metadata", service.value("metadata", json::object())}};
        bool new_node = false;
        for (const auto& n : service["nodes"]) {
            json node = {{"id", n["id"]},
                         {"address", n.value("address", "")},
                         {"metadata", n.value("metadata", json::object())}};
            auto [nit, added] = e.nodes.try_emplace(n["id"].get<std::string>());
            new_node |= added || nit->second.record != node;
            nit->second = Node{std::move(node), now_ms + ttl_ms};
        }
        action = created ? "create" : (new_node ? "update" : "");
        snapshot = describe_external(e, now_ms);
    }
    if (!action.empty()) notify(action, snapshot);
    return PLATFORM_OK;
}

platform_status_t ServiceRegistry::deregister_external(const json& service, std::string& error) {
    if (error = check_record(service); !error.empty()) return PLATFORM_INVALID_ARGUMENT;
    const std::string name = service["name"];
    json snapshot;
    std::string action;
    {
        std::unique_lock<std::shared_mutex> g(m_);
        auto it = externals_.find(name);
        if (it == externals_.end()) {
            error = "service.name: no registered service " + name;
            return PLATFORM_NOT_FOUND;
        }
        if (service.contains("nodes") && !service["nodes"].empty())
            for (const auto& n : service["nodes"])
                it->second.nodes.erase(n["id"].get<std::string>());
        else
            it->second.nodes.clear();
        snapshot = it->second.record;
        snapshot["nodes"] = json::array();
        for (const auto& [_, n] : it->second.nodes) snapshot["nodes"].push_back(n.record);
        action = it->second.nodes.empty() ? "delete" : "update";
        if (it->second.nodes.empty()) externals_.erase(it);
    }
    notify(action, snapshot);
    return PLATFORM_OK;
}

void ServiceRegistry::expire(int64_t now_ms) {
    std::vector<std::pair<std::string, json>> changes;
    {
        std::unique_lock<std::shared_mutex> g(m_);
        for (auto it = externals_.begin(); it != externals_.end();) {
            size_t before = it->second.nodes.size();
            for (auto n = it->second.nodes.begin(); n != it->second.nodes.end();)
                n = n->second.expires_at_ms <= now_ms ? it->second.nodes.erase(n) : std::next(n);
            if (it->second.nodes.size() == before) {
                ++it;
                continue;
            }
            json snapshot = describe_external(it->second, now_ms);
            if (it->second.nodes.empty()) {
                changes.emplace_back("delete", std::move(snapshot));
                it = externals_.erase(it);
            } else {
                changes.emplace_back("update", std::move(snapshot));
                ++it;
            }
        }
    }
    for (auto& [action, s] : changes) notify(action, s);
}

uint64_t ServiceRegistry::watch(std::function<void(const json&)> fn) {
    std::lock_guard<std::mutex> g(watchers_m_);
    watchers_[next_watch_] = std::move(fn);
    return next_watch_++;
}

bool ServiceRegistry::unwatch(uint64_t id) {
    std::lock_guard<std::mutex> g(watchers_m_);
    return watchers_.erase(id) > 0;
}

void ServiceRegistry::notify(const std::string& action, const json& service) {
    const json event = {{"action", action}, {"service", service}};
    std::lock_guard<std::mutex> g(watchers_m_);  // held so unwatch waits for a running callback
    for (auto& [_, fn] : watchers_) fn(event);
}

std::vector<std::string> ServiceRegistry::node_addresses(std::string_view full_name,
                                                         int64_t now_ms) const {
    std::vector<std::string> out;
    std::shared_lock<std::shared_mutex> g(m_);
    auto it = externals_.find(std::string(full_name));
    if (it == externals_.end()) return out;
    for (const auto& [_, n] : it->second.nodes)
        if (n.expires_at_ms > now_ms && !n.record.value("address", "").empty())
            out.push_back(n.record["address"]);
    return out;
}

}  // namespace platform::host
