#include "taken_socket.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>

namespace platform::host::front {

bool send_whole(int fd, std::string_view bytes, uint64_t* written) {
    while (!bytes.empty()) {
        ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            bytes.remove_prefix(static_cast<size_t>(n));
            if (written) *written += static_cast<uint64_t>(n);
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            pollfd p{fd, POLLOUT, 0};
            if (::poll(&p, 1, 30000) <= 0 || (p.revents & (POLLERR | POLLHUP))) return false;
        } else {
            return false;  // the peer went away
        }
    }
    return true;
}

HandedOverInput::HandedOverInput() : wake_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

HandedOverInput::~HandedOverInput() {
    if (wake_ >= 0) ::close(wake_);
}

void HandedOverInput::deliver(std::string_view bytes) {
    {
        std::lock_guard<std::mutex> g(m_);
        inbox_.append(bytes);
    }
    wake();
}

void HandedOverInput::own_reading() {
    {
        std::lock_guard<std::mutex> g(m_);
        own_ = true;
    }
    wake();
}

void HandedOverInput::wake() {
    uint64_t one = 1;
    (void)!::write(wake_, &one, sizeof one);
}

bool HandedOverInput::take(std::string& bytes) {
    uint64_t n;
    (void)!::read(wake_, &n, sizeof n);
    std::lock_guard<std::mutex> g(m_);
    bytes.append(inbox_);
    inbox_.clear();
    return own_;
}

void start_taken_over(const std::shared_ptr<Exchange>& ex,
                      const std::shared_ptr<WebSocket>& session,
                      const std::shared_ptr<HandedOverInput>& input,
                      const std::function<void()>& send_head, std::function<void()> run) {
    const auto& conn = ex->conn;
    ServerState& server = *conn->port->server;
    {
        std::lock_guard<std::mutex> g(server.websockets_m);
        auto& open = server.websockets;
        open.erase(
            std::remove_if(open.begin(), open.end(), [](const auto& w) { return w.expired(); }),
            open.end());
        open.push_back(session);
        ++server.websocket_threads;
    }
    std::string early;  // bytes the client sent after its request, read before this
    std::weak_ptr<HandedOverInput> weak = input;
    {
        std::lock_guard<std::mutex> g(conn->m);
        conn->input_closed = true;
        early.swap(conn->buffer);
        conn->upgraded = [weak](std::string_view bytes) {
            if (auto in = weak.lock()) in->deliver(bytes);
        };
    }
    send_head();
    if (!early.empty()) input->deliver(early);
    if (auto life = conn->peer_life.lock()) {
        std::lock_guard<std::mutex> g(life->m);
        life->on_release = [weak] {
            if (auto in = weak.lock()) in->own_reading();
        };
    } else {
        input->own_reading();
    }
    std::thread(std::move(run)).detach();
}

void end_taken_over(const std::shared_ptr<Exchange>& ex, uint64_t sent) {
    record(*ex, 101, sent);
    finish(ex->conn, ex->token, false, true);
    ServerState& server = *ex->conn->port->server;
    std::lock_guard<std::mutex> g(server.websockets_m);
    --server.websocket_threads;
    server.websockets_cv.notify_all();
}

}  // namespace platform::host::front
