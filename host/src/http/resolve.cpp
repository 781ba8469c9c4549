#include "resolve.hpp"

#include <platform/host/core/runtime.hpp>
#include <platform/host/core/settings.hpp>
#include <platform/host/core/status.hpp>
#include <platform/host/http/http_bodies.hpp>
#include <platform/validation/query.hpp>

#include "handlers.hpp"

using platform::validation::parse_query;

namespace platform::host {

using nlohmann::json;
using Rule = RouteRule;

namespace {
// HTTP status and status name from the status table.
Refusal refused_as(platform_status_t code, std::string id, std::string message) {
    const auto& s = status_info(code);
    return Refusal{s.http, std::string(s.name), std::move(id), std::move(message), {}};
}

Refusal refused(int http_status, std::string id, std::string message) {
    return Refusal{http_status, "", std::move(id), std::move(message), {}};
}

Refusal args_refused(const ArgsError& err, std::string id) {
    return Refusal{
        err.http_status,
        err.http_status == 415 ? "unsupported_media_type" : std::string(status_info(err.code).name),
        std::move(id),
        err.message,
        {}};
}

Refusal not_allowed(Refusal r, const char* allow) {
    r.headers.emplace_back("Allow", allow);
    return r;
}

const std::string& id_or(const Rule& rule, const std::string& fallback) {
    return rule.id.empty() ? fallback : rule.id;
}

std::string endpoint_names(const Plugin& p) {
    std::string out;
    for (const auto& e : p.endpoints)
        if (!e.internal()) out += (out.empty() ? "" : ", ") + e.name;
    return out;
}

// The lookup's answer; `label` is the service as the request named it (the catalogue's).
struct Found {
    const ServiceEntry* service = nullptr;
    const Endpoint* endpoint = nullptr;
    std::string label;
};

std::variant<Found, Refusal> find(const HttpRequest& req, const Rule& rule, Runtime& runtime,
                                  const std::string& ns, const RpcEnvelope* env) {
    ServiceRegistry& registry = runtime.registry();
    switch (rule.lookup) {
        case Rule::Lookup::catalogue: {
            auto parts = path_segments(std::string_view(req.path).substr(8));  // after /api/v1/
            if (parts.size() != 2)
                return refused_as(
                    PLATFORM_NOT_FOUND, rule.id,
                    "no such method: " + req.path + " (use /api/v1/<service>/<method>)");
            const ServiceEntry* svc = registry.find_catalogue(parts[0]);
            if (!svc)
                return refused_as(PLATFORM_NOT_FOUND, rule.id,
                                  "unknown service '" + parts[0] + "'");
            const Endpoint* ep = svc->plugin->public_endpoint(parts[1]);
            if (!ep)
                return refused_as(PLATFORM_NOT_FOUND, rule.id,
                                  "unknown method '" + parts[0] + "/" + parts[1] +
                                      "' (available: " + endpoint_names(*svc->plugin) + ")");
            return Found{svc, ep, std::move(parts[0])};
        }
        case Rule::Lookup::rpc_path: {
            auto route = resolve_rpc_path(req.path);
            if (!route) return refused(404, id_or(rule, ns), "no route for " + req.path);
            const std::string name = qualify(ns, route->service);
            const ServiceEntry* svc = registry.find_exact(name);
            if (!svc) return refused(404, id_or(rule, ns), "service not found: " + name);
            const Endpoint* ep = svc->plugin->public_endpoint(route->method);
            if (!ep)
                return refused(404, id_or(rule, name),
                               "endpoint not found: " + name + ":" + route->method);
            return Found{svc, ep, {}};
        }
        case Rule::Lookup::envelope: {
            // Platform-Namespace: a name is looked up in that namespace (or taken as a full name).
            const std::string& host_ns = runtime.settings().ns;
            const ServiceEntry* svc = nullptr;
            if (ns == host_ns) {
                svc = registry.find(env->service);
            } else {
                svc = registry.find_exact(env->service);
                if (!svc) svc = registry.find_exact(qualify(ns, env->service));
            }
            if (!svc)
                return refused(404, id_or(rule, ns),
                               "service not found: " +
                                   (ns == host_ns ? env->service : qualify(ns, env->service)));
            const Endpoint* ep = svc->plugin->public_endpoint(env->method);
            if (!ep)
                return refused(404, id_or(rule, svc->name),
                               "endpoint not found: " + svc->name + ":" + env->method);
            return Found{svc, ep, {}};
        }
        case Rule::Lookup::fixed: {
            const ServiceEntry* svc = registry.find_exact(qualify(ns, rule.service));
            const Endpoint* ep = svc ? svc->plugin->endpoint(rule.endpoint) : nullptr;
            if (!ep) return refused(503, id_or(rule, ns), rule.unavailable);
            return Found{svc, ep, {}};
        }
        case Rule::Lookup::given:
            return Found{rule.given_service, rule.given_endpoint, {}};
    }
    return refused_as(PLATFORM_INTERNAL, rule.id, "no lookup");
}

std::optional<Refusal> check_endpoint_verb(const HttpRequest& req, const Rule& rule,
                                           const Found& f) {
    const Endpoint& ep = *f.endpoint;
    const bool post_endpoint_got_get = ep.verb == PLATFORM_VERB_POST && req.method == "GET";
    if (rule.verbs == Rule::Verbs::catalogue) {
        if (req.method != "GET" && req.method != "POST")
            return not_allowed(refused_as(PLATFORM_METHOD_NOT_ALLOWED, rule.id,
                                          req.method + " is not allowed; use GET or POST"),
                               ep.verb == PLATFORM_VERB_GET ? "GET, POST" : "POST");
        if (post_endpoint_got_get)
            return not_allowed(
                refused_as(PLATFORM_METHOD_NOT_ALLOWED, rule.id,
                           f.label + "/" + ep.name +
                               " changes data or searches privately: use POST with a JSON body"),
                "POST");
    }
    if (rule.verbs == Rule::Verbs::post_refuses_get && post_endpoint_got_get)
        return not_allowed(refused(405, id_or(rule, f.service->name),
                                   ep.method + " changes data: use POST with a JSON body"),
                           "POST");
    return std::nullopt;
}

std::variant<json, Refusal> build_args(const HttpRequest& req, const Rule& rule, const Found& f,
                                       RpcEnvelope* env) {
    const Endpoint& ep = *f.endpoint;
    const std::string& id = id_or(rule, f.service->name);
    switch (rule.args) {
        case Rule::Args::query_and_body: {
            // Form bodies are refused where only a browser page (http_path) posts them.
            const BodyForms forms = rule.forms_need_page && ep.http_path.empty()
                                        ? BodyForms::refused
                                        : BodyForms::taken;
            auto parsed = request_args(req, &ep.input, ep.max_body, rule.skip_query_key, forms);
            if (auto* err = std::get_if<ArgsError>(&parsed)) return args_refused(*err, id);
            json& args = std::get<json>(parsed);
            if (rule.path_vars)
                for (const auto& [key, value] : *rule.path_vars) {
                    try {  // typed by the schema like a query value: "/items/{n}" -> 42
                        args.update(parse_query(key + "=" + gw::percent_encode(value), &ep.input),
                                    true);
                    } catch (const std::exception& e) {
                        return refused(400, id, std::string("path: ") + e.what());
                    }
                }
            return std::move(args);
        }
        case Rule::Args::api_request:
            if (req.body.size() > ep.max_body)
                return refused(413, id,
                               "request body: " + std::to_string(req.body.size()) +
                                   " bytes is more than the " + std::to_string(ep.max_body) +
                                   " bytes " + ep.method + " accepts");
            return gw::api_request(req);
        case Rule::Args::envelope:
            if (ep.max_body < req.body.size())
                return refused(413, id,
                               "request: more than the " + std::to_string(ep.max_body) + " bytes " +
                                   ep.method + " accepts");
            return std::move(env->request);
        case Rule::Args::none:
            break;
    }
    return json::object();
}
}  // namespace

HttpResponse render(const Refusal& refusal, ErrorStyle style) {
    HttpResponse r = style == ErrorStyle::catalogue
                         ? catalogue_error(refusal.http_status, refusal.code, refusal.message)
                         : gateway_error(refusal.id, refusal.http_status, refusal.message);
    for (const auto& h : refusal.headers) r.headers.push_back(h);
    return r;
}

std::variant<Resolved, Refusal> resolve(const HttpRequest& req, const RouteRule& rule,
                                        Runtime& runtime, const std::string& ns) {
    if (rule.verbs == Rule::Verbs::post_only && req.method != "POST")
        return not_allowed(refused(405, id_or(rule, ns), rule.not_allowed), "POST");
    std::optional<RpcEnvelope> env;
    if (rule.lookup == Rule::Lookup::envelope) {
        auto read = read_rpc_envelope(req, runtime, rule.id);
        if (auto* no = std::get_if<Refusal>(&read)) return std::move(*no);
        env = std::move(std::get<RpcEnvelope>(read));
    }
    auto found = find(req, rule, runtime, ns, env ? &*env : nullptr);
    if (auto* no = std::get_if<Refusal>(&found)) return std::move(*no);
    const Found& f = std::get<Found>(found);
    if (auto no = check_endpoint_verb(req, rule, f)) return std::move(*no);
    auto args = build_args(req, rule, f, env ? &*env : nullptr);
    if (auto* no = std::get_if<Refusal>(&args)) return std::move(*no);
    return Resolved{f.service, f.endpoint, std::move(std::get<json>(args))};
}

}  // namespace platform::host
