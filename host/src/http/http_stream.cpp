#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <functional>

#include "http_connection.hpp"
#include "http_wire.hpp"
#include "taken_socket.hpp"

namespace platform::host::front {

namespace {

using wire::reason;

// A chunked response written straight to the connection's socket. Pistache 0.0.5's transport
// aborts ("could not find write data") when several writes for one connection are queued from
// another thread, as a stream's chunks are; so a stream bypasses it: status line, headers and
// chunks go out with send(2) under this object's lock (waiting with poll while the socket is
// full), and Pistache never writes this response. The connection stays Pistache's for the next
// request (dispatched by `done` once the last chunk is out). Not for TLS connections.
// The stream writes to its own duplicate of the socket's descriptor, closed when it ends: Pistache
// closes its descriptor when it drops the connection (its idle check runs during a stream too), and
// the number may at once name another client's new connection. So a stream outlives that drop and
// ends as it should; the connection then closes with it.
class SocketStream : public HttpStream {
public:
    using Done = std::function<void(uint64_t body_bytes, bool ok)>;
    SocketStream(int owned_fd, Done done) : fd_(owned_fd), done_(std::move(done)) {}
    ~SocketStream() override { end(); }
    bool start(const std::string& head) {
        std::lock_guard<std::mutex> g(m_);
        return send_all(head);
    }
    bool write(std::string_view bytes) override {
        if (bytes.empty()) return true;
        char size[32];
        int n = std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
        std::lock_guard<std::mutex> g(m_);
        if (ended_) return false;
        bool ok = send_all(std::string_view(size, static_cast<size_t>(n))) && send_all(bytes) &&
                  send_all("\r\n");
        if (ok) body_bytes_ += bytes.size();
        return ok;
    }
    void end() override {
        Done done;
        uint64_t bytes = 0;
        bool ok = false;
        {
            std::lock_guard<std::mutex> g(m_);
            if (ended_) return;
            ended_ = true;
            if (!closed_) send_all("0\r\n\r\n");
            ok = !closed_;
            bytes = body_bytes_;
            done = std::move(done_);
        }
        if (done) done(bytes, ok);
        ::close(fd_);
    }

private:
    bool send_all(std::string_view bytes) {
        if (!closed_ && !send_whole(fd_, bytes)) closed_ = true;  // the client went away
        return !closed_;
    }
    std::mutex m_;
    int fd_;
    Done done_;
    uint64_t body_bytes_ = 0;
    bool closed_ = false, ended_ = false;
};

}  // namespace

OpenStream stream_opener(const std::shared_ptr<Exchange>& ex) {
    return [ex](int status, const std::string& type,
                const HeaderList& extra) -> std::shared_ptr<HttpStream> {
        const auto& conn = ex->conn;
        ServerState& server = *conn->port->server;
        const StopGate::Pass alive(server.stop_gate);
        if (!alive.open() || ex->answered) return nullptr;
        auto peer = conn->peer.lock();
        if (!peer || peer->ssl()) return nullptr;  // the gateway then answers through `reply`
        const int fd = ::fcntl(peer->fd(), F_DUPFD_CLOEXEC, 0);
        if (fd < 0) return nullptr;
        if (ex->answered.exchange(true)) {
            ::close(fd);
            return nullptr;
        }
        const bool close = ex->close || server.draining;
        HeaderList headers = extra;
        common_headers(*ex, headers);
        std::string head =
            "HTTP/1.1 " + std::to_string(status) + " " + reason(status) +
            "\r\nContent-Type: " + type +
            "\r\nTransfer-Encoding: chunked\r\nConnection: " + (close ? "Close" : "Keep-Alive") +
            "\r\n";
        for (auto& [k, v] : headers) head += k + ": " + v + "\r\n";
        head += "\r\n";
        auto stream =
            std::make_shared<SocketStream>(fd, [ex, status, close](uint64_t bytes, bool ok) {
                record(*ex, status, bytes);
                finish(ex->conn, ex->token, ok, close);
            });
        if (!stream->start(head)) {
            stream->end();
            return nullptr;
        }
        return stream;
    };
}

}  // namespace platform::host::front
