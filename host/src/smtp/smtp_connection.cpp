#include "smtp_connection.hpp"

#include <openssl/err.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <platform/host/acme/openssl_handles.hpp>
#include <platform/host/http/tls_context.hpp>

namespace platform::host::smtp {

namespace {

using Clock = std::chrono::steady_clock;
using SslPtr = openssl::Owned<SSL, SSL_free>;

class Connection {
public:
    Connection(int fd, int stop_fd, std::string peer, int64_t timeout_ms)
        : fd_(fd), stop_fd_(stop_fd), peer_(std::move(peer)), timeout_ms_(timeout_ms) {}

    // Writes all of `text`; false when the peer is gone or too slow.
    bool write(const std::string& text) {
        std::size_t done = 0;
        const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms_);
        while (done < text.size()) {
            ssize_t n;
            short wait = POLLOUT;
            if (ssl_) {
                const int r =
                    SSL_write(ssl_.get(), text.data() + done,
                              static_cast<int>(std::min<std::size_t>(text.size() - done, INT_MAX)));
                n = r;
                if (r <= 0) {
                    const int e = SSL_get_error(ssl_.get(), r);
                    if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) return false;
                    wait = e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
                }
            } else {
                n = ::send(fd_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
                if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                    return false;
            }
            if (n > 0) {
                done += static_cast<std::size_t>(n);
                continue;
            }
            if (!await(wait, deadline)) return false;
        }
        return true;
    }

    // The next line without its line end, cut at kMaxLineRead (`overlong` then); nullopt when
    // the peer closed, timed out or the listener stops (`timed_out` says which).
    std::optional<std::string> line(bool& overlong, bool& timed_out) {
        overlong = timed_out = false;
        const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms_);
        for (;;) {
            const std::size_t lf = buf_.find('\n');
            if (lf != std::string::npos) {
                std::string out = overlong ? std::string() : buf_.substr(0, lf);
                buf_.erase(0, lf + 1);
                if (!out.empty() && out.back() == '\r') out.pop_back();
                return out;
            }
            if (buf_.size() > kMaxLineRead) {
                overlong = true;
                buf_.clear();
            }
            const int got = fill(deadline);
            if (got == 0) return std::nullopt;
            if (got < 0) {
                timed_out = true;
                return std::nullopt;
            }
        }
    }

    // The TLS handshake on this socket; bytes read before it are dropped (RFC 3207 §6).
    bool start_tls(SSL_CTX* ctx) {
        buf_.clear();
        ssl_.reset(SSL_new(ctx));
        if (!ssl_ || SSL_set_fd(ssl_.get(), fd_) != 1) return false;
        SSL_set_accept_state(ssl_.get());
        const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms_);
        for (;;) {
            const int r = SSL_accept(ssl_.get());
            if (r == 1) return true;
            const int e = SSL_get_error(ssl_.get(), r);
            if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) {
                spdlog::debug("smtp: TLS handshake with {} failed: {}", peer_,
                              tls::openssl_error("handshake failed"));
                return false;
            }
            if (!await(e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline)) return false;
        }
    }

    ~Connection() {
        if (ssl_) SSL_shutdown(ssl_.get());
        ERR_clear_error();
        ::close(fd_);
    }

private:
    // Waits for `events` on the socket; false at the deadline (timed_out_ set) or when the
    // listener stops.
    bool await(short events, Clock::time_point deadline) {
        for (;;) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())
                    .count();
            if (left <= 0) return !(timed_out_ = true);
            pollfd p[2] = {{fd_, events, 0}, {stop_fd_, POLLIN, 0}};
            const int r = ::poll(p, 2, static_cast<int>(std::min<int64_t>(left, INT_MAX)));
            if (r < 0 && errno == EINTR) continue;
            if (r == 0) return !(timed_out_ = true);
            return r > 0 && !p[1].revents;
        }
    }

    // Reads more into buf_: > 0 bytes read, 0 closed (or stopping), -1 timed out.
    int fill(Clock::time_point deadline) {
        char chunk[4096];
        for (;;) {
            short wait = POLLIN;
            if (ssl_) {
                const int r = SSL_read(ssl_.get(), chunk, sizeof chunk);
                if (r > 0) return buf_.append(chunk, static_cast<std::size_t>(r)), r;
                const int e = SSL_get_error(ssl_.get(), r);
                if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) return 0;
                wait = e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
            } else {
                const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
                if (n > 0)
                    return buf_.append(chunk, static_cast<std::size_t>(n)), static_cast<int>(n);
                if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return 0;
            }
            if (!await(wait, deadline)) return timed_out_ ? -1 : 0;
        }
    }

    int fd_, stop_fd_;
    std::string peer_;
    int64_t timeout_ms_;
    SslPtr ssl_;
    std::string buf_;
    bool timed_out_ = false;
};

}  // namespace

void serve_connection(int fd, int stop_fd, const std::string& peer, std::shared_ptr<SSL_CTX> tls,
                      Dialogue& dialogue, int64_t read_timeout_ms) {
    Connection c(fd, stop_fd, peer, read_timeout_ms);
    if (!c.write(dialogue.greeting().wire())) return;
    for (;;) {
        bool overlong = false, timed_out = false;
        auto text = c.line(overlong, timed_out);
        if (!text) {
            if (timed_out) c.write("421 4.4.2 timeout, closing\r\n");
            return;
        }
        auto reply = dialogue.line(*text, overlong);
        if (!reply) continue;
        if (!c.write(reply->wire()) || reply->close) return;
        if (reply->start_tls) {
            if (!tls || !c.start_tls(tls.get())) return;
            dialogue.tls_started();
        }
    }
}

}  // namespace platform::host::smtp
