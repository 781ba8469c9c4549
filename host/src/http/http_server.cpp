#include <platform/host/http_server.hpp>
#include <platform/host/settings.hpp>
#include <platform/host/status.hpp>

#include <pistache/endpoint.h>
#include <pistache/http.h>
#include <pistache/peer.h>
#include <spdlog/spdlog.h>

#include <mutex>
#include <sstream>
#include <sys/socket.h>
#include <poll.h>
#include <cerrno>
#include <cstdio>

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

// A chunked response written straight to the connection's socket. Pistache 0.0.5's transport
// aborts ("could not find write data") when several writes for one connection are queued from
// another thread, as a stream's chunks are; so a stream bypasses it: status line, headers and
// chunks go out with send(2) under this object's lock (waiting with poll while the socket is
// full), and Pistache never writes this response. The connection stays Pistache's for the next
// request. Not for TLS connections (the gateway does not stream over TLS yet).
class SocketStream : public HttpStream {
public:
    SocketStream(int fd, bool close_after) : fd_(fd), close_after_(close_after) {}
    bool start(const std::string& head) {
        std::lock_guard<std::mutex> g(m_);
        return send_all(head);
    }
    bool write(std::string_view bytes) override {
        if (bytes.empty()) return true;
        char size[32];
        int n = std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
        std::lock_guard<std::mutex> g(m_);
        return send_all(std::string_view(size, static_cast<size_t>(n))) && send_all(bytes) && send_all("\r\n");
    }
    void end() override {
        std::lock_guard<std::mutex> g(m_);
        if (!closed_) send_all("0\r\n\r\n");
        if (!closed_ && close_after_) ::shutdown(fd_, SHUT_RDWR);  // Connection: close
        closed_ = true;
    }

private:
    bool send_all(std::string_view bytes) {
        while (!closed_ && !bytes.empty()) {
            ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (n > 0) {
                bytes.remove_prefix(static_cast<size_t>(n));
            } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
                pollfd p{fd_, POLLOUT, 0};
                if (::poll(&p, 1, 30000) <= 0 || (p.revents & (POLLERR | POLLHUP))) closed_ = true;
            } else {
                closed_ = true;  // the client went away
            }
        }
        return !closed_;
    }
    std::mutex m_;
    int fd_;
    bool close_after_;
    bool closed_ = false;
};

class Handler : public Http::Handler {
public:
    HTTP_PROTOTYPE(Handler)
    explicit Handler(Gateway* gateway) : gateway_(gateway) {}

    void onRequest(const Http::Request& request, Http::ResponseWriter response) override {
        HttpRequest req = convert(request);
        const bool close = wants_close(request, req.header("connection"));
        auto writer = std::make_shared<Http::ResponseWriter>(std::move(response));
        OpenStream open = [writer, close](int status, const std::string& type,
                                          const std::vector<std::pair<std::string, std::string>>& headers)
            -> std::shared_ptr<HttpStream> {
            auto peer = writer->getPeer();
            if (!peer || peer->ssl()) return nullptr;
            std::string head = "HTTP/1.1 " + std::to_string(status) + " " +
                               std::string(http_reason(status)) + "\r\nContent-Type: " + type +
                               "\r\nTransfer-Encoding: chunked\r\nConnection: " + (close ? "Close" : "Keep-Alive") + "\r\n";
            for (auto& [k, v] : headers) head += k + ": " + v + "\r\n";
            head += "\r\n";
            auto stream = std::make_shared<SocketStream>(peer->fd(), close);
            return stream->start(head) ? stream : nullptr;
        };
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
        }, open);
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
