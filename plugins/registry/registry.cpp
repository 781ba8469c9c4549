// registry — the platform's service registry, read side (spec gateway §4.2 "registry").
// A privileged built-in: it reads the host's registry through the "registry" sub-table.
#include <platform/sdk.hpp>

using platform::json;

class Registry {
public:
    static void describe(platform::ServiceSpec<Registry>& s) {
        s.id("registry").version("1.0.0").service("registry").summary("Services, their endpoints and nodes");
        s.get("listServices")
            .title("List services")
            .description("Every registered service with its version, endpoints (with their argument schemas) and nodes.")
            .read_only()
            .idempotent()
            .handler(&Registry::list_services);
        s.get("getService")
            .title("Get a service")
            .description("One service by full or short name, as a list of its versions; 404 when unknown.")
            .schema(R"json({
              "type": "object",
              "properties": {
                "service": {"type": "string", "maxLength": 256, "description": "Service name, full (go.core.api.v1.notes) or short (notes)"},
                "options": {
                  "type": "object",
                  "properties": {
                    "ttl": {"type": "integer", "minimum": 0, "description": "Record TTL in seconds (accepted, informational)"},
                    "domain": {"type": "string", "maxLength": 256, "description": "Registry domain (namespace)"}
                  },
                  "additionalProperties": false
                }
              },
              "required": ["service"],
              "additionalProperties": false
            })json")
            .read_only()
            .idempotent()
            .handler(&Registry::get_service);
    }

    explicit Registry(const platform::Host& host)
        : table_(host.service<platform_registry_api_t>(PLATFORM_SERVICE_REGISTRY, 1)), host_(host) {
        if (!table_) throw platform::unavailable("registry needs the privileged registry sub-table (mark it privileged in the profile)");
    }

    json list_services(platform::Request&) {
        std::string out;
        platform::check(table_->list_services(host_.ctx(), platform::append_sink, &out), "registry list failed");
        return {{"services", json::parse(out)}};
    }

    json get_service(platform::Request& r) {
        std::string out;
        const std::string name = r.str("service");
        auto st = table_->get_service(host_.ctx(), platform::view(name), platform::append_sink, &out);
        if (st == PLATFORM_NOT_FOUND) throw platform::not_found("service: no service named '" + name + "'");
        platform::check(st, "registry get failed");
        return {{"services", json::parse(out)}};
    }

private:
    const platform_registry_api_t* table_;
    platform::Host host_;
};

PLATFORM_SERVICE(Registry)
