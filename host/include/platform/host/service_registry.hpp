// platform/host/service_registry.hpp — the services this host serves, by full name.
//
// Lookup accepts the full name ("go.core.api.v1.notes"), a name relative to the namespace
// ("v1.notes", "registry"), or a catalogue short name ("notes" -> "v1.notes" when no built-in
// is called "notes"). Its JSON form is the registry service's (spec §2: name, version,
// endpoints with request/response, nodes with id/address/metadata).
#pragma once

#include <platform/host/plugin.hpp>

#include <nlohmann/json.hpp>

#include <map>
#include <mutex>
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
    // False when a service of that name is already registered.
    bool add(Plugin* plugin);
    const ServiceEntry* find(std::string_view name) const;
    // Only the exact full name (gateway paths resolve to full names).
    const ServiceEntry* find_exact(std::string_view full_name) const;
    // The catalogue service /api/v1/<name>/... ("notes" -> "<ns>.v1.notes").
    const ServiceEntry* find_catalogue(std::string_view name) const;
    std::vector<ServiceEntry> all() const;

    nlohmann::json describe(const ServiceEntry& s) const;
    nlohmann::json list() const;  // array of describe()

private:
    std::string ns_, node_id_;
    mutable std::shared_mutex m_;
    std::map<std::string, ServiceEntry> services_;
};

// An endpoint as the registry lists it: {name, request, response, metadata, schema}.
nlohmann::json describe_endpoint(const ServiceEntry& s, const Endpoint& e);
std::string_view access_name(platform_access_t a);
std::string flag_names(uint64_t flags);  // "read_only,idempotent"

}  // namespace platform::host
