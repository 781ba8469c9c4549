#include "tls_pump.hpp"

#include <openssl/err.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <utility>

namespace platform::host::tls {

namespace {

constexpr size_t kBufferCap = 64 * 1024;  // bytes held per direction before reading stops

// The state of pump(): what is buffered each way and which side ended.
class Pump {
public:
    Pump(SSL* ssl, int cfd, int bfd, int stop_fd, std::string up)
        : ssl_(ssl), cfd_(cfd), bfd_(bfd), stop_fd_(stop_fd), up_(std::move(up)) {}

    PumpEnd run() {
        for (;;) {
            for (progress_ = true; progress_;) {
                progress_ = false;
                cev_ = bev_ = 0;
                if (!client_eof_ && !backend_eof_ && up_.size() - up_off_ < kBufferCap &&
                    !read_client())
                    return PumpEnd::failed;  // gone without close_notify, or a TLS error
                if (!backend_eof_ && up_off_ < up_.size()) send_backend();
                if (!backend_eof_ && down_.size() - down_off_ < kBufferCap) recv_backend();
                if (down_off_ < down_.size() && !write_client())
                    return PumpEnd::failed;  // the client is gone
            }
            if (backend_eof_ && down_.empty()) return PumpEnd::backend;
            if (client_eof_ && up_.empty() && !backend_eof_) return PumpEnd::client;
            // A side we wait nothing from is left out: its POLLHUP would wake us in a loop.
            pollfd p[3] = {
                {cev_ ? cfd_ : -1, cev_, 0}, {bev_ ? bfd_ : -1, bev_, 0}, {stop_fd_, POLLIN, 0}};
            if (::poll(p, 3, -1) < 0 && errno != EINTR) return PumpEnd::failed;
            if (p[2].revents) return PumpEnd::stopped;
        }
    }

private:
    // Each step below does what it can without blocking: it sets progress_ when it moved bytes
    // (or saw an end), and adds what it waits for to cev_ (client) or bev_ (backend).

    // After a TLS read or write that moved nothing: true, with what the client must become
    // ready for added to its poll events, when OpenSSL only waits (either call may need either).
    bool waits(int ssl_error) {
        if (ssl_error == SSL_ERROR_WANT_READ) cev_ |= POLLIN;
        if (ssl_error == SSL_ERROR_WANT_WRITE) cev_ |= POLLOUT;
        return ssl_error == SSL_ERROR_WANT_READ || ssl_error == SSL_ERROR_WANT_WRITE;
    }

    // Client to `up`. False when the client failed.
    bool read_client() {
        ERR_clear_error();
        const int n = SSL_read(ssl_, buf_, sizeof buf_);
        if (n > 0) {
            up_.append(buf_, static_cast<size_t>(n));
            progress_ = true;
            return true;
        }
        const int error = SSL_get_error(ssl_, n);
        if (waits(error)) return true;
        if (error != SSL_ERROR_ZERO_RETURN) return false;
        client_eof_ = progress_ = true;  // close_notify
        return true;
    }

    // `up` to the backend.
    void send_backend() {
        const ssize_t n = ::send(bfd_, up_.data() + up_off_, up_.size() - up_off_, MSG_NOSIGNAL);
        if (n > 0) {
            up_off_ += static_cast<size_t>(n);
            if (up_off_ == up_.size()) up_.clear(), up_off_ = 0;
            progress_ = true;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            bev_ |= POLLOUT;
        } else if (n < 0 && errno == EINTR) {
            progress_ = true;
        } else {  // the backend closed: what it sent still goes to the client
            backend_eof_ = progress_ = true;
        }
    }

    // The backend to `down`.
    void recv_backend() {
        const ssize_t n = ::recv(bfd_, buf_, sizeof buf_, 0);
        if (n > 0) {
            down_.append(buf_, static_cast<size_t>(n));
            progress_ = true;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            bev_ |= POLLIN;
        } else if (n < 0 && errno == EINTR) {
            progress_ = true;
        } else {
            backend_eof_ = progress_ = true;
        }
    }

    // `down` to the client. False when the client is gone.
    bool write_client() {
        ERR_clear_error();
        const int want = static_cast<int>(std::min<size_t>(down_.size() - down_off_, 1 << 20));
        const int n = SSL_write(ssl_, down_.data() + down_off_, want);
        if (n > 0) {
            down_off_ += static_cast<size_t>(n);
            if (down_off_ == down_.size()) down_.clear(), down_off_ = 0;
            progress_ = true;
            return true;
        }
        return waits(SSL_get_error(ssl_, n));
    }

    SSL* ssl_;
    int cfd_, bfd_, stop_fd_;
    std::string up_, down_;
    size_t up_off_ = 0, down_off_ = 0;
    bool client_eof_ = false, backend_eof_ = false;
    bool progress_ = false;
    short cev_ = 0, bev_ = 0;
    char buf_[16 * 1024];
};

}  // namespace

PumpEnd pump(SSL* ssl, int client_fd, int backend_fd, int stop_fd, std::string up) {
    return Pump(ssl, client_fd, backend_fd, stop_fd, std::move(up)).run();
}

}  // namespace platform::host::tls
