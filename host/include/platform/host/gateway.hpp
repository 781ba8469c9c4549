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

class Gateway {
public:
    enum class Role { api, proxy };
    Gateway(Runtime& runtime, Role role, std::string version);

    // Handles one request; `reply` runs exactly once, possibly on another thread.
    void handle(HttpRequest req, std::function<void(HttpResponse)> reply);

private:
    using Reply = std::function<void(HttpResponse)>;
    void catalogue(HttpRequest& req, const Reply& reply);
    void rpc_path(HttpRequest& req, const Reply& reply);
    void rpc_call(HttpRequest& req, const Reply& reply);
    void invoke(HttpRequest& req, const ServiceEntry& svc, const Endpoint& ep, nlohmann::json args,
                std::function<void(Outcome)> done);

    Runtime& runtime_;
    Role role_;
    std::string version_;
};

// The version answered by GET /.
const char* platform_version();

}  // namespace platform::host
