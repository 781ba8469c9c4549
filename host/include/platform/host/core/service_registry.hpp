// platform/host/core/service_registry.hpp — the services this host serves, by full name.
//
// Lookup accepts the full name ("go.core.api.v1.notes"), a name relative to the namespace
// ("v1.notes", "registry"), or a catalogue short name ("notes" -> "v1.notes" when no built-in
// is called "notes"). Its JSON form is the registry service's (name, version, endpoints with
// request/response, nodes with id/address/metadata).
#pragma once

#include <platform/abi.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <platform/host/core/host_store_table.hpp>
#include <platform/host/core/per_thread.hpp>
#include <platform/host/core/plugin.hpp>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace platform::host {

struct ServiceEntry {
    std::string name;      // full name
    std::string relative;  // under the namespace
    Plugin* plugin = nullptr;
};

class ServiceRegistry {
public:
    ServiceRegistry(std::string ns, std::string node_id);

    const std::string& ns() const { return ns_; }
    const std::string& node_id() const { return node_id_; }
    // False when a service of that name is already registered.
    bool add(Plugin* plugin);
    // Removes the plugin's service (runtime `kill`/`update`). The entry is retired, not freed, so a
    // call in flight that holds it stays valid. False when that plugin serves nothing.
    bool remove(const Plugin* plugin);
    const ServiceEntry* find(std::string_view name) const;
    // Only the exact full name (gateway paths resolve to full names).
    const ServiceEntry* find_exact(std::string_view full_name) const;
    // The catalogue service /api/v1/<name>/... ("notes" -> "<ns>.v1.notes").
    const ServiceEntry* find_catalogue(std::string_view name) const;
    // find_exact and find_catalogue, on every request, take no lock shared between threads: each
    // thread remembers what they found (PerThread) until a service is added or removed (a counter
    // the lookups read), and only a name it has not found since takes the registry's read lock.
    std::vector<ServiceEntry> all() const;

    nlohmann::json describe(const ServiceEntry& s) const;
    // Every service, plugin-served and registered, as the registry service lists them.
    nlohmann::json list(int64_t now_ms) const;
    // One service by full or short name as a one-element array; null when unknown.
    nlohmann::json get(std::string_view name, int64_t now_ms) const;

    // ---- registered (external) services: nodes with addresses and a TTL (external_services.cpp)
    // Registers or refreshes (a heartbeat) a service record {name, version, endpoints[], nodes[],
    // metadata}. INVALID_ARGUMENT with `error` for a bad record, CONFLICT for a plugin's name.
    platform_status_t register_external(const nlohmann::json& service, int64_t ttl_ms,
                                        int64_t now_ms, std::string& error);
    // Removes the listed nodes, or the whole service when the record lists none. NOT_FOUND.
    platform_status_t deregister_external(const nlohmann::json& service, std::string& error);
    // Drops nodes whose TTL passed, and services left without nodes; notifies watchers.
    void expire(int64_t now_ms);
    // Keeps registered services in `table` (the store's `_registry`, decision 72) instead of this
    // process, one record per service name, written with compare-and-set when the store has it:
    // every replica on that store lists, resolves and expires the same ones. Watchers hear of the
    // changes made through this host. Set before serving (Runtime::start).
    void share_externals(std::unique_ptr<HostStoreTable> table);
    // Told after each change this host made to a registered service in the store, with the
    // watchers' action and the service's name (Runtime publishes it for the other replicas).
    void on_shared_change(std::function<void(const std::string&, const std::string&)> fn);
    // Another replica changed registered service `name`: the watchers here hear `action` with
    // the service as the store holds it now ("delete" and no nodes when it holds none), so a
    // message can never make them see what is not stored.
    void changed_elsewhere(const std::string& action, const std::string& name, int64_t now_ms);
    // fn receives {"action": "create"|"update"|"delete", "service": {...}} after each change (a
    // plugin added or removed, an external service registered, refreshed, deregistered or
    // expired), on the thread that made it, outside the registry's lock.
    uint64_t watch(std::function<void(const nlohmann::json&)> fn);
    bool unwatch(uint64_t id);
    // The address of a live node of a registered service, for the proxy and web handlers.
    std::vector<std::string> node_addresses(std::string_view full_name, int64_t now_ms) const;

