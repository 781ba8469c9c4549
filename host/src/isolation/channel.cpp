#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <platform/host/isolation/worker_channel.hpp>
#include <thread>

namespace platform::host::worker {

using nlohmann::json;

Channel::Channel(int fd, MessageFn on_message, ClosedFn on_closed)
    : fd_(fd), on_message_(std::move(on_message)), on_closed_(std::move(on_closed)) {}

Channel::~Channel() {
    if (fd_ >= 0) ::close(fd_);
}

void Channel::start() {
    std::thread([self = shared_from_this()] { self->read_loop(); }).detach();
}

bool Channel::send(const json& message) {
    if (closed_) return false;
    std::string frame;
    try {
        frame = encode_frame(message);
    } catch (const std::exception&) {
        return false;
    }
    if (frame.size() - 4 > kMaxFrame) return false;
    std::lock_guard<std::mutex> g(write_m_);
    size_t off = 0;
    while (off < frame.size()) {
        ssize_t n = ::send(fd_, frame.data() + off, frame.size() - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::shutdown(fd_, SHUT_RDWR);  // the reader notices and finishes
            return false;
        }
        off += static_cast<size_t>(n);
    }
    return true;
}

std::optional<json> Channel::request(json message, int64_t timeout_ms) {
    const uint64_t id = next_id_.fetch_add(1);
    message["id"] = id;
    auto p = std::make_shared<Pending>();
    {
        std::lock_guard<std::mutex> g(m_);
        if (closed_) return std::nullopt;
        pending_[id] = p;
    }
    if (!send(message)) {
        std::lock_guard<std::mutex> g(m_);
        pending_.erase(id);
        return std::nullopt;
    }
    std::unique_lock<std::mutex> lock(m_);
    auto ready = [&] { return p->done; };
    if (timeout_ms < 0)
        cv_.wait(lock, ready);
    else if (!cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), ready)) {
        pending_.erase(id);
        return std::nullopt;
    }
    return std::move(p->reply);
}

bool Channel::reply(const json& request, json answer) {
    auto id = request.find("id");
    if (id == request.end()) return false;
    answer["re"] = *id;
    if (!answer.contains("code")) answer["code"] = 0;
    return send(answer);
}

void Channel::close(const std::string& why) {
    {
        std::lock_guard<std::mutex> g(m_);
        if (close_reason_.empty()) close_reason_ = why;
    }
    ::shutdown(fd_, SHUT_RDWR);
}

void Channel::read_loop() {
    FrameDecoder decoder;
    char buf[64 * 1024];
    std::string why = "the peer closed the connection";
    for (;;) {
        ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (!decoder.feed(buf, static_cast<size_t>(n))) {
            why = "protocol error: " + decoder.error();
            break;
        }
        bool stop = false;
        while (auto message = decoder.next()) {
            auto re = message->find("re");
            if (re != message->end()) {
                if (!re->is_number_unsigned()) {
                    why = "protocol error: bad reply id";
                    stop = true;
                    break;
                }
                std::lock_guard<std::mutex> g(m_);
                auto it = pending_.find(re->get<uint64_t>());
                if (it != pending_.end()) {
                    it->second->reply = std::move(*message);
                    it->second->done = true;
                    pending_.erase(it);
                    cv_.notify_all();
                }
                continue;
            }
            if (!message->contains("op") || !(*message)["op"].is_string()) {
                why = "protocol error: message without op";
                stop = true;
                break;
            }
            if (on_message_) on_message_(std::move(*message));
        }
        if (stop) break;
    }
    finish(why);
}

void Channel::finish(const std::string& why) {
    std::string reason;
    {
        std::lock_guard<std::mutex> g(m_);
        closed_ = true;
        for (auto& [id, p] : pending_) p->done = true;
        pending_.clear();
        cv_.notify_all();
        reason = close_reason_.empty() ? why : close_reason_;
    }
    ::shutdown(fd_, SHUT_RDWR);
    if (on_closed_) on_closed_(reason);
    on_message_ = nullptr;  // break reference cycles through captured owners
    on_closed_ = nullptr;
}

}  // namespace platform::host::worker
