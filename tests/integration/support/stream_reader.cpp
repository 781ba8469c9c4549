#include "stream_reader.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <sstream>
#include <stdexcept>

namespace platform::test {

namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Whether `in` (head and what came of the body) holds a whole answer.
bool complete(const std::string& in) {
    const size_t head_end = in.find("\r\n\r\n");
    if (head_end == std::string::npos) return false;
    const std::string head = in.substr(0, head_end), head_lower = lower(head);
    // A Content-Length answer is complete once its body is in (the server may keep the socket).
    if (size_t cl = head_lower.find("content-length:"); cl != std::string::npos)
        return in.size() - head_end - 4 >= std::stoul(head.substr(cl + 15));
    // A chunked answer is complete at its last (empty) chunk.
    return head_lower.find("transfer-encoding: chunked") != std::string::npos &&
           (in.compare(head_end + 4, std::string::npos, "0\r\n\r\n") == 0 ||
            (in.size() >= 7 && in.compare(in.size() - 7, 7, "\r\n0\r\n\r\n") == 0));
}

std::string dechunk(const std::string& body) {
    std::string out;
    size_t pos = 0;
    while (pos < body.size()) {
        size_t eol = body.find("\r\n", pos);
        if (eol == std::string::npos) break;
        size_t len = std::stoul(body.substr(pos, eol - pos), nullptr, 16);
        if (len == 0) break;
        out += body.substr(eol + 2, len);
        pos = eol + 2 + len + 2;
    }
    return out;
}

}  // namespace

RawAnswer raw_get(int port, const std::string& target, const Headers& headers, int timeout_ms) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        throw std::runtime_error("connect failed");
    }
    std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    for (const auto& [name, value] : headers) req += name + ": " + value + "\r\n";
    req += "\r\n";
    ::send(fd, req.data(), req.size(), MSG_NOSIGNAL);
    std::string in;
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    char buf[65536];
    while (!complete(in)) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                        end - std::chrono::steady_clock::now())
                        .count();
        if (left <= 0) break;
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left)) <= 0) break;
        ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        in.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    const size_t head_end = in.find("\r\n\r\n");
    if (head_end == std::string::npos) throw std::runtime_error("no HTTP response: " + in);
    RawAnswer r;
    r.headers = in.substr(0, head_end);
    r.status = std::stoi(r.headers.substr(9, 3));
    r.body = in.substr(head_end + 4);
    const std::string head_lower = lower(r.headers);
    if (head_lower.find("transfer-encoding: chunked") != std::string::npos)
        r.body = dechunk(r.body);
    else if (size_t cl = head_lower.find("content-length:"); cl != std::string::npos)
        r.body = r.body.substr(0, std::stoul(r.headers.substr(cl + 15)));
    return r;
}

std::vector<nlohmann::json> stream_chunks(const std::string& body) {
    std::vector<nlohmann::json> out;
    if (body.find("data:") != std::string::npos) {
        std::istringstream in(body);
        std::string line, data, event;
        auto flush = [&] {
            if (!data.empty()) {
                EXPECT_NE(event, "error") << data;
                if (event != "error") out.push_back(nlohmann::json::parse(data));
            }
            data.clear();
            event.clear();
        };
        while (std::getline(in, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.empty()) {
                flush();
            } else if (line.rfind("data:", 0) == 0) {
                std::string v = line.substr(5);
                if (!v.empty() && v[0] == ' ') v.erase(0, 1);
                data += (data.empty() ? "" : "\n") + v;
            } else if (line.rfind("event:", 0) == 0) {
                event = line.substr(6);
                if (!event.empty() && event[0] == ' ') event.erase(0, 1);
            }
        }
        flush();
        return out;
    }
    std::istringstream in(body);
    while ((in >> std::ws) && in.peek() != std::char_traits<char>::eof()) {
        nlohmann::json j;
        in >> j;
        if (j.is_array()) {
            for (auto& e : j) out.push_back(e);
        } else {
            out.push_back(j);
        }
    }
    return out;
}

std::vector<nlohmann::json> stream_messages(int port, const std::string& target,
                                            const std::string& token, int timeout_ms) {
    Headers headers = bearer(token);
    headers["Accept"] = "text/event-stream";
    RawAnswer r = raw_get(port, target, headers, timeout_ms);
    if (r.status != 200) throw std::runtime_error("status: " + r.headers);
    return stream_chunks(r.body);
}

}  // namespace platform::test
