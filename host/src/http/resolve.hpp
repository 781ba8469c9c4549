// resolve.hpp — private to the gateway (host/src/http): the one path from an HTTP request to a
// call of an in-process endpoint, shared by every gateway surface that calls one:
//   /api/v1/<service>/<method> (the catalogue), the rpc handler's paths, POST /rpc, routes
//   declared by endpoints (http_path), the api handler, and /auth/login, /auth/logout.
//
// A surface describes itself as a RouteRule (data: how the service and endpoint are found,
// which verbs it takes, where the arguments come from, its error style). resolve() runs the
// steps in one fixed order, each step only when the rule asks for it:
//   1. a verb every request must use (post_only: /rpc, the session routes);
//   2. the /rpc envelope (its service, method, request and address);
//   3. the lookup: service, then endpoint;
//   4. the endpoint's verbs (the catalogue's GET-or-POST; a POST endpoint refusing GET);
//   5. the arguments (query and body, the api.Request, the envelope's request, or none),
//      each with its body-size check.
// The answer is the call (service, endpoint, arguments) or a Refusal, rendered by render() in
// the surface's error style. Nothing here dispatches or keeps state; resolve() may run on any
// thread while the registry is readable.
#pragma once

#include <nlohmann/json.hpp>
#include <platform/host/core/names.hpp>
#include <platform/host/core/request_args.hpp>
#include <platform/host/http/gateway.hpp>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace platform::host {

// The error bodies of the gateway: {"error":{code,message}} on /api/v1, micro's
// {"Id","Code","Detail","Status"} everywhere else (the api handler included).
enum class ErrorStyle { catalogue, gateway };

// Why a request is not called, in terms both error styles can render.
struct Refusal {
    int http_status = 0;
    std::string code;  // catalogue style: the status name ("not_found", "unsupported_media_type")
    std::string id;    // gateway style: the Id (the namespace, the service, or "<ns>.rpc")
    std::string message;  // the catalogue message, the gateway Detail
    std::vector<std::pair<std::string, std::string>> headers;  // e.g. Allow of a 405
};

// The refusal as an HTTP response in `style` (a 401 also gets WWW-Authenticate: Bearer).
HttpResponse render(const Refusal& refusal, ErrorStyle style);

struct RouteRule {
    enum class Lookup {
        catalogue,  // the path's /api/v1/<service>/<method>: catalogue name, public endpoint
        rpc_path,   // micro's resolver ("/foo/bar" -> <ns>.foo Foo.Bar), public endpoint
        envelope,   // the /rpc envelope's service (Platform-Namespace rules) and public method
        fixed,      // <ns>.`service`, endpoint `method` (internal ones too); missing: 503
        given,      // `service` and `endpoint` already chosen (a declared route)
    };
    enum class Verbs {
        any,
        post_only,         // POST or 405 `not_allowed`, before anything else
        catalogue,         // GET or POST; GET only for GET endpoints
        post_refuses_get,  // a POST endpoint answers GET with 405
    };
    enum class Args {
        query_and_body,  // request_args: the query (typed by the schema) and the body
        api_request,     // micro's api.Request of the whole request
        envelope,        // the /rpc envelope's `request`
        none,            // no arguments, no body read
    };

    explicit RouteRule(Lookup lookup, Verbs verbs = Verbs::any, Args args = Args::query_and_body,
                       ErrorStyle style = ErrorStyle::gateway)
        : lookup(lookup), verbs(verbs), args(args), style(style) {}

    Lookup lookup;
    Verbs verbs;
    Args args;
    ErrorStyle style;

    std::string id;                 // gateway style: the Id of every refusal ("" = by step)
    std::string not_allowed;        // post_only: the 405 message
    std::string service, endpoint;  // fixed: relative service name and endpoint name
    std::string unavailable;        // fixed: the 503 message when either is missing
    const ServiceEntry* given_service = nullptr;  // given
    const Endpoint* given_endpoint = nullptr;
    const RouteVars* path_vars = nullptr;  // query_and_body: a declared route's path variables
    std::string skip_query_key;            // query_and_body: a query key that is no argument
    bool forms_need_page = false;  // query_and_body: form bodies only for endpoints with http_path
};

// The call a request resolves to.
struct Resolved {
    const ServiceEntry* service = nullptr;
    const Endpoint* endpoint = nullptr;
    nlohmann::json args;
};

// Resolves `req` by `rule`. `ns` is the request's namespace (Platform-Namespace, else the
// host's); `runtime` gives the registry, the host's namespace and (for an envelope's address)
// the network's nodes.
std::variant<Resolved, Refusal> resolve(const HttpRequest& req, const RouteRule& rule,
                                        Runtime& runtime, const std::string& ns);

// The /rpc envelope (rpc_envelope.cpp): {service, method (or endpoint), request (an object or a
// JSON string of one), address}. Checks the body size, the form, the required fields and that
// `address`, when given, names a node of this host; refusals have the id `id`.
struct RpcEnvelope {
    std::string service, method;
    nlohmann::json request;  // an object
};
std::variant<RpcEnvelope, Refusal> read_rpc_envelope(const HttpRequest& req, Runtime& runtime,
                                                     const std::string& id);

}  // namespace platform::host
