#include <fcntl.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <platform/host/http/websocket_frames.hpp>
#include <thread>

#include "http_connection.hpp"
#include "taken_socket.hpp"

namespace platform::host::front {

namespace {

namespace ws = websocket;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kCloseWait{5000};  // for the client's answer to our close

// One WebSocket session on a taken-over connection. Writes go to a duplicate of the socket under
// write_m_ (as SocketStream's). Reads: until Pistache lets the peer go, what it reads arrives in
// deliver(); after that the session's thread polls the duplicate itself. All frame handling runs
// on that thread.
class Session : public WebSocket, public std::enable_shared_from_this<Session> {
public:
    Session(std::shared_ptr<Exchange> ex, int fd, WebSocketEvents events)
        : ex_(std::move(ex)),
          fd_(fd),
          reader_(static_cast<size_t>(settings().websocket_max_message_bytes)),
          idle_(settings().websocket_idle_ms),
          events_(std::move(events)) {}
    bool send_text(std::string_view message) override {
        std::lock_guard<std::mutex> g(write_m_);
        return !close_sent_ && send_all(ws::server_frame(ws::Opcode::text, message));
    }
    void close(uint16_t code, std::string_view reason) override {
        {
            std::lock_guard<std::mutex> g(write_m_);
            if (close_sent_) return;
            send_all(ws::close_frame(code, reason));
            close_sent_ = true;
        }
        input_.wake();
    }
    bool write_raw(std::string_view bytes) {
        std::lock_guard<std::mutex> g(write_m_);
        return send_all(bytes);
    }

    // Bytes Pistache read from the connection, then the socket itself once Pistache let it go.
    HandedOverInput& input() { return input_; }

