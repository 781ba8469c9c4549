// platform/host/http/gateway.hpp — HTTP semantics of both ports, independent of the HTTP library.
//
// Port 8080 (Role::api): GET / (version), /mcp (mcp.hpp), POST /rpc, /api/v1/<service>/<method>
// (envelope {"data"} / {"error":{code,message}}, ?envelope=result gives {"result"}), then
//   1. routes declared by endpoints (platform_endpoint_t.http_path of in-process plugins, endpoint
//      metadata `path`/`method`/`host` of registered external services; names.hpp RoutePattern),
//   2. the active handler (--handler / PLATFORM_API_HANDLER; docs/decisions.md 13-16):
//      rpc    resolve_rpc_path -> the endpoint, arguments from query and body (the default);
//      api    resolve_rpc_path -> the endpoint called with micro's api.Request; an
//             api.Response-shaped result {statusCode, header, body} becomes the HTTP response;
//      proxy  resolve_proxy_path -> a live node of the registered service, reverse-proxied;
//             no live node: the rpc handler (then 404);
//      web    resolve_web_path, otherwise as proxy; an `Upgrade: websocket` request is forwarded
//             to the node and, after its 101, bytes are relayed both ways (502 when the node
//             cannot be reached);
//      event  a path naming an endpoint of an in-process service goes to the rpc handler (so the
//             built-ins, /broker/subscribe included, stay reachable); any other path is published
//             on the broker as micro's api.Event (resolve_event_path); 200 with an empty body.
// The namespace is the Platform-Namespace header, else PLATFORM_NAMESPACE ("" = none).
// The HTTP server answers GET /health and /metrics itself and gives every request its
// X-Request-Id before handle() runs; handle() makes one only for a request without it.
// Every path that calls an endpoint resolves it through one path (src/http/resolve.hpp).
// Port 8081 (Role::proxy): GET / and POST /rpc only. Errors on micro-style routes use the gateway
// body {"Id","Code","Detail","Status"}.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <platform/host/core/http_message.hpp>
#include <platform/host/core/runtime.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace platform::host {

// The gateway handlers; one is active (--handler / PLATFORM_API_HANDLER, rpc by default).
enum class HandlerKind { rpc, api, proxy, event, web };
inline constexpr const char* kHandlerChoices = "rpc, api, proxy, event, web";
std::optional<HandlerKind> parse_handler(std::string_view name);
const char* handler_name(HandlerKind kind);

class McpServer;
class HttpChallenges;

class Gateway {
public:
    enum class Role { api, proxy };
    // Throws std::invalid_argument naming the value and the choices when the settings' handler
    // is unknown (a start-up error). `challenges`: the ACME http-01 answers served on both ports
    // (http_challenges.hpp); null answers every challenge path 404.
    Gateway(Runtime& runtime, Role role, std::string version,
            std::shared_ptr<const HttpChallenges> challenges = nullptr);
    ~Gateway();
    Gateway(const Gateway&) = delete;
    Gateway& operator=(const Gateway&) = delete;
    HandlerKind handler() const { return handler_; }
    struct Routes;  // endpoint-declared routes; defined in src/http/handlers.hpp

    // Handles one request; `reply` runs exactly once, possibly on another thread — unless the
    // endpoint streams and `open_stream` is given: then the answer may go out through a stream
    // (Server-Sent Events, one `data:` frame per chunk) and `reply` is not called.
    // A WebSocket handshake to a streaming endpoint of /api/v1 with `open_websocket` given becomes a
    // live stream (gateway_websocket.cpp): 101 with the stream's first chunk, one text message per
    // chunk; a failure before that is the ordinary HTTP answer.
    void handle(HttpRequest req, std::function<void(HttpResponse)> reply,
                OpenStream open_stream = nullptr, OpenWebSocket open_websocket = nullptr,
                RelayConnection relay = nullptr);
    // The server is shutting down: streams that never end by themselves (MCP GET streams) end.
    void begin_drain();

private:
    using Reply = std::function<void(HttpResponse)>;
    void catalogue(HttpRequest& req, const Reply& reply, const OpenStream& open);
    // A WebSocket handshake on /api/v1/<service>/<method>: checked, resolved and authenticated
    // like the catalogue's calls; cookie sessions must come from this origin or a listed CORS one.
    // live_input and resume_arg (abi.h) apply (gateway_websocket.cpp).
    void websocket(HttpRequest& req, const Reply& reply, const OpenWebSocket& open);
    void rpc_path(HttpRequest& req, const Reply& reply, const OpenStream& open);
    void rpc_call(HttpRequest& req, const Reply& reply, const OpenStream& open_stream);
    // The namespace of a request: the Platform-Namespace header, else the setting.
    std::string request_namespace(const HttpRequest& req) const;
    // Endpoint-declared routes; false when none matched (handler_routes.cpp).
    void build_local_routes();
    bool declared_route(HttpRequest& req, const Reply& reply, const OpenStream& open);
    void api_handler(HttpRequest& req, const Reply& reply);  // handler_api.cpp
    void proxy_handler(HttpRequest& req, const Reply& reply, const OpenStream& open,
                       bool web);  // handler_proxy.cpp
    // The web handler's WebSocket pass-through: false when the path names no service with a live
    // node (handler_web_socket.cpp).
    bool web_socket(HttpRequest& req, const Reply& reply, const RelayConnection& relay);
    void event_handler(HttpRequest& req, const Reply& reply,
                       const OpenStream& open);  // handler_event.cpp
    // /auth/login, /auth/logout and /.well-known/oauth-protected-resource; false for any other
    // path (handler_session.cpp).
    bool session_route(HttpRequest& req, const Reply& reply);
    // The web console: /ui, /ui/ and /ui/console/<file>; false for any other path
    // (console_route.cpp).
    bool console_route(HttpRequest& req, const Reply& reply);
    // Reverse-proxies req to one of `addresses` on the forwarding pool (handler_proxy.cpp).
    void forward(HttpRequest& req, const std::vector<std::string>& addresses, const std::string& id,
                 const Reply& reply);
    // Dispatches; for a streaming endpoint with `open` (the server's opener), chunks become SSE
    // frames on a stream with X-Request-Id and Cache-Control: no-cache, and a failure after the
    // stream started becomes a final `event: error`. With resume_arg declared, a chunk's `cursor`
    // is its event's `id:` and the request's Last-Event-ID is that argument.
    void invoke(HttpRequest& req, const ServiceEntry& svc, const Endpoint& ep, nlohmann::json args,
                std::function<void(Outcome)> done, const OpenStream& open = nullptr);

    Runtime& runtime_;
    Role role_;
    std::string version_;
    HandlerKind handler_ = HandlerKind::rpc;
    std::unique_ptr<Routes> routes_;
    std::unique_ptr<WorkerPool> forward_pool_;  // blocking upstream requests (proxy, web, routes)
    std::unique_ptr<McpServer> mcp_;            // /mcp (mcp.hpp), on the api port
    std::shared_ptr<const HttpChallenges> challenges_;
};

// The version answered by GET /.
const char* platform_version();

}  // namespace platform::host
