#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <mutex>
#include <platform/host/http/connection_acceptor.hpp>
#include <platform/host/http/tls_context.hpp>
#include <platform/host/smtp/smtp_listener.hpp>

#include "smtp_connection.hpp"

namespace platform::host::smtp {

namespace {

constexpr int kStopWaitMs = 5000;  // stop(): how long connection threads get to end

}  // namespace

struct Listener::Impl {
    ListenerOptions options;
    std::shared_ptr<Policy> policy;
    mutable std::mutex ctx_m;
    std::shared_ptr<SSL_CTX> tls;  // under ctx_m; null: no STARTTLS

    Impl(ListenerOptions o, std::shared_ptr<Policy> p)
        : options(std::move(o)), policy(std::move(p)) {}

    std::shared_ptr<SSL_CTX> context() const {
        std::lock_guard<std::mutex> g(ctx_m);
        return tls;
    }

    void serve(int fd, const std::string& peer, int stop_fd) {
        auto ctx = context();
        Dialogue dialogue(options.hostname, options.limits, *policy, ctx != nullptr);
        try {
            serve_connection(fd, stop_fd, peer, std::move(ctx), dialogue, options.read_timeout_ms);
        } catch (const std::exception& e) {
            spdlog::warn("smtp: connection from {} ended: {}", peer, e.what());
        }
    }
};

Listener::Listener(ListenerOptions options, std::shared_ptr<Policy> policy)
    : impl_(std::make_shared<Impl>(std::move(options), std::move(policy))) {
    // The connection threads hold impl_ through `serve`; impl_ holds nothing of the acceptor.
    acceptor_ = std::make_unique<ConnectionAcceptor>(
        ConnectionAcceptor::Options{"smtp", "PLATFORM_SMTP_ADDRESS", impl_->options.max_connections,
                                    128, kStopWaitMs},
        [impl = impl_](int fd, const ConnectionAcceptor::Peer& peer, int stop_fd) {
            impl->serve(fd, peer.text(), stop_fd);
        },
        [](int fd) {
            static const char busy[] = "421 4.3.2 too many connections, try later\r\n";
            [[maybe_unused]] ssize_t n = ::send(fd, busy, sizeof busy - 1, MSG_NOSIGNAL);
        });
}

Listener::~Listener() {
    stop();
}

void Listener::start(const std::string& address, const std::optional<TlsCertificate>& certificate) {
    if (certificate) reload(*certificate);
    acceptor_->start(address);
}

void Listener::stop() {
    acceptor_->stop();
}

int Listener::port() const {
    return acceptor_->port();
}

void Listener::reload(const TlsCertificate& certificate) {
    tls::Context ctx = tls::make_context(certificate);
    std::lock_guard<std::mutex> g(impl_->ctx_m);
    impl_->tls = ctx.ctx;
}

}  // namespace platform::host::smtp
