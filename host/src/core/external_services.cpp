// Services registered through the registry service: records with nodes (id, address, metadata)
// that expire without a heartbeat within their TTL (90 s by default). In this process, or, once
// share_externals ran, in the store's `_registry` table shared by every replica (decision 72).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <platform/host/core/names.hpp>
#include <platform/host/core/service_registry.hpp>
#include <platform/host/core/status.hpp>
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

namespace {
// How often a write over the store is retried when another replica wrote the same service first.
constexpr int kCasAttempts = 16;
// A stored service outlives its last node's expiry by this long, so that a sweep still finds it
// and tells the watchers it went.
constexpr int64_t kStoredGraceMs = 60'000;

}  // namespace

json ServiceRegistry::to_stored(const External& e) {
    json nodes = json::array();
    for (const auto& [_, n] : e.nodes)
        nodes.push_back({{"node", n.record}, {"expires", n.expires_at_ms}});
    return {{"record", e.record}, {"nodes", nodes}};
}

ServiceRegistry::External ServiceRegistry::from_stored(const json& j) {
    External e;
    if (!j.is_object()) return e;
    e.record = j.value("record", json::object());
    if (j.contains("nodes") && j["nodes"].is_array())
        for (const auto& n : j["nodes"]) {
            if (!n.is_object() || !n.contains("node") || !n["node"].is_object()) continue;
            const std::string id = n["node"].value("id", "");
            if (!id.empty()) e.nodes[id] = Node{n["node"], n.value("expires", int64_t{0})};
        }
    return e;
}

void ServiceRegistry::share_externals(std::unique_ptr<HostStoreTable> table) {
    shared_ = std::move(table);
}

std::optional<ServiceRegistry::External> ServiceRegistry::load_shared(const std::string& name,
                                                                      int64_t now_ms,
                                                                      std::string* raw) const {
    std::string text;
    const platform_status_t st = shared_->get(name, now_ms, text);
    if (st != PLATFORM_OK && st != PLATFORM_NOT_FOUND)
        throw std::runtime_error("the store holding registered services answered " +
                                 std::string(status_info(st).name));
    if (store_failing_.exchange(false)) spdlog::info("registry: the store answers again");
    if (st == PLATFORM_NOT_FOUND) return std::nullopt;
    if (raw) *raw = text;
    return from_stored(json::parse(text, nullptr, false));
}

platform_status_t ServiceRegistry::store_shared(const std::string& name, const External& e,
                                                const std::string* raw, int64_t now_ms) {
    if (e.nodes.empty()) {
        if (!raw) return PLATFORM_OK;
        return shared_->has_cas() ? shared_->cas(name, raw, nullptr, 0, now_ms)
                                  : shared_->del(name);
    }
    int64_t last = 0;
    for (const auto& [_, n] : e.nodes) last = std::max(last, n.expires_at_ms);
    const std::string text = to_stored(e).dump();
    return shared_->has_cas() ? shared_->cas(name, raw, &text, last + kStoredGraceMs, now_ms)
                              : shared_->put(name, text, last + kStoredGraceMs);
}

