#include "raw_websocket.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>

namespace platform::test {

int RawWebSocket::Frame::close_code() const {
    return payload.size() >= 2
               ? (static_cast<uint8_t>(payload[0]) << 8) | static_cast<uint8_t>(payload[1])
               : 0;
}

RawWebSocket::~RawWebSocket() {
    if (fd_ >= 0) ::close(fd_);
}

std::string RawWebSocket::open(int port, const std::string& target,
                               const std::string& extra_headers) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return "";
    send_all("GET " + target +
             " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
             "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
             extra_headers + "\r\n");
    while (buffer_.find("\r\n\r\n") == std::string::npos)
        if (!fill()) return buffer_;
    const size_t end = buffer_.find("\r\n\r\n") + 4;
    std::string head = buffer_.substr(0, end);
    buffer_.erase(0, end);
    return head;
}

void RawWebSocket::send_frame(int opcode, const std::string& payload, bool fin, bool masked) {
    std::string f(1, static_cast<char>((fin ? 0x80 : 0) | opcode));
    const char key[4] = {1, 2, 3, 4};
    const int mask_bit = masked ? 0x80 : 0;
    if (payload.size() < 126) {
        f.push_back(static_cast<char>(mask_bit | static_cast<int>(payload.size())));
    } else {
        f.push_back(static_cast<char>(mask_bit | 126));
        f.push_back(static_cast<char>(payload.size() >> 8));
        f.push_back(static_cast<char>(payload.size() & 0xFF));
    }
    if (masked) f.append(key, 4);
    for (size_t i = 0; i < payload.size(); ++i)
        f.push_back(masked ? static_cast<char>(payload[i] ^ key[i % 4]) : payload[i]);
    send_all(f);
}

RawWebSocket::Frame RawWebSocket::read_frame() {
    Frame out;
    while (buffer_.size() < 2)
        if (!fill()) return out;
    size_t len = static_cast<uint8_t>(buffer_[1]) & 0x7F, pos = 2;
    if (len == 126) {
        while (buffer_.size() < 4)
            if (!fill()) return out;
        len = (static_cast<uint8_t>(buffer_[2]) << 8) | static_cast<uint8_t>(buffer_[3]);
        pos = 4;
    }
    while (buffer_.size() < pos + len)
        if (!fill()) return out;
    out.opcode = static_cast<uint8_t>(buffer_[0]) & 0x0F;
    out.fin = static_cast<uint8_t>(buffer_[0]) & 0x80;
    out.payload = buffer_.substr(pos, len);
    buffer_.erase(0, pos + len);
    return out;
}

RawWebSocket::Frame RawWebSocket::read_data() {
    for (;;) {
        Frame f = read_frame();
        if (f.opcode != 0x9) return f;
        send_frame(0xA, f.payload);
    }
}

bool RawWebSocket::ended() {
    while (fill()) buffer_.clear();
    return eof_;
}

void RawWebSocket::send_all(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (n <= 0) return;
        done += static_cast<size_t>(n);
    }
}

bool RawWebSocket::fill() {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 15000) <= 0) return false;
    char buf[65536];
    ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    eof_ = n <= 0;
    if (n <= 0) return false;
    buffer_.append(buf, static_cast<size_t>(n));
    return true;
}

}  // namespace platform::test
