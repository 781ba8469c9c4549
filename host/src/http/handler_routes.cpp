// Routes declared by endpoints, served before the handler's own resolution (docs/decisions.md 14):
//   - in-process plugins: platform_endpoint_t.http_path ("/notes/{title}") with the endpoint's
//     verb (GET endpoints: GET and HEAD; POST endpoints: POST); {name} segments become string
//     arguments typed by the schema like query values, bound over the query and the body;
//   - registered external services: endpoint metadata `path` (templates or ^...$ expressions,
//     comma-separated as micro encodes them), `method` (comma-separated; empty = any) and `host`
//     (regular expressions; empty or * = any); a match is reverse-proxied to a live node.
// A route belongs to the namespace its service's name starts with (Platform-Namespace).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>
#include <platform/host/core/request_args.hpp>
#include <platform/host/http/http_bodies.hpp>

#include "handlers.hpp"
#include "resolve.hpp"

namespace platform::host {

using nlohmann::json;

namespace {
bool in_namespace(const std::string& name, const std::string& ns) {
    return ns.empty() || (name.size() > ns.size() && name.compare(0, ns.size(), ns) == 0 &&
                          name[ns.size()] == '.');
}

// A metadata value: a string (comma-separated) or an array of strings.
std::vector<std::string> metadata_list(const json& metadata, const char* key) {
    if (!metadata.is_object() || !metadata.contains(key)) return {};
    const json& v = metadata[key];
    if (v.is_string()) return comma_list(v.get<std::string>());
    std::vector<std::string> out;
    if (v.is_array())
        for (const auto& item : v)
            if (item.is_string() && !item.get<std::string>().empty())
                out.push_back(item.get<std::string>());
    return out;
}

std::string host_of(const HttpRequest& req) {
    std::string host = req.header("host");
    if (!host.empty() && host.front() != '[') host = host.substr(0, host.find(':'));
    return host;
}

std::shared_ptr<const std::vector<Gateway::Routes::Remote>> build_remote(Runtime& runtime) {
    auto out = std::make_shared<std::vector<Gateway::Routes::Remote>>();
    // Every registered record, live nodes or not: liveness is checked when a request comes.
    json services = runtime.registry().list(std::numeric_limits<int64_t>::min());
    for (const auto& s : services) {
        const std::string name = s.value("name", "");
        if (name.empty() || runtime.registry().find_exact(name) || !s.contains("endpoints"))
            continue;
        for (const auto& e : s["endpoints"]) {
            if (!e.is_object() || !e.contains("metadata")) continue;
            const json& md = e["metadata"];
            auto paths = metadata_list(md, "path");
            if (paths.empty()) continue;
            std::vector<std::string> methods = metadata_list(md, "method");
            for (auto& m : methods) std::transform(m.begin(), m.end(), m.begin(), ::toupper);
            std::vector<std::regex> hosts;
            bool bad_host = false;
            for (const auto& h : metadata_list(md, "host")) {
                if (h == "*") continue;
                try {
                    hosts.emplace_back(h, std::regex::ECMAScript | std::regex::icase);
                } catch (const std::regex_error&) {
                    bad_host = true;
                }
            }
            for (const auto& p : paths) {
                std::string error;
                auto pattern = RoutePattern::compile(p, &error);
                if (!pattern || bad_host) {
                    spdlog::warn("registered service {} endpoint {}: route ignored: {}", name,
                                 e.value("name", ""), bad_host ? "invalid host expression" : error);
                    continue;
                }
                out->push_back({std::move(*pattern), name, methods, hosts});
            }
        }
    }
    return out;
}
}  // namespace

void Gateway::build_local_routes() {
    for (const auto& entry : runtime_.registry().all()) {
        const ServiceEntry* svc = runtime_.registry().find_exact(entry.name);
        if (!svc || !svc->plugin) continue;
        for (const auto& ep : svc->plugin->endpoints) {
            if (ep.http_path.empty() || ep.internal()) continue;
            std::string error;
            auto pattern = RoutePattern::compile(ep.http_path, &error);
            if (!pattern) {
                spdlog::warn("{} {}: http_path ignored: {}", svc->name, ep.method, error);
                continue;
            }
            routes_->local.push_back({std::move(*pattern), svc, &ep});
        }
    }
}

bool Gateway::declared_route(HttpRequest& req, const Reply& reply, const OpenStream& open) {
    if (!routes_) return false;
    const std::string ns = request_namespace(req);

    for (const auto& route : routes_->local) {
        const Endpoint& ep = *route.endpoint;
        const bool verb = ep.verb == PLATFORM_VERB_GET
                              ? (req.method == "GET" || req.method == "HEAD")
                              : req.method == "POST";
        if (!verb || !in_namespace(route.service->name, ns)) continue;
        auto vars = route.pattern.match(req.path);
        if (!vars) continue;
        RouteRule rule{RouteRule::Lookup::given};
        rule.given_service = route.service;
        rule.given_endpoint = &ep;
        rule.path_vars = &*vars;
        auto call = resolve(req, rule, runtime_, ns);
        if (auto* no = std::get_if<Refusal>(&call)) {
            reply(render(*no, rule.style));
            return true;
        }
        auto& c = std::get<Resolved>(call);
        invoke(
            req, *c.service, *c.endpoint, std::move(c.args),
            [reply, name = c.service->name](Outcome o) {
                reply(gateway_outcome(name, std::move(o)));
            },
            open);
        return true;
    }

    std::shared_ptr<const std::vector<Routes::Remote>> remote;
    {
        std::lock_guard<std::mutex> g(routes_->m);
        const auto now = std::chrono::steady_clock::now();
        if (routes_->dirty->exchange(false) || !routes_->remote ||
            now - routes_->built > Routes::kRefresh) {
            routes_->remote = build_remote(runtime_);
            routes_->built = now;
        }
        remote = routes_->remote;
    }
    if (remote->empty()) return false;
    const std::string host = host_of(req);
    for (const auto& route : *remote) {
        if (!in_namespace(route.service, ns)) continue;
        if (!route.methods.empty() && std::find(route.methods.begin(), route.methods.end(),
                                                req.method) == route.methods.end())
            continue;
        if (!route.hosts.empty() &&
            std::none_of(route.hosts.begin(), route.hosts.end(),
                         [&](const std::regex& re) { return std::regex_match(host, re); }))
            continue;
        if (!route.pattern.match(req.path)) continue;
        auto nodes = runtime_.registry().node_addresses(route.service, runtime_.clock().now_ms());
        if (nodes.empty()) continue;  // no live node: as if the route were not there
        forward(req, nodes, route.service, reply);
        return true;
    }
    return false;
}

}  // namespace platform::host
