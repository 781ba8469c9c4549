// platform/host/core/http_message.hpp — an HTTP request and its answer as the host's surfaces
// see them, independent of the HTTP library: the front (host/src/http) fills an HttpRequest from
// the wire and writes the HttpResponse back; the gateway and MCP read the one and make the other;
// request_args.hpp builds a call's arguments from a request. Plain values; no threads of their own.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace platform::host {

struct HttpRequest {
    std::string method;  // "GET", "POST"...
    std::string path;    // without the query
    std::string query;   // raw, without '?'
    std::string body;
    std::map<std::string, std::string> headers;  // lower-case names
    std::string remote;  // the peer's IP address; "" when the server does not say
    bool tls = false;    // arrived over TLS (session cookies are then `Secure`)
    std::string header(const std::string& lower_name) const {
        auto it = headers.find(lower_name);
        return it == headers.end() ? "" : it->second;
    }
};

struct HttpResponse {
    int status = 200;
    std::string body;
    std::string content_type = "application/json";
    std::vector<std::pair<std::string, std::string>> headers;
};

// A response body sent as it is produced (chunked). write() returns false once the client is
// gone; end() finishes the response. Thread-safe.
class HttpStream {
public:
    virtual ~HttpStream() = default;
    virtual bool write(std::string_view bytes) = 0;
    virtual void end() = 0;
};
// Starts a streamed response: status and headers go out now, the body follows.
using OpenStream = std::function<std::shared_ptr<HttpStream>(
    int status, const std::string& content_type,
    const std::vector<std::pair<std::string, std::string>>& headers)>;

// A WebSocket (RFC 6455) the front opened on a request's connection after answering it 101; from
// then on the connection is the session's, and the gateway talks over it in text messages.
// Thread-safe: send_text and close may be called from any thread.
class WebSocket {
public:
    virtual ~WebSocket() = default;
    // Sends one text message; false once the session is closing or ended.
    virtual bool send_text(std::string_view message) = 0;
    // Starts the close handshake with `code` and `reason` (cut to fit a close frame); the session
    // ends when the client answers it, or soon after when it does not. Later calls do nothing.
    virtual void close(uint16_t code, std::string_view reason) = 0;
};
// What a session tells its owner. Both run on the session's own thread, one at a time.
struct WebSocketEvents {
    std::function<void(std::string message)> on_text;  // a whole text message from the client
    std::function<void()> on_closed;  // once, when the session ended, however it ended
};
// Answers the request 101 Switching Protocols (Sec-WebSocket-Accept for `client_key`, plus
// `headers`) and opens the session; nullptr when the connection cannot be taken over (the client
// is gone, the request was answered, the server is stopping): the caller then answers normally.
using OpenWebSocket = std::function<std::shared_ptr<WebSocket>(
    const std::string& client_key, const std::vector<std::pair<std::string, std::string>>& headers,
    WebSocketEvents events)>;

// Hands the request's connection over to a byte relay: `head` (an upstream's 101 answer as it
// came) and `early` (what the upstream sent after it) go to the client, then bytes are copied both
// ways between the client and `upstream` (a connected socket, owned from the call on) until either
// side ends. False when the connection cannot be taken over; `upstream` is then closed.
using RelayConnection =
    std::function<bool(const std::string& head, int upstream, const std::string& early)>;

}  // namespace platform::host
