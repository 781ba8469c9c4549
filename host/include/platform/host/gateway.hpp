// platform/host/gateway.hpp — HTTP semantics of both ports, independent of the HTTP library.
//
// Port 8080 (Role::api): GET / (version), GET /health, POST /rpc, /api/v1/<service>/<method>
// (envelope {"data"} / {"error":{code,message}}, ?envelope=result gives {"result"}), and every
// other path through the rpc handler with the spec's resolver (§4.1) and the Platform-Namespace
// header. Port 8081 (Role::proxy): GET / and POST /rpc only. Errors on micro-style routes use the
// gateway body {"Id","Code","Detail","Status"}.
#pragma once

#include <platform/host/runtime.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

namespace platform::host {

struct HttpRequest {
    std::string method;  // "GET", "POST"...
    std::string path;    // without the query
    std::string query;   // raw, without '?'
    std::string body;
    std::map<std::string, std::string> headers;  // lower-case names
    std::string header(const std::string& lower_name) const;
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
    int status, const std::string& content_type, const std::vector<std::pair<std::string, std::string>>& headers)>;

class Gateway {
public:
    enum class Role { api, proxy };
    Gateway(Runtime& runtime, Role role, std::string version);

    // Handles one request; `reply` runs exactly once, possibly on another thread — unless the
    // endpoint streams and `open_stream` is given: then the answer may go out through a stream
    // (Server-Sent Events, one `data:` frame per chunk) and `reply` is not called.
    void handle(HttpRequest req, std::function<void(HttpResponse)> reply, OpenStream open_stream = nullptr);

private:
    using Reply = std::function<void(HttpResponse)>;
    void catalogue(HttpRequest& req, const Reply& reply, const OpenStream& open);
    void rpc_path(HttpRequest& req, const Reply& reply, const OpenStream& open);
    void rpc_call(HttpRequest& req, const Reply& reply);
    // Dispatches; for a streaming endpoint with `open`, chunks become SSE frames and `error_body`
    // formats a failure that happens after the stream started.
    void invoke(HttpRequest& req, const ServiceEntry& svc, const Endpoint& ep, nlohmann::json args,
                std::function<void(Outcome)> done, const OpenStream& open = nullptr);

    Runtime& runtime_;
    Role role_;
    std::string version_;
};

// The version answered by GET /.
const char* platform_version();

}  // namespace platform::host
