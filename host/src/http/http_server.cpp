#include <platform/host/http_server.hpp>
#include <platform/host/settings.hpp>

#include <pistache/endpoint.h>
#include <pistache/http.h>
#include <pistache/peer.h>
#include <spdlog/spdlog.h>

#include <sstream>
#include <sys/socket.h>

namespace platform::host {

using namespace Pistache;

namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Wants the connection closed: Connection: close, or HTTP/1.0 without keep-alive.
bool wants_close(const Http::Request& req, const std::string& connection) {
    std::string c = lower(connection);
    if (c.find("close") != std::string::npos) return true;
    if (req.version() == Http::Version::Http10) return c.find("keep-alive") == std::string::npos;
    return false;
}

HttpRequest convert(const Http::Request& in) {
    HttpRequest out;
    out.method = Http::methodString(in.method());
    out.path = in.resource();
    out.body = in.body();
    for (const auto& h : in.headers().list()) {
        std::ostringstream os;
        h->write(os);
        out.headers[lower(h->name())] = os.str();
    }
    for (const auto& [name, raw] : in.headers().rawList()) out.headers[lower(name)] = raw.value();
    std::string q;
    for (auto it = in.query().parameters_begin(); it != in.query().parameters_end(); ++it)
        q += (q.empty() ? "" : "&") + it->first + "=" + it->second;
    out.query = q;
    return out;
}

// Any response header by name (Pistache writes only typed headers, not raw ones).
class NamedHeader : public Http::Header::Header {
public:
    NamedHeader(std::string name, std::string value) : name_(std::move(name)), value_(std::move(value)) {}
    const char* name() const override { return name_.c_str(); }
    void write(std::ostream& os) const override { os << value_; }
    uint64_t hash() const override { return Http::Header::detail::hash(name_.c_str()); }

private:
    std::string name_, value_;
};

class Handler : public Http::Handler {
public:
    HTTP_PROTOTYPE(Handler)
    explicit Handler(Gateway* gateway) : gateway_(gateway) {}

    void onRequest(const Http::Request& request, Http::ResponseWriter response) override {
        HttpRequest req = convert(request);
        const bool close = wants_close(request, req.header("connection"));
        auto writer = std::make_shared<Http::ResponseWriter>(std::move(response));
        gateway_->handle(std::move(req), [writer, close](HttpResponse r) {
            try {
                auto& h = writer->headers();
                if (h.tryGet<Http::Header::Connection>()) h.remove<Http::Header::Connection>();
                h.add<Http::Header::Connection>(close ? Http::ConnectionControl::Close
                                                      : Http::ConnectionControl::KeepAlive);
                for (auto& [k, v] : r.headers) h.add(std::make_shared<NamedHeader>(k, v));
                auto sent = writer->send(static_cast<Http::Code>(r.status), r.body,
                                         Http::Mime::MediaType::fromString(r.content_type));
                // Pistache never closes a connection itself: after a `Connection: close` answer
                // is written, shut the socket so the client sees the end (RFC 9112 §9.6).
                if (close)
                    if (auto peer = writer->getPeer())
                        sent.then([peer](ssize_t) { ::shutdown(peer->fd(), SHUT_RDWR); }, Async::IgnoreException);
            } catch (const std::exception& e) {
                spdlog::debug("response not delivered: {}", e.what());
            }
        });
    }

private:
    Gateway* gateway_;
};

}  // namespace

struct HttpServer::Impl {
    Runtime& runtime;
    Gateway api_gateway, proxy_gateway;
    std::unique_ptr<Http::Endpoint> api, proxy;
    explicit Impl(Runtime& r)
        : runtime(r),
          api_gateway(r, Gateway::Role::api, platform_version()),
          proxy_gateway(r, Gateway::Role::proxy, platform_version()) {}

    std::unique_ptr<Http::Endpoint> listen(const std::string& address, Gateway* gw) {
        auto [host, port] = split_address(address);
        auto ep = std::make_unique<Http::Endpoint>(Address(host, Port(static_cast<uint16_t>(port))));
        auto opts = Http::Endpoint::options()
                        .threads(2)
                        .flags(Tcp::Options::ReuseAddr)
                        .backlog(1024)
                        .maxRequestSize(runtime.max_body() + 64 * 1024);
        ep->init(opts);
        ep->setHandler(std::make_shared<Handler>(gw));
        ep->serveThreaded();
        return ep;
    }
};

HttpServer::HttpServer(Runtime& runtime) : impl_(std::make_unique<Impl>(runtime)) {}

HttpServer::~HttpServer() { stop(); }

void HttpServer::start(const std::string& api_address, const std::string& proxy_address) {
    impl_->api = impl_->listen(api_address, &impl_->api_gateway);
    impl_->proxy = impl_->listen(proxy_address, &impl_->proxy_gateway);
}

void HttpServer::stop() {
    if (impl_->api) impl_->api->shutdown();
    if (impl_->proxy) impl_->proxy->shutdown();
    impl_->api.reset();
    impl_->proxy.reset();
}

int HttpServer::api_port() const { return impl_->api ? static_cast<uint16_t>(impl_->api->getPort()) : 0; }
int HttpServer::proxy_port() const { return impl_->proxy ? static_cast<uint16_t>(impl_->proxy->getPort()) : 0; }

}  // namespace platform::host
