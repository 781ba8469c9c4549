// registry — the platform's service registry, read side (listServices, getService; README.md).
// A privileged built-in: it reads the host's registry through the "registry" sub-table.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <platform/sdk.hpp>

namespace schema = platform::schema;

using platform::json;

class Registry {
public:
    static void describe(platform::ServiceSpec<Registry>& s) {
        s.id("registry")
            .version("1.0.0")
            .service("registry")
            .summary("Services, their endpoints and nodes");
        s.get("listServices")
            .title("List services")
            .description(
                "Every registered service with its version, endpoints (with their argument "
                "schemas) and nodes.")
            .read_only()
            .idempotent()
            .handler(&Registry::list_services);
        s.get("getService")
            .title("Get a service")
            .description(
                "One service by full or short name, as a list of its versions; 404 when unknown.")
            .schema(
                schema::object()
                    .str("service")
                    .max_len(256)
                    .required()
                    .doc("Service name, full (go.core.api.v1.notes) or short (notes)")
                    .object("options", schema::object()
                                           .integer("ttl")
                                           .min(0)
                                           .doc("Record TTL in seconds (accepted, informational)")
                                           .str("domain")
                                           .max_len(256)
                                           .doc("Registry domain (namespace)")))
            .read_only()
            .idempotent()
            .handler(&Registry::get_service);
        s.post("register")
            .title("Register a service")
            .description(
                "Registers or refreshes (a heartbeat) an external service with its nodes; nodes "
                "expire "
                "without a heartbeat within the TTL (90 s by default).")
            .schema(schema::object()
                        .prop("service",
                              schema::any_object().doc("{name, version, endpoints[], nodes[{id, "
                                                       "address, metadata}], metadata}"))
                        .required()
                        .object("options", schema::object()
                                               .integer("ttl")
                                               .min(1)
                                               .max(86400)
                                               .doc("Seconds until the nodes expire")
                                               .str("domain")
                                               .max_len(256)))
            .access(platform::Access::admin)
            .idempotent()
            .handler(&Registry::register_service);
        s.post("deregister")
            .title("Deregister a service")
            .description(
                "Removes the listed nodes of a registered service, or the whole service when none "
                "are listed.")
            .schema(schema::object()
                        .prop("service", schema::any_object().doc("{name, nodes[{id}]}"))
                        .required()
                        .object("options", schema::object().str("domain").max_len(256)))
            .access(platform::Access::admin)
            .destructive()
            .handler(&Registry::deregister_service);
        s.get("watch")
            .title("Watch the registry")
            .description(
                "Streams {action: create|update|delete, service} for every change of registered "
                "services, "
                "until `limit` changes or `wait_ms` without one.")
            .schema(schema::object()
                        .str("service")
                        .max_len(256)
                        .doc("Only changes of this service")
                        .prop("limit", schema::limit(100000, 0, "Stop after this many changes"))
                        .integer("wait_ms")
                        .min(1)
                        .max(300000)
                        .def(30000)
                        .doc("Stop after this long without a change"))
            .read_only()
            .streaming()
            .async(&Registry::watch);
    }

    explicit Registry(const platform::Host& host)
        : table_(host.service<platform_registry_api_t>(PLATFORM_SERVICE_REGISTRY, 1)), host_(host) {
        if (!table_)
            throw platform::unavailable(
                "registry needs the privileged registry sub-table (mark it privileged in the "
                "profile)");
    }

    json list_services(platform::Request&) {
        std::string out;
        platform::check(table_->list_services(host_.ctx(), platform::append_sink, &out),
                        "registry list failed");
        return {{"services", json::parse(out)}};
    }

    json get_service(platform::Request& r) {
        std::string out;
        const std::string name = r.str("service");
        auto st =
            table_->get_service(host_.ctx(), platform::view(name), platform::append_sink, &out);
        if (st == PLATFORM_NOT_FOUND)
            throw platform::not_found("service: no service named '" + name + "'");
        platform::check(st, "registry get failed");
        return {{"services", json::parse(out)}};
    }

    json register_service(platform::Request& r) {
        need_writes();
        std::string record = r["service"].dump(), error;
        int64_t ttl = r.args().contains("options") ? r["options"].value("ttl", 0) : 0;
        auto st = table_->register_service(host_.ctx(), platform::view(record), ttl,
                                           platform::append_sink, &error);
        if (st != PLATFORM_OK) throw platform::Error(static_cast<platform::Code>(st), error);
        return {{"registered", r["service"]["name"]}};
    }

    json deregister_service(platform::Request& r) {
        need_writes();
        std::string record = r["service"].dump(), error;
        auto st = table_->deregister_service(host_.ctx(), platform::view(record),
                                             platform::append_sink, &error);
        if (st != PLATFORM_OK) throw platform::Error(static_cast<platform::Code>(st), error);
        return {{"deregistered", r["service"].value("name", "")}};
    }

    // Streams registry changes; ends after `limit` changes or `wait_ms` without one, or when the
    // client goes away.
    void watch(platform::Request& r, platform::Responder out) {
        need_writes();
        struct Queue {
            std::mutex m;
            std::condition_variable cv;
            std::deque<std::string> events;
        } q;
        auto push = [](void* user, platform_str_t event) {
            auto* q = static_cast<Queue*>(user);
            std::lock_guard<std::mutex> g(q->m);
            q->events.push_back(platform::copy(event));
            q->cv.notify_one();
        };
        uint64_t id = 0;
        platform::check(table_->watch(host_.ctx(), push, &q, &id), "watch failed");
        const std::string only = r.str("service");
        const int64_t limit = r.args().value("limit", 0), wait_ms = r["wait_ms"].get<int64_t>();
        int64_t sent = 0;
        for (;;) {
            std::unique_lock<std::mutex> lock(q.m);
            if (!q.cv.wait_for(lock, std::chrono::milliseconds(wait_ms),
                               [&] { return !q.events.empty(); }))
                break;
            std::string event = std::move(q.events.front());
            q.events.pop_front();
            lock.unlock();
            auto parsed = json::parse(event);
            if (!only.empty() && parsed["service"].value("name", "") != only) continue;
            if (!out.chunk(std::string_view(event))) break;
            if (limit && ++sent >= limit) break;
        }
        table_->unwatch(host_.ctx(), id);
        out.end();
    }

private:
    void need_writes() const {
        if (table_->version < 2)
            throw platform::Error(platform::Code::unsupported,
                                  "the host's registry is read-only (needs ABI 1.2)");
    }

    const platform_registry_api_t* table_;
    platform::Host host_;
};

PLATFORM_SERVICE(Registry)