platform_status_t ServiceRegistry::update_shared(
    const std::string& name, int64_t now_ms, const char* busy,
    const std::function<platform_status_t(std::optional<External>&)>& change, std::string& error) {
    for (int attempt = 0; attempt < kCasAttempts; ++attempt) {
        HostStoreTable::wait_after_conflict(attempt);
        std::string raw;
        std::optional<External> e;
        try {
            e = load_shared(name, now_ms, &raw);
        } catch (const std::runtime_error& failure) {
            error = failure.what();
            return PLATFORM_UNAVAILABLE;
        }
        const bool existed = e.has_value();
        if (const platform_status_t refused = change(e); refused != PLATFORM_OK) return refused;
        const platform_status_t st = store_shared(name, *e, existed ? &raw : nullptr, now_ms);
        if (st == PLATFORM_CONFLICT) continue;
        if (st != PLATFORM_OK) {
            error = "the store holding registered services answered " +
                    std::string(status_info(st).name);
            return PLATFORM_UNAVAILABLE;
        }
        return PLATFORM_OK;
    }
    error = "service: " + name + " is being " + busy + " by other replicas; try again";
    return PLATFORM_CONFLICT;
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
    // The service record and its nodes, merged into `e` (new or as it was).
    auto merge = [&](External& e) {
        e.record = {{"name", name},
                    {"version", service.value("version", "latest")},
                    {"endpoints", service.value("endpoints", json::array())},
                    {"metadata", service.value("metadata", json::object())}};
        bool changed = false;
        for (const auto& n : service["nodes"]) {
            json node = {{"id", n["id"]},
                         {"address", n.value("address", "")},
                         {"metadata", n.value("metadata", json::object())}};
            auto [nit, added] = e.nodes.try_emplace(n["id"].get<std::string>());
            changed |= added || nit->second.record != node;
            nit->second = Node{std::move(node), now_ms + ttl_ms};
        }
        return changed;
    };
    json snapshot;
    std::string action;
    if (shared_) {
        const platform_status_t st = update_shared(
            name, now_ms, "registered",
            [&](std::optional<External>& e) {
                if (!e) e = External{};
                const bool created = describe_external(*e, now_ms)["nodes"].empty();
                const bool new_node = merge(*e);
                action = created ? "create" : (new_node ? "update" : "");
                snapshot = describe_external(*e, now_ms);
                return PLATFORM_OK;
            },
            error);
        if (st != PLATFORM_OK) return st;
    } else {
        std::unique_lock<std::shared_mutex> g(m_);
        auto [it, created] = externals_.try_emplace(name);
        External& e = it->second;
        const bool new_node = merge(e);
        action = created ? "create" : (new_node ? "update" : "");
        snapshot = describe_external(e, now_ms);
    }
    if (!action.empty()) shared_ ? notify_shared(action, snapshot) : notify(action, snapshot);
    return PLATFORM_OK;
}

platform_status_t ServiceRegistry::deregister_external(const json& service, std::string& error) {
    if (error = check_record(service); !error.empty()) return PLATFORM_INVALID_ARGUMENT;
    const std::string name = service["name"];
    // Removes the listed nodes (all without a list) from `e`.
    auto remove = [&](External& e) {
        if (service.contains("nodes") && !service["nodes"].empty())
            for (const auto& n : service["nodes"]) e.nodes.erase(n["id"].get<std::string>());
        else
            e.nodes.clear();
    };
    auto snapshot_of = [](const External& e) {
        json snapshot = e.record;
        snapshot["nodes"] = json::array();
        for (const auto& [_, n] : e.nodes) snapshot["nodes"].push_back(n.record);
        return snapshot;
    };
    json snapshot;
    std::string action;
    if (shared_) {
        // Expiry is checked by whoever reads next; a deregistration is not timed.
        const platform_status_t st = update_shared(
            name, 0, "changed",
            [&](std::optional<External>& e) {
                if (!e) {
                    error = "service.name: no registered service " + name;
                    return PLATFORM_NOT_FOUND;
                }
                remove(*e);
                snapshot = snapshot_of(*e);
                action = e->nodes.empty() ? "delete" : "update";
                return PLATFORM_OK;
            },
            error);
        if (st != PLATFORM_OK) return st;
    } else {
        std::unique_lock<std::shared_mutex> g(m_);
        auto it = externals_.find(name);
        if (it == externals_.end()) {
            error = "service.name: no registered service " + name;
            return PLATFORM_NOT_FOUND;
        }
        remove(it->second);
        snapshot = snapshot_of(it->second);
        action = it->second.nodes.empty() ? "delete" : "update";
        if (it->second.nodes.empty()) externals_.erase(it);
    }
    shared_ ? notify_shared(action, snapshot) : notify(action, snapshot);
    return PLATFORM_OK;
}

