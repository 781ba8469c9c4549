#include <pistache/endpoint.h>

#include <platform/host/core/settings.hpp>
#include <platform/host/http/http_server.hpp>
#include <platform/host/http/tls_listener.hpp>
#include <thread>

#include "http_connection.hpp"

namespace platform::host {

using namespace Pistache;
using front::PortState;
using front::ServerState;

struct HttpServer::Impl {
    Runtime& runtime;
    HttpSettings settings;
    Gateway api_gateway, proxy_gateway;
    std::shared_ptr<ServerState> server = std::make_shared<ServerState>();
    std::shared_ptr<RateLimiter> limiter;
    std::shared_ptr<AccessLogWriter> access;  // nullptr = access_log off
    std::unique_ptr<Http::Endpoint> api, proxy;
    std::unique_ptr<TlsListener> tls;  // TLS on: serves the api address in front of `api`

    Impl(Runtime& r, const std::shared_ptr<const HttpChallenges>& challenges)
        : runtime(r),
          settings(r.profile().http),
          api_gateway(r, Gateway::Role::api, platform_version(), challenges),
          proxy_gateway(r, Gateway::Role::proxy, platform_version(), challenges) {
        server->metrics = &r.metrics();
        if (settings.max_request_bytes == 0)
            settings.max_request_bytes = runtime.max_body() + 64 * 1024;
        if (settings.rate_limit.enabled())
            limiter = std::make_shared<RateLimiter>(settings.rate_limit.requests_per_second,
                                                    settings.rate_limit.burst);
        if (limiter && settings.rate_limit.shared)  // counted in the store (decision 72)
            limiter->share(store_rate_counters(runtime), "address");
        // A writer of this server's own: a request appends its line to its thread's buffer, the
        // writer's thread writes them to stderr (access_log_writer.hpp).
        if (settings.access_log) access = std::make_shared<AccessLogWriter>();
    }

    std::unique_ptr<Http::Endpoint> listen(const std::string& address, Gateway* gw, bool is_api,
                                           const std::string& tls_secret = "") {
        auto port = std::make_shared<PortState>();
        port->runtime = &runtime;
        port->gateway = gw;
        port->api = is_api;
        port->name = is_api ? "api" : "proxy";
        port->settings = settings;
        port->limits = FrameLimits{settings.max_request_bytes, settings.max_header_count,
                                   settings.max_header_bytes};
        port->server = server;
        port->limiter = limiter;
        port->access = access;
        port->tls_secret = tls_secret;

        auto [host, portno] = split_address(address);
        auto ep =
            std::make_unique<Http::Endpoint>(Address(host, Port(static_cast<uint16_t>(portno))));
        // The whole request must arrive within header_timeout_ms: Pistache's checker sees the
        // connection's (never fed) parser reset when a request starts, where it applies
        // min(header, body) timeouts.
        const std::chrono::milliseconds request_timeout(settings.header_timeout_ms);
        auto opts = Http::Endpoint::options()
                        .threads(static_cast<int>(runtime.settings().io_threads()))
                        .flags(Tcp::Options::ReuseAddr | Tcp::Options::NoDelay)
                        .backlog(1024)
                        .maxRequestSize(settings.max_request_bytes)
                        .headerTimeout(request_timeout)
                        .bodyTimeout(request_timeout)
                        .keepaliveTimeout(std::chrono::milliseconds(settings.idle_timeout_ms));
        ep->init(opts);
        ep->setHandler(front::connection_handler(port));
        ep->serveThreaded();
        return ep;
    }
};

HttpServer::HttpServer(Runtime& runtime, std::shared_ptr<const HttpChallenges> challenges)
    : impl_(std::make_unique<Impl>(runtime, challenges)) {}

HttpServer::~HttpServer() {
    stop();
}

namespace {

// Runs `open` (binding `address`); a failure names the address and the setting that chose it, and
// for a port in use says what to do.
template <class F>
auto bound(const char* which, const std::string& address, const char* setting, const char* flag,
           F&& open) {
    try {
        return open();
    } catch (const std::exception& e) {
        std::string why = e.what();
        if (why.find("in use") != std::string::npos)
            why =
                "address already in use (another process, perhaps another `platform server`, "
                "listens there: stop it or choose another address)";
        throw std::runtime_error(std::string(which) + " address " + address + " (" + setting +
                                 ", or `platform server " + flag + "`): cannot listen: " + why);
    }
}

}  // namespace

void HttpServer::start(const std::string& api_address, const std::string& proxy_address,
                       const std::optional<TlsCertificate>& tls) {
    if (!tls) {
        impl_->api = bound("api", api_address, "PLATFORM_API_ADDRESS", "--api_address",
                           [&] { return impl_->listen(api_address, &impl_->api_gateway, true); });
    } else {
        // The api endpoint only takes the TLS listener's connections, on loopback (decision 18).
        TlsListener::Options o;
        o.secret = TlsListener::new_secret();
        o.max_connections = impl_->settings.max_connections;
        o.handshake_timeout_ms = impl_->settings.header_timeout_ms;
        impl_->api = impl_->listen(o.backend_host + ":0", &impl_->api_gateway, true, o.secret);
        o.backend_port = static_cast<uint16_t>(impl_->api->getPort());
        impl_->tls = std::make_unique<TlsListener>(o);
        bound("api", api_address, "PLATFORM_API_ADDRESS", "--api_address", [&] {
            impl_->tls->start(api_address, *tls);
            return 0;
        });
    }
    impl_->proxy = bound("proxy", proxy_address, "PLATFORM_PROXY_ADDRESS", "--proxy_address", [&] {
        return impl_->listen(proxy_address, &impl_->proxy_gateway, false);
    });
}

void HttpServer::begin_drain() {
    impl_->server->draining = true;
    impl_->api_gateway.begin_drain();  // open-ended streams (MCP sessions') end now
    front::close_websockets(*impl_->server, 1001, "the server is shutting down");
}

int64_t HttpServer::in_flight() const {
    return impl_->server->in_flight;
}

void HttpServer::stop() {
    impl_->server->stop_gate.close();
    front::end_websockets(*impl_->server, std::chrono::milliseconds(5000));
    if (impl_->tls) impl_->tls->stop();  // no new TLS connections; open ones close
    std::thread other;
    if (impl_->proxy) other = std::thread([this] { impl_->proxy->shutdown(); });
    if (impl_->api) impl_->api->shutdown();
    if (other.joinable()) other.join();
    impl_->api.reset();
    impl_->proxy.reset();
    if (impl_->access) impl_->access->stop();  // the lines queued are written; later ones at once
}

int HttpServer::api_port() const {
    return impl_->tls ? impl_->tls->port() : internal_api_port();
}
int HttpServer::internal_api_port() const {
    return impl_->api ? static_cast<uint16_t>(impl_->api->getPort()) : 0;
}
TlsListener* HttpServer::tls() const {
    return impl_->tls.get();
}
int HttpServer::proxy_port() const {
    return impl_->proxy ? static_cast<uint16_t>(impl_->proxy->getPort()) : 0;
}
const HttpSettings& HttpServer::settings() const {
    return impl_->settings;
}

}  // namespace platform::host
