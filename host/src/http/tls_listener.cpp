#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <platform/host/core/settings.hpp>
#include <platform/host/http/tls_context.hpp>
#include <platform/host/http/tls_listener.hpp>
#include <thread>

#include "tls_connection.hpp"

namespace platform::host {

namespace {

constexpr int kStopWaitMs = 10000;  // stop(): how long connection threads get to end

// "1.2.3.4" / "::1" and the port of a socket address (IPv4-mapped IPv6 addresses as IPv4).
std::pair<std::string, int> address_of(const sockaddr_storage& a) {
    char text[INET6_ADDRSTRLEN] = "";
    if (a.ss_family == AF_INET) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(a);
        inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
        return {text, ntohs(v4.sin_port)};
    }
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(a);
    if (IN6_IS_ADDR_V4MAPPED(&v6.sin6_addr))
        inet_ntop(AF_INET, &v6.sin6_addr.s6_addr[12], text, sizeof text);
    else
        inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    return {text, ntohs(v6.sin6_port)};
}

}  // namespace

struct TlsListener::Impl : std::enable_shared_from_this<Impl> {
    Options options;
    mutable std::mutex ctx_m;
    tls::Context current;  // under ctx_m

    int listen_fd = -1, stop_fd = -1, bound_port = 0;
    std::thread acceptor;
    bool stopped = false;
    std::mutex m;
    std::condition_variable cv;
    int64_t threads = 0;  // connection threads running (under m)
    std::atomic<int64_t> open{0};

    explicit Impl(Options o) : options(std::move(o)) {}
    ~Impl() {
        if (listen_fd >= 0) ::close(listen_fd);
        if (stop_fd >= 0) ::close(stop_fd);
    }

    std::shared_ptr<SSL_CTX> context() const {
        std::lock_guard<std::mutex> g(ctx_m);
        return current.ctx;
    }

    void accept_loop() {
        for (;;) {
            pollfd p[2] = {{listen_fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
            if (::poll(p, 2, -1) < 0) {
                if (errno == EINTR) continue;
                spdlog::error("tls: poll failed: {}", std::strerror(errno));
                return;
            }
            if (p[1].revents) return;
            sockaddr_storage addr{};
            socklen_t len = sizeof addr;
            const int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len,
                                     SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                    spdlog::warn("tls: accept failed: {}", std::strerror(errno));
                    pollfd s{stop_fd, POLLIN, 0};
                    ::poll(&s, 1, 100);  // back off instead of spinning on a full descriptor table
                }
                continue;
            }
            {
                std::lock_guard<std::mutex> g(m);
                if (threads >= static_cast<int64_t>(options.max_connections)) {
                    ::close(fd);
                    spdlog::debug("tls: connection closed: http.max_connections ({}) reached",
                                  options.max_connections);
                    continue;
                }
                ++threads;
            }
            auto [ip, port] = address_of(addr);
            try {
                std::thread([self = shared_from_this(), fd, ip = ip, port = port] {
                    self->serve(fd, ip, port);
                    std::lock_guard<std::mutex> g(self->m);
                    --self->threads;
                    self->cv.notify_all();
                }).detach();
            } catch (const std::exception& e) {
                ::close(fd);
                std::lock_guard<std::mutex> g(m);
                --threads;
                spdlog::warn("tls: no thread for a connection: {}", e.what());
            }
        }
    }

    void serve(int fd, const std::string& ip, int port) {
        ++open;
        tls::serve_tls_connection(fd, ip, port, context(), options, stop_fd);
        --open;
    }
};

TlsListener::TlsListener(Options options) : impl_(std::make_shared<Impl>(std::move(options))) {}

TlsListener::~TlsListener() {
    stop();
}

void TlsListener::start(const std::string& address, const TlsCertificate& certificate) {
    tls::Context ctx = tls::make_context(certificate);
    {
        std::lock_guard<std::mutex> g(impl_->ctx_m);
        impl_->current = std::move(ctx);
    }
    auto [host, port] = split_address(address);
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* res = nullptr;
    if (int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
        rc != 0 || !res)
        throw std::runtime_error("api address " + address + ": " + gai_strerror(rc));
    const int fd = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    const bool ok =
        fd >= 0 && ::bind(fd, res->ai_addr, res->ai_addrlen) == 0 && ::listen(fd, 1024) == 0;
    const int e = errno;
    freeaddrinfo(res);
    if (!ok) {
        if (fd >= 0) ::close(fd);
        throw std::runtime_error("api address " + address + ": cannot listen: " + std::strerror(e));
    }
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
    impl_->listen_fd = fd;
    impl_->bound_port = address_of(bound).second;
    impl_->stop_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (impl_->stop_fd < 0)
        throw std::runtime_error(std::string("tls: eventfd: ") + std::strerror(errno));
    impl_->acceptor = std::thread([impl = impl_.get()] { impl->accept_loop(); });
}

void TlsListener::stop() {
    Impl& i = *impl_;
    if (i.stopped || i.stop_fd < 0) return;
    i.stopped = true;
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n =
        ::write(i.stop_fd, &one, sizeof one);  // wakes every poll, stays readable
    if (i.acceptor.joinable()) i.acceptor.join();
    ::close(i.listen_fd);
    i.listen_fd = -1;
    std::unique_lock<std::mutex> lock(i.m);
    if (!i.cv.wait_for(lock, std::chrono::milliseconds(kStopWaitMs),
                       [&] { return i.threads == 0; }))
        spdlog::warn("tls: {} connection threads still running at stop", i.threads);
}

int TlsListener::port() const {
    return impl_->bound_port;
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
