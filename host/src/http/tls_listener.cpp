#include <spdlog/spdlog.h>

#include <atomic>
#include <mutex>
#include <platform/host/http/connection_acceptor.hpp>
#include <platform/host/http/tls_context.hpp>
#include <platform/host/http/tls_listener.hpp>

#include "tls_connection.hpp"

namespace platform::host {

namespace {

constexpr int kStopWaitMs = 10000;  // stop(): how long connection threads get to end

}  // namespace

struct TlsListener::Impl {
    Options options;
    mutable std::mutex ctx_m;
    tls::Context current;  // under ctx_m
    std::atomic<int64_t> open{0};

    explicit Impl(Options o) : options(std::move(o)) {}

    std::shared_ptr<SSL_CTX> context() const {
        std::lock_guard<std::mutex> g(ctx_m);
        return current.ctx;
    }
};

TlsListener::TlsListener(Options options) : impl_(std::make_shared<Impl>(std::move(options))) {
    // The connection threads hold impl_ through `serve`; impl_ holds nothing of the acceptor.
    acceptor_ = std::make_unique<ConnectionAcceptor>(
        ConnectionAcceptor::Options{"tls", "api address", impl_->options.max_connections, 1024,
                                    kStopWaitMs},
        [impl = impl_](int fd, const ConnectionAcceptor::Peer& peer, int stop_fd) {
            ++impl->open;
            tls::serve_tls_connection(fd, peer.ip, peer.port, impl->context(), impl->options,
                                      stop_fd);
            --impl->open;
        });
}

TlsListener::~TlsListener() {
    stop();
}

void TlsListener::start(const std::string& address, const TlsCertificate& certificate) {
    tls::Context ctx = tls::make_context(certificate);
    {
        std::lock_guard<std::mutex> g(impl_->ctx_m);
        impl_->current = std::move(ctx);
    }
    acceptor_->start(address);
}

void TlsListener::stop() {
    acceptor_->stop();
}

int TlsListener::port() const {
    return acceptor_->port();
}

int64_t TlsListener::connections() const {
    return impl_->open;
}

void TlsListener::reload(const std::string& cert_pem, const std::string& key_pem) {
    tls::Context ctx = tls::make_context(TlsCertificate{cert_pem, key_pem});
    spdlog::info("tls: certificate loaded: {}", ctx.summary);
    std::lock_guard<std::mutex> g(impl_->ctx_m);
    impl_->current = std::move(ctx);
}

void TlsListener::reload_files(const std::string& cert_file, const std::string& key_file) {
    TlsCertificate c = read_files(cert_file, key_file);
    reload(c.cert_pem, c.key_pem);
}

std::string TlsListener::certificate_summary() const {
    std::lock_guard<std::mutex> g(impl_->ctx_m);
    return impl_->current.summary;
}

}  // namespace platform::host