    void run() {
        auto self = shared_from_this();
        Clock::time_point last_heard = Clock::now(), ping_at{}, closing_since{};
        bool ping_out = false, eof = false;
        while (!ended_ && !eof) {
            const auto now = Clock::now();
            bool closing;
            {
                std::lock_guard<std::mutex> g(write_m_);
                closing = close_sent_;
            }
            if (closing && closing_since == Clock::time_point{}) closing_since = now;
            Clock::time_point due = ping_out ? ping_at + idle_ : last_heard + idle_;
            if (closing) due = closing_since + kCloseWait;
            if (now >= due) {
                if (closing) break;  // the client never answered our close
                if (ping_out) {
                    close(ws::kGoingAway,
                          "no pong within " + std::to_string(idle_.count() / 1000) + " s");
                    break;
                }
                write_raw(ws::server_frame(ws::Opcode::ping, ""));
                ping_out = true;
                ping_at = now;
                continue;
            }
            std::string bytes;
            bool own = input_.take(bytes);
            pollfd fds[2] = {{input_.wake_fd(), POLLIN, 0}, {fd_, POLLIN, 0}};
            const auto wait = std::chrono::duration_cast<milliseconds>(due - now).count() + 1;
            if (bytes.empty()) ::poll(fds, own ? 2 : 1, static_cast<int>(wait));
            own = input_.take(bytes);
            if (own && fds[1].revents) eof = !read_socket(bytes);
            if (bytes.empty()) continue;
            last_heard = Clock::now();
            ping_out = false;  // anything from the client shows it is alive
            for (auto& e : reader_.feed(bytes)) handle(e);
        }
        end();
    }

private:
    const Settings& settings() const { return ex_->conn->port->runtime->settings(); }
    // Reads what the socket has; false at its end.
    bool read_socket(std::string& out) {
        char buf[16384];
        for (;;) {
            ssize_t n = ::recv(fd_, buf, sizeof buf, MSG_DONTWAIT);
            if (n > 0) {
                out.append(buf, static_cast<size_t>(n));
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return true;
            return false;
        }
    }

    void handle(const ws::Event& e) {
        using Kind = ws::Event::Kind;
        switch (e.kind) {
            case Kind::message:
                if (e.type != ws::Opcode::text)
                    return close(ws::kUnsupportedData, "only text messages are accepted");
                if (events_.on_text) events_.on_text(e.payload);
                return;
            case Kind::ping:
                write_raw(ws::server_frame(ws::Opcode::pong, e.payload));
                return;
            case Kind::pong:
                return;
            case Kind::close: {
                std::lock_guard<std::mutex> g(write_m_);
                if (!close_sent_)  // echo the client's code (none when it gave none)
                    send_all(e.code == ws::kNoStatus ? ws::server_frame(ws::Opcode::close, "")
                                                     : ws::close_frame(e.code, ""));
                close_sent_ = true;
                ended_ = true;
                return;
            }
            case Kind::error:
                close(e.code, e.payload);
                ended_ = true;
                return;
        }
    }

    void end() {
        ended_ = true;
        {
            std::lock_guard<std::mutex> g(write_m_);
            close_sent_ = true;
            ::shutdown(fd_, SHUT_RDWR);  // Pistache, if it still reads, sees the end too
            ::close(fd_);
            fd_ = -1;
            write_closed_ = true;
        }
        if (events_.on_closed) events_.on_closed();
        events_ = {};
        end_taken_over(ex_, sent_);
    }

    bool send_all(std::string_view bytes) {  // with write_m_ held
        if (!write_closed_ && !send_whole(fd_, bytes, &sent_)) write_closed_ = true;
        return !write_closed_;
    }

    std::shared_ptr<Exchange> ex_;
    int fd_;
    HandedOverInput input_;
    ws::FrameReader reader_;
    milliseconds idle_;
    WebSocketEvents events_;
    std::mutex write_m_;
    bool close_sent_ = false, write_closed_ = false;
    uint64_t sent_ = 0;
    std::atomic<bool> ended_{false};
};

}  // namespace

OpenWebSocket websocket_opener(const std::shared_ptr<Exchange>& ex) {
    return [ex](const std::string& key, const HeaderList& extra,
                WebSocketEvents events) -> std::shared_ptr<WebSocket> {
        const auto& conn = ex->conn;
        ServerState& server = *conn->port->server;
        const StopGate::Pass alive(server.stop_gate);
        if (!alive.open() || server.draining || ex->answered) return nullptr;
        auto peer = conn->peer.lock();
        if (!peer || peer->ssl()) return nullptr;
        const int fd = ::fcntl(peer->fd(), F_DUPFD_CLOEXEC, 0);
        if (fd < 0) return nullptr;
        if (ex->answered.exchange(true)) {
            ::close(fd);
            return nullptr;
        }
        HeaderList headers = extra;
        common_headers(*ex, headers);
        std::string head =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: "
            "Upgrade\r\nSec-WebSocket-Accept: " +
            websocket::accept_key(key) + "\r\n";
        for (auto& [k, v] : headers) head += k + ": " + v + "\r\n";
        head += "\r\n";
        auto session = std::make_shared<Session>(ex, fd, std::move(events));
        start_taken_over(
            ex, session, std::shared_ptr<HandedOverInput>(session, &session->input()),
            [&] { session->write_raw(head); }, [session] { session->run(); });
        return session;
    };
}

void close_websockets(ServerState& server, uint16_t code, const std::string& reason) {
    std::vector<std::shared_ptr<WebSocket>> open;
    {
        std::lock_guard<std::mutex> g(server.websockets_m);
        for (auto& w : server.websockets)
            if (auto s = w.lock()) open.push_back(std::move(s));
        server.websockets.clear();
    }
    for (auto& s : open) s->close(code, reason);
}

void end_websockets(ServerState& server, std::chrono::milliseconds timeout) {
    close_websockets(server, websocket::kGoingAway, "the server is shutting down");
    std::unique_lock<std::mutex> g(server.websockets_m);
    server.websockets_cv.wait_for(g, timeout, [&] { return server.websocket_threads == 0; });
}

}  // namespace platform::host::front