void ServiceRegistry::expire_shared(const std::string& name, std::string raw, int64_t now_ms) {
    for (int attempt = 0; attempt < kCasAttempts; ++attempt) {
        External e = from_stored(json::parse(raw, nullptr, false));
        const size_t before = e.nodes.size();
        for (auto n = e.nodes.begin(); n != e.nodes.end();)
            n = n->second.expires_at_ms <= now_ms ? e.nodes.erase(n) : std::next(n);
        if (e.nodes.size() == before) return;
        const platform_status_t st = store_shared(name, e, &raw, now_ms);
        if (st == PLATFORM_OK) {
            notify_shared(e.nodes.empty() ? "delete" : "update", describe_external(e, now_ms));
            return;
        }
        if (st != PLATFORM_CONFLICT) return;  // the next sweep tries again
        HostStoreTable::wait_after_conflict(attempt + 1);
        // Another replica changed it (a heartbeat, or its own sweep): look again.
        try {
            if (!load_shared(name, now_ms, &raw)) return;
        } catch (const std::runtime_error&) {
            return;
        }
    }
}

void ServiceRegistry::expire(int64_t now_ms) {
    if (shared_) {
        std::vector<std::pair<std::string, std::string>> rows;
        if (shared_->scan(now_ms, rows) != PLATFORM_OK) return;  // the next sweep tries again
        for (auto& [name, raw] : rows) expire_shared(name, std::move(raw), now_ms);
        return;
    }
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

void ServiceRegistry::store_trouble(const std::string& what) const {
    if (!store_failing_.exchange(true))
        spdlog::warn(
            "registry: {}; registered services cannot be listed or reached until it "
            "answers again",
            what);
}

void ServiceRegistry::on_shared_change(
    std::function<void(const std::string&, const std::string&)> fn) {
    shared_change_ = std::move(fn);
}

void ServiceRegistry::notify_shared(const std::string& action, const json& service) {
    notify(action, service);
    if (shared_change_) shared_change_(action, service.value("name", ""));
}

void ServiceRegistry::changed_elsewhere(const std::string& action, const std::string& name,
                                        int64_t now_ms) {
    if (!shared_ || name.empty()) return;
    std::optional<External> now;
    try {
        now = load_shared(name, now_ms, nullptr);
    } catch (const std::runtime_error& e) {
        store_trouble(e.what());
        return;
    }
    json snapshot = now ? describe_external(*now, now_ms) : json{{"name", name}};
    if (!now || snapshot["nodes"].empty()) {
        snapshot["nodes"] = json::array();
        notify("delete", snapshot);
        return;
    }
    notify(action == "create" ? "create" : "update", snapshot);
}

void ServiceRegistry::notify(const std::string& action, const json& service) {
    const json event = {{"action", action}, {"service", service}};
    std::lock_guard<std::mutex> g(watchers_m_);  // held so unwatch waits for a running callback
    for (auto& [_, fn] : watchers_) fn(event);
}

std::vector<std::string> ServiceRegistry::node_addresses(std::string_view full_name,
                                                         int64_t now_ms) const {
    std::vector<std::string> out;
    auto collect = [&](const External& e) {
        for (const auto& [_, n] : e.nodes)
            if (n.expires_at_ms > now_ms && !n.record.value("address", "").empty())
                out.push_back(n.record["address"]);
    };
    if (shared_) {
        try {
            if (auto e = load_shared(std::string(full_name), now_ms, nullptr)) collect(*e);
        } catch (const std::runtime_error& e) {
            store_trouble(e.what());
        }
        return out;
    }
    std::shared_lock<std::shared_mutex> g(m_);
    auto it = externals_.find(std::string(full_name));
    if (it != externals_.end()) collect(it->second);
    return out;
}

}  // namespace platform::host
