#include "tls_connection.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <platform/host/acme/openssl_handles.hpp>
#include <platform/host/http/http_framing.hpp>
#include <platform/host/http/tls_context.hpp>

#include "tls_pump.hpp"

namespace platform::host::tls {

namespace {

using Clock = std::chrono::steady_clock;
using SslPtr = openssl::Owned<SSL, SSL_free>;

constexpr int kLingerMs = 2000;  // after our close: how long the client's last bytes are read

void set_nodelay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int remaining_ms(Clock::time_point deadline) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(std::min<int64_t>(left, INT_MAX));
}

// One accepted connection `fd` from ip:port, served on its own thread.
class TlsConnection {
public:
    TlsConnection(const TlsListener::Options& options, int stop_fd, int fd, const std::string& ip,
                  int port)
        : options_(options), stop_fd_(stop_fd), fd_(fd), ip_(ip), port_(port) {}

    void serve(SSL_CTX* ctx) {
        set_nodelay(fd_);
        SslPtr ssl(SSL_new(ctx));
        if (ssl && SSL_set_fd(ssl.get(), fd_) == 1) {
            SSL_set_accept_state(ssl.get());
            if (handshake(ssl.get())) connected(ssl.get());
        }
        ERR_clear_error();
        ::close(fd_);
    }

private:
    bool handshake(SSL* ssl) {
        const auto deadline =
            Clock::now() + std::chrono::milliseconds(options_.handshake_timeout_ms);
        for (;;) {
            ERR_clear_error();
            const int r = SSL_accept(ssl);
            if (r == 1) return true;
            const int e = SSL_get_error(ssl, r);
            short events = e == SSL_ERROR_WANT_READ    ? POLLIN
                           : e == SSL_ERROR_WANT_WRITE ? POLLOUT
                                                       : 0;
            if (!events) return handshake_failed(e);
            const int left = remaining_ms(deadline);
            if (left == 0) {
                spdlog::debug("tls: handshake with {}:{} timed out after {} ms", ip_, port_,
                              options_.handshake_timeout_ms);
                return false;
            }
            pollfd p[2] = {{fd_, events, 0}, {stop_fd_, POLLIN, 0}};
            const int n = ::poll(p, 2, left);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 || p[1].revents) return false;
        }
    }

    // SSL_accept failed with `e` (SSL_get_error): a plain HTTP request is answered. Always false.
    bool handshake_failed(int e) {
        const unsigned long err = ERR_peek_error();
        if (ERR_GET_LIB(err) == ERR_LIB_SSL && (ERR_GET_REASON(err) == SSL_R_HTTP_REQUEST ||
                                                ERR_GET_REASON(err) == SSL_R_HTTPS_PROXY_REQUEST)) {
            ERR_clear_error();
            plain_http_answer();
            return false;
        }
        spdlog::debug(
            "tls: handshake with {}:{} failed: {}", ip_, port_,
            openssl_error(e == SSL_ERROR_SYSCALL ? "connection closed" : "handshake failed"));
        return false;
    }

    // A plain HTTP request on the TLS port: say so in plain HTTP, then close.
    void plain_http_answer() {
        static const std::string body = "This port speaks HTTPS (TLS): use an https:// URL.\n";
        const std::string answer =
            "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: "
            "close\r\nContent-Length: " +
            std::to_string(body.size()) + "\r\n\r\n" + body;
        [[maybe_unused]] ssize_t n = ::send(fd_, answer.data(), answer.size(), MSG_NOSIGNAL);
        linger();
    }

    // Our side is done: half-close, then read (and drop) what the client still sends, so our close
    // does not turn into a reset that destroys the last answer before the client read it.
    void linger() {
        ::shutdown(fd_, SHUT_WR);
        const auto deadline = Clock::now() + std::chrono::milliseconds(kLingerMs);
        char buf[4096];
        for (;;) {
            pollfd p[2] = {{fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
            const int n = ::poll(p, 2, remaining_ms(deadline));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0 || p[1].revents) return;
            const ssize_t r = ::recv(fd_, buf, sizeof buf, 0);
            if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
                return;
        }
    }

    int connect_backend() {
        addrinfo hints{};
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
        addrinfo* res = nullptr;
        if (getaddrinfo(options_.backend_host.c_str(),
                        std::to_string(options_.backend_port).c_str(), &hints, &res) != 0 ||
            !res) {
            errno = EINVAL;
            return -1;
        }
        const int fd = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int rc = fd < 0 ? -1 : ::connect(fd, res->ai_addr, res->ai_addrlen);
        const int e = errno;
        freeaddrinfo(res);
        if (rc != 0) {
            if (fd >= 0) ::close(fd);
            errno = e;
            return -1;
        }
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        set_nodelay(fd);
        return fd;
    }

    // The handshake is done: connect to the api endpoint and pump until either side closes.
    void connected(SSL* ssl) {
        const int backend = connect_backend();
        if (backend < 0) {
            spdlog::warn("tls: cannot reach the api endpoint {}:{}: {}", options_.backend_host,
                         options_.backend_port, std::strerror(errno));
            close_notify(ssl);
            return;
        }
        const PumpEnd end =
            pump(ssl, fd_, backend, stop_fd_, tls_preface(options_.secret, ip_, port_));
        ::close(backend);
        if (end == PumpEnd::backend) {
            close_notify(ssl);
            linger();
        } else if (end == PumpEnd::client) {
            close_notify(ssl);
        }
    }

    // Sends close_notify, best effort (waits a little for room in the socket).
    void close_notify(SSL* ssl) {
        for (int attempt = 0; attempt < 3; ++attempt) {
            ERR_clear_error();
            const int r = SSL_shutdown(ssl);
            if (r >= 0 || SSL_get_error(ssl, r) != SSL_ERROR_WANT_WRITE) break;
            pollfd p[2] = {{fd_, POLLOUT, 0}, {stop_fd_, POLLIN, 0}};
            if (::poll(p, 2, 1000) <= 0 || p[1].revents) break;
        }
        ERR_clear_error();
    }

    const TlsListener::Options& options_;
    int stop_fd_, fd_;
    std::string ip_;
    int port_;
};

}  // namespace

void serve_tls_connection(int fd, const std::string& ip, int port,
                          const std::shared_ptr<SSL_CTX>& ctx, const TlsListener::Options& options,
                          int stop_fd) {
    TlsConnection(options, stop_fd, fd, ip, port).serve(ctx.get());
}

}  // namespace platform::host::tls
