// platform/host/core/http_message.hpp — an HTTP request and its answer as the host's surfaces
// see them, independent of the HTTP library: the front (host/src/http) fills an HttpRequest from
// the wire and writes the HttpResponse back; the gateway and MCP read the one and make the other;
// request_args.hpp builds a call's arguments from a request. Plain values; no threads of their own.
#pragma once

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

}  // namespace platform::host
