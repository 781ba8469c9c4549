#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>

#include "http_connection.hpp"
#include "taken_socket.hpp"

namespace platform::host::front {

namespace {

// Copies bytes both ways between a taken-over client connection and an upstream socket, from the
// upstream's 101 on, until either side ends. Like a WebSocket session it writes to a duplicate of
// the client's socket and gets what Pistache still reads until Pistache lets the peer go; it has
// no frames of its own, so close() just ends it.
class Relay : public WebSocket, public std::enable_shared_from_this<Relay> {
public:
    Relay(std::shared_ptr<Exchange> ex, int client, int upstream)
        : ex_(std::move(ex)), client_(client), upstream_(upstream) {}
    bool send_text(std::string_view) override { return false; }
    void close(uint16_t, std::string_view) override {
        ended_ = true;
        input_.wake();
    }
    HandedOverInput& input() { return input_; }
    // Writes all of `bytes` to `fd`; false when it is gone. Counts what the client was sent.
    bool send_all(int fd, std::string_view bytes) {
        return send_whole(fd, bytes, fd == client_ ? &sent_ : nullptr);
    }
    int client() const { return client_; }

    void run() {
        auto self = shared_from_this();
        char buf[16384];
        while (!ended_) {
            std::string from_pistache;
            const bool own = input_.take(from_pistache);
            if (!from_pistache.empty() && !send_all(upstream_, from_pistache)) break;
            pollfd fds[3] = {
                {input_.wake_fd(), POLLIN, 0}, {upstream_, POLLIN, 0}, {client_, POLLIN, 0}};
            ::poll(fds, own ? 3 : 2, -1);
            if (fds[1].revents && !copy(upstream_, client_, buf, sizeof buf)) break;
            if (own && fds[2].revents && !copy(client_, upstream_, buf, sizeof buf)) break;
        }
        end();
    }

private:
    // What `from` has, written to `to`; false when either ended.
    bool copy(int from, int to, char* buf, size_t size) {
        for (;;) {
            ssize_t n = ::recv(from, buf, size, MSG_DONTWAIT);
            if (n > 0) {
                if (!send_all(to, std::string_view(buf, static_cast<size_t>(n)))) return false;
                continue;
            }
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
        }
    }
    void end() {
        ::shutdown(client_, SHUT_RDWR);
        ::shutdown(upstream_, SHUT_RDWR);
        ::close(client_);
        ::close(upstream_);
        end_taken_over(ex_, sent_);
    }

    std::shared_ptr<Exchange> ex_;
    int client_, upstream_;
    HandedOverInput input_;
    std::atomic<bool> ended_{false};
    uint64_t sent_ = 0;
};

}  // namespace

RelayConnection relay_opener(const std::shared_ptr<Exchange>& ex) {
    return [ex](const std::string& head, int upstream, const std::string& early) -> bool {
        const auto& conn = ex->conn;
        ServerState& server = *conn->port->server;
        const StopGate::Pass alive(server.stop_gate);
        auto peer = conn->peer.lock();
        const int fd = !alive.open() || server.draining || ex->answered || !peer || peer->ssl()
                           ? -1
                           : ::fcntl(peer->fd(), F_DUPFD_CLOEXEC, 0);
        if (fd < 0 || ex->answered.exchange(true)) {
            if (fd >= 0) ::close(fd);
            ::close(upstream);
            return false;
        }
        auto relay = std::make_shared<Relay>(ex, fd, upstream);
        start_taken_over(
            ex, relay, std::shared_ptr<HandedOverInput>(relay, &relay->input()),
            [&] { relay->send_all(relay->client(), head + early); }, [relay] { relay->run(); });
        return true;
    };
}

}  // namespace platform::host::front
