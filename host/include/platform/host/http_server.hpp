// platform/host/http_server.hpp — the two listening ports on Pistache (DESIGN §5).
//
// Port api (8080) and port proxy (8081), each a Pistache endpoint whose handler converts a request
// into an HttpRequest for the Gateway and writes its HttpResponse back, from whatever thread the
// plugin answered on. Pistache 0.0.5 traps handled here: keep-alive for HTTP/1.1 clients that send
// no Connection header (its onInput adds `Connection: Close`; we set the header by HTTP/1.1 rules);
// the 4 KiB default request limit (raised to the largest endpoint body plus headers).
#pragma once

#include <platform/host/gateway.hpp>
#include <platform/host/runtime.hpp>

#include <memory>
#include <string>

namespace platform::host {

class HttpServer {
public:
    explicit HttpServer(Runtime& runtime);
    ~HttpServer();

    // Binds both ports ("host:port", port 0 = any free port) and serves on background threads.
    void start(const std::string& api_address, const std::string& proxy_address);
    void stop();
    int api_port() const;
    int proxy_port() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace platform::host
