// platform/host/mcp/mcp.hpp — the MCP endpoint at /mcp (Streamable HTTP, protocol 2025-11-25, also
// 2025-06-18 and 2025-03-26). docs/mcp.md describes it for clients and plugin authors.
//
// Transport
//   POST   one JSON-RPC message. `initialize` creates a session (Mcp-Session-Id in the answer);
//          every other message needs that header (missing → 400, unknown or expired → 404) and
//          an MCP-Protocol-Version from the supported set when given (else 400; absent =
//          2025-03-26). Notifications and client responses → 202 with no body. Requests are
//          answered as application/json, or as text/event-stream when the call produced
//          notifications or server-to-client requests first (progress, logging, sampling,
//          elicitation) and the client accepts it. JSON-RPC batches → -32600.
//   GET    Accept: text/event-stream: the session's stream for notifications outside a call
//          (notifications/resources/updated, and notifications/tools/list_changed when a plugin
//          service starts or stops: `platform run`, `update`, `kill`), one per session (a second
//          → 409); else 406.
//   DELETE ends the session (204).
//   Every request: Host (and Origin, when sent) must name a loopback host, an ACME host or one of
//   PLATFORM_MCP_ALLOWED_HOSTS (DNS-rebinding protection) → else 403. Credentials: bearer tokens
//   only (never the session cookie); a bad token → 401 with WWW-Authenticate: Bearer
//   resource_metadata="<origin>/.well-known/oauth-protected-resource"; anonymous callers see the
//   public tools only, and calling a tool that needs an account answers 401 the same way. A
//   session belongs to the account that created it (another account's requests → 404).
//
// Sessions live in the profile's store provider (table `_mcp`, expiring after
// PLATFORM_MCP_SESSION_IDLE_SECONDS of business time without use), so any replica sharing the
// store serves them; open streams, in-flight calls and pending server-to-client requests are this
// process's.
//
// Methods: initialize, ping, tools/list (cursor pages of 100; the tools the caller may call),
// tools/call (the HTTP dispatcher; `content` + `structuredContent` carry the /api/v1 `data`
// payload; failures and bad arguments are isError results naming the argument; unknown tool →
// -32602), logging/setLevel, resources/list|read|templates/list|subscribe|unsubscribe,
// prompts/list|get, completion/complete — the last three families answered by plugin endpoints
// with MCP roles (abi.h platform_mcp_role_t); notifications/initialized|cancelled and responses
// to the server's own requests.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <platform/host/core/http_message.hpp>
#include <string>

namespace platform::host {

class McpServer {
public:
    McpServer(Runtime& runtime, std::string version);
    ~McpServer();
    McpServer(const McpServer&) = delete;
    McpServer& operator=(const McpServer&) = delete;

    // Handles one HTTP request to /mcp; `reply` runs once unless the answer went out as a stream.
    void handle(HttpRequest& req, const std::function<void(HttpResponse)>& reply,
                const OpenStream& open);
    // Ends every session's GET stream (shutdown: clients reconnect elsewhere).
    void end_streams();

    struct Impl;  // host/src/mcp/mcp_internal.hpp

private:
    std::shared_ptr<Impl> impl_;
    uint64_t registry_watch_ = 0;
};

}  // namespace platform::host
