#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <platform/host/core/settings.hpp>
#include <platform/host/http/connection_acceptor.hpp>
#include <stdexcept>
#include <thread>

namespace platform::host {

namespace {

ConnectionAcceptor::Peer peer_of(const sockaddr_storage& a) {
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

std::string ConnectionAcceptor::Peer::text() const {
    return (ip.find(':') != std::string::npos ? "[" + ip + "]" : ip) + ":" + std::to_string(port);
}

struct ConnectionAcceptor::Impl : std::enable_shared_from_this<Impl> {
    Options options;
    Serve serve;
    Refuse refuse;
    int listen_fd = -1, stop_fd = -1, bound_port = 0;
    std::thread acceptor;
    bool stopped = false;
    std::mutex m;
    std::condition_variable cv;
    int64_t threads = 0;  // connection threads running (under m)

    Impl(Options o, Serve s, Refuse r)
        : options(std::move(o)), serve(std::move(s)), refuse(std::move(r)) {}
    ~Impl() {
        if (listen_fd >= 0) ::close(listen_fd);
        if (stop_fd >= 0) ::close(stop_fd);
    }

    void accept_loop() {
        for (;;) {
            pollfd p[2] = {{listen_fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
            if (::poll(p, 2, -1) < 0) {
                if (errno == EINTR) continue;
                spdlog::error("{}: poll failed: {}", options.name, std::strerror(errno));
                return;
            }
            if (p[1].revents) return;
            sockaddr_storage addr{};
            socklen_t len = sizeof addr;
            const int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len,
                                     SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                    spdlog::warn("{}: accept failed: {}", options.name, std::strerror(errno));
                    pollfd s{stop_fd, POLLIN, 0};
                    ::poll(&s, 1, 100);  // back off instead of spinning on a full table
                }
                continue;
            }
            if (!admit(fd)) continue;
            try {
                std::thread([self = shared_from_this(), fd, peer = peer_of(addr)] {
                    self->serve(fd, peer, self->stop_fd);
                    std::lock_guard<std::mutex> g(self->m);
                    --self->threads;
                    self->cv.notify_all();
                }).detach();
            } catch (const std::exception& e) {
                ::close(fd);
                std::lock_guard<std::mutex> g(m);
                --threads;
                spdlog::warn("{}: no thread for a connection: {}", options.name, e.what());
            }
        }
    }

    // Counts the connection's thread, or refuses and closes it at max_connections.
    bool admit(int fd) {
        std::lock_guard<std::mutex> g(m);
        if (threads < static_cast<int64_t>(options.max_connections)) return ++threads, true;
        if (refuse) refuse(fd);
        ::close(fd);
        spdlog::debug("{}: connection closed: {} connections reached", options.name,
                      options.max_connections);
        return false;
    }
};

ConnectionAcceptor::ConnectionAcceptor(Options options, Serve serve, Refuse refuse)
    : impl_(std::make_shared<Impl>(std::move(options), std::move(serve), std::move(refuse))) {}

ConnectionAcceptor::~ConnectionAcceptor() {
    stop();
}

void ConnectionAcceptor::start(const std::string& address) {
    const std::string what = impl_->options.setting + " " + address + ": ";
    auto [host, port] = split_address(address);
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* res = nullptr;
    if (int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
        rc != 0 || !res)
        throw std::runtime_error(what + gai_strerror(rc));
    const int fd = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    const bool ok = fd >= 0 && ::bind(fd, res->ai_addr, res->ai_addrlen) == 0 &&
                    ::listen(fd, impl_->options.backlog) == 0;
    const int e = errno;
    freeaddrinfo(res);
    if (!ok) {
        if (fd >= 0) ::close(fd);
        throw std::runtime_error(what + "cannot listen: " + std::strerror(e));
    }
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
    impl_->listen_fd = fd;
    impl_->bound_port = peer_of(bound).port;
    impl_->stop_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (impl_->stop_fd < 0)
        throw std::runtime_error(impl_->options.name + ": eventfd: " + std::strerror(errno));
    impl_->acceptor = std::thread([impl = impl_.get()] { impl->accept_loop(); });
}

void ConnectionAcceptor::stop() {
    Impl& i = *impl_;
    if (i.stopped || i.stop_fd < 0) return;
    i.stopped = true;
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(i.stop_fd, &one, sizeof one);  // wakes every poll
    if (i.acceptor.joinable()) i.acceptor.join();
    ::close(i.listen_fd);
    i.listen_fd = -1;
    std::unique_lock<std::mutex> lock(i.m);
    if (!i.cv.wait_for(lock, std::chrono::milliseconds(i.options.stop_wait_ms),
                       [&] { return i.threads == 0; }))
        spdlog::warn("{}: {} connection threads still running at stop", i.options.name, i.threads);
}

int ConnectionAcceptor::port() const {
    return impl_->bound_port;
}

int ConnectionAcceptor::stop_fd() const {
    return impl_->stop_fd;
}

}  // namespace platform::host