    static constexpr int64_t kDefaultTtlMs = 90'000;

private:
    struct Node {
        nlohmann::json record;
        int64_t expires_at_ms = 0;
    };
    struct External {
        nlohmann::json record;  // name, version, endpoints, metadata
        std::map<std::string, Node> nodes;
    };
    nlohmann::json describe_external(const External& e, int64_t now_ms) const;
    // ---- the shared (store) path, external_services.cpp
    static nlohmann::json to_stored(const External& e);
    static External from_stored(const nlohmann::json& j);
    // The live record of `name` in the store: nullopt when absent; `raw` = its text. Throws
    // std::runtime_error when the store fails.
    std::optional<External> load_shared(const std::string& name, int64_t now_ms,
                                        std::string* raw) const;
    // Writes `e` over `raw` (nullptr = absent) or deletes it when it has no node: OK, CONFLICT
    // (another replica wrote first), or the store's failure.
    platform_status_t store_shared(const std::string& name, const External& e,
                                   const std::string* raw, int64_t now_ms);
    // One change of `name`'s stored record by compare-and-set, read again and redone when
    // another replica wrote in between (up to kCasAttempts times, then CONFLICT: "service:
    // <name> is being <busy> by other replicas"). `change` edits the record (nullopt: none is
    // stored) and answers OK to store it, or a refusal with `error` set, which is answered as it
    // is. A failing store is UNAVAILABLE with `error` saying so.
    platform_status_t update_shared(
        const std::string& name, int64_t now_ms, const char* busy,
        const std::function<platform_status_t(std::optional<External>&)>& change,
        std::string& error);
    // Expires one stored service (expire() over the store).
    void expire_shared(const std::string& name, std::string raw, int64_t now_ms);
    void notify(const std::string& action, const nlohmann::json& service);

    // What one thread's find_exact and find_catalogue found while `generation` was current
    // (found entries only: at most one per service).
    struct Remembered {
        uint64_t generation = 0;
        std::map<std::string, const ServiceEntry*, std::less<>> exact, catalogue;
    };
    // `lookup` (under m_) unless this thread remembers `name` in `which` of Remembered.
    template <class Lookup>
    const ServiceEntry* remembered(
        std::map<std::string, const ServiceEntry*, std::less<>> Remembered::*which,
        std::string_view name, Lookup lookup) const;

    std::string ns_, node_id_;
    mutable std::shared_mutex m_;
    std::atomic<uint64_t> generation_{1};  // bumped under m_ by every change of services_
    mutable PerThread<Remembered> remembered_;
    std::map<std::string, ServiceEntry> services_;
    std::vector<std::map<std::string, ServiceEntry>::node_type>
        retired_;  // removed, kept at their address
    std::map<std::string, External> externals_;
    std::unique_ptr<HostStoreTable> shared_;  // null: externals_ in this process
    std::function<void(const std::string&, const std::string&)> shared_change_;
    // The store failing: logged once (store_trouble) until it answers again (load_shared).
    mutable std::atomic<bool> store_failing_{false};
    void store_trouble(const std::string& what) const;
    // notify(), then shared_change_ (the shared path's changes).
    void notify_shared(const std::string& action, const nlohmann::json& service);
    std::mutex watchers_m_;
    std::map<uint64_t, std::function<void(const nlohmann::json&)>> watchers_;
    uint64_t next_watch_ = 1;
};

// An endpoint as the registry lists it: {name, request, response, metadata, schema}.
nlohmann::json describe_endpoint(const ServiceEntry& s, const Endpoint& e);
std::string_view access_name(platform_access_t a);
std::string flag_names(uint64_t flags);  // "read_only,idempotent"

}  // namespace platform::host
