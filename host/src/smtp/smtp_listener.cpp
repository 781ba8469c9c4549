#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <platform/host/core/settings.hpp>
#include <platform/host/http/tls_context.hpp>
#include <platform/host/smtp/smtp_listener.hpp>
#include <thread>

#include "smtp_connection.hpp"

namespace platform::host::smtp {

namespace {

constexpr int kStopWaitMs = 5000;  // stop(): how long connection threads get to end

std::string peer_of(const sockaddr_storage& a) {
    char text[INET6_ADDRSTRLEN] = "";
    if (a.ss_family == AF_INET) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(a);
        inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
        return std::string(text) + ":" + std::to_string(ntohs(v4.sin_port));
    }
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(a);
    inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    return "[" + std::string(text) + "]:" + std::to_string(ntohs(v6.sin6_port));
}

}  // namespace

struct Listener::Impl : std::enable_shared_from_this<Impl> {
    ListenerOptions options;
    std::shared_ptr<Policy> policy;
    mutable std::mutex ctx_m;
    std::shared_ptr<SSL_CTX> tls;  // under ctx_m; null: no STARTTLS

    int listen_fd = -1, stop_fd = -1, bound_port = 0;
    std::thread acceptor;
    bool stopped = false;
    std::mutex m;
    std::condition_variable cv;
    int64_t threads = 0;  // connection threads running (under m)

    Impl(ListenerOptions o, std::shared_ptr<Policy> p)
        : options(std::move(o)), policy(std::move(p)) {}
    ~Impl() {
        if (listen_fd >= 0) ::close(listen_fd);
        if (stop_fd >= 0) ::close(stop_fd);
    }

    std::shared_ptr<SSL_CTX> context() const {
        std::lock_guard<std::mutex> g(ctx_m);
        return tls;
    }

    void accept_loop() {
        for (;;) {
            pollfd p[2] = {{listen_fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
            if (::poll(p, 2, -1) < 0) {
                if (errno == EINTR) continue;
                spdlog::error("smtp: poll failed: {}", std::strerror(errno));
                return;
            }
            if (p[1].revents) return;
            sockaddr_storage addr{};
            socklen_t len = sizeof addr;
            const int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len,
                                     SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                    pollfd s{stop_fd, POLLIN, 0};
                    ::poll(&s, 1, 100);  // back off instead of spinning on a full table
                }
                continue;
            }
            {
                std::lock_guard<std::mutex> g(m);
                if (threads >= static_cast<int64_t>(options.max_connections)) {
                    static const char busy[] = "421 4.3.2 too many connections, try later\r\n";
                    [[maybe_unused]] ssize_t n = ::send(fd, busy, sizeof busy - 1, MSG_NOSIGNAL);
                    ::close(fd);
                    continue;
                }
                ++threads;
            }
            try {
                std::thread([self = shared_from_this(), fd, peer = peer_of(addr)] {
                    self->serve(fd, peer);
                    std::lock_guard<std::mutex> g(self->m);
                    --self->threads;
                    self->cv.notify_all();
                }).detach();
            } catch (const std::exception& e) {
                ::close(fd);
                std::lock_guard<std::mutex> g(m);
                --threads;
                spdlog::warn("smtp: no thread for a connection: {}", e.what());
            }
        }
    }

    void serve(int fd, const std::string& peer) {
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
    : impl_(std::make_shared<Impl>(std::move(options), std::move(policy))) {}

Listener::~Listener() {
    stop();
}

void Listener::start(const std::string& address, const std::optional<TlsCertificate>& certificate) {
    if (certificate) reload(*certificate);
    auto [host, port] = split_address(address);
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* res = nullptr;
    if (int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
        rc != 0 || !res)
        throw std::runtime_error("PLATFORM_SMTP_ADDRESS " + address + ": " + gai_strerror(rc));
    const int fd = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    const bool ok =
        fd >= 0 && ::bind(fd, res->ai_addr, res->ai_addrlen) == 0 && ::listen(fd, 128) == 0;
    const int e = errno;
    freeaddrinfo(res);
    if (!ok) {
        if (fd >= 0) ::close(fd);
        throw std::runtime_error("PLATFORM_SMTP_ADDRESS " + address +
                                 ": cannot listen: " + std::strerror(e));
    }
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
    impl_->listen_fd = fd;
    impl_->bound_port = bound.ss_family == AF_INET
                            ? ntohs(reinterpret_cast<sockaddr_in&>(bound).sin_port)
                            : ntohs(reinterpret_cast<sockaddr_in6&>(bound).sin6_port);
    impl_->stop_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (impl_->stop_fd < 0)
        throw std::runtime_error(std::string("smtp: eventfd: ") + std::strerror(errno));
    impl_->acceptor = std::thread([impl = impl_.get()] { impl->accept_loop(); });
}

void Listener::stop() {
    Impl& i = *impl_;
    if (i.stopped || i.stop_fd < 0) return;
    i.stopped = true;
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(i.stop_fd, &one, sizeof one);  // wakes every poll
    if (i.acceptor.joinable()) i.acceptor.join();
    ::close(i.listen_fd);
    i.listen_fd = -1;
    std::unique_lock<std::mutex> lock(i.m);
    if (!i.cv.wait_for(lock, std::chrono::milliseconds(kStopWaitMs),
                       [&] { return i.threads == 0; }))
        spdlog::warn("smtp: {} connection threads still running at stop", i.threads);
}

int Listener::port() const {
    return impl_->bound_port;
}

void Listener::reload(const TlsCertificate& certificate) {
    tls::Context ctx = tls::make_context(certificate);
    std::lock_guard<std::mutex> g(impl_->ctx_m);
    impl_->tls = ctx.ctx;
}

}  // namespace platform::host::smtp
