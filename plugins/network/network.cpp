// network — the nodes this host knows (itself, then every live replica sharing its store) and which
// services each serves (the `network` service: nodes, services). A privileged built-in over the
// "network" sub-table.
#include <platform/sdk.hpp>

namespace schema = platform::schema;

using platform::json;

class Network {
public:
    static void describe(platform::ServiceSpec<Network>& s) {
        s.id("network").version("1.0.0").service("network").summary(
            "Nodes of this platform and the services each serves");
        s.get("nodes")
            .title("List nodes")
            .description("Every node with its id, address, metadata and the services it serves.")
            .read_only()
            .idempotent()
            .handler(&Network::nodes);
        s.get("services")
            .title("Services by node")
            .description("The services a node serves; the local node when `node` is omitted.")
            .schema(schema::object().str("node").max_len(256).doc("Node id (default: this host)"))
            .read_only()
            .idempotent()
            .handler(&Network::services);
    }

    explicit Network(const platform::Host& host)
        : host_(host), table_(host.service<platform_network_api_t>(PLATFORM_SERVICE_NETWORK, 1)) {
        if (!table_)
            throw platform::unavailable(
                "network needs the privileged network sub-table (mark it privileged)");
    }

    json nodes(platform::Request&) { return {{"nodes", all()}}; }

    json services(platform::Request& r) {
        json nodes = all();
        const std::string id = r.str("node");
        for (const auto& n : nodes)
            if (id.empty() || n["id"] == id)
                return {{"node", n["id"]}, {"services", n["services"]}};
        throw platform::not_found("node: no node with id '" + id + "'");
    }

private:
    json all() const {
        std::string out;
        platform::check(table_->nodes(host_.ctx(), platform::append_sink, &out),
                        "network nodes failed");
        return json::parse(out);
    }
    platform::Host host_;
    const platform_network_api_t* table_;
};

PLATFORM_SERVICE(Network)
