#include "http_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <utility>

namespace platform::test {

nlohmann::json HttpResult::json() const {
    return nlohmann::json::parse(body);
}

std::string HttpResult::header(const std::string& lower) const {
    auto it = headers.find(lower);
    return it == headers.end() ? "" : it->second;
}

std::vector<std::string> HttpResult::header_values(const std::string& lower) const {
    std::vector<std::string> out;
    for (const auto& [name, value] : header_lines)
        if (name == lower) out.push_back(value);
    return out;
}

HttpClient::HttpClient(std::string host, int port) : host_(std::move(host)), port_(port) {}
HttpClient::~HttpClient() {
    close_socket();
}

void HttpClient::close_socket() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    buffer_.clear();
}

void HttpClient::ensure_connected() {
    if (fd_ >= 0) return;
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    inet_pton(AF_INET, host_.c_str(), &addr.sin_addr);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        close_socket();
        throw std::runtime_error("connect to " + host_ + ":" + std::to_string(port_) + " failed");
    }
    int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ++connects_;
}

void HttpClient::send_raw(const std::string& bytes) {
    ensure_connected();
    size_t sent = 0;
    while (sent < bytes.size()) {
        ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) throw std::runtime_error("send failed");
        sent += static_cast<size_t>(n);
    }
}

bool HttpClient::connection_closed() {
    if (fd_ < 0) return true;
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 2000) <= 0) return false;
    char c;
    return recv(fd_, &c, 1, MSG_PEEK) == 0;
}

HttpResult HttpClient::read_response() {
    auto fill = [&] {
        pollfd p{fd_, POLLIN, 0};
        if (poll(&p, 1, timeout_ms_) <= 0)
            throw std::runtime_error("timed out waiting for a response");
        char buf[65536];
        ssize_t n = recv(fd_, buf, sizeof buf, 0);
        if (n <= 0) throw std::runtime_error("connection closed before a full response");
        buffer_.append(buf, static_cast<size_t>(n));
    };
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) fill();
    HttpResult r;
    std::string head = buffer_.substr(0, end);
    size_t line_end = head.find("\r\n");
    std::string status_line = head.substr(0, line_end);
    r.status = std::stoi(status_line.substr(status_line.find(' ') + 1, 3));
    size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
    while (pos < head.size()) {
        size_t next = head.find("\r\n", pos);
        if (next == std::string::npos) next = head.size();
        std::string line = head.substr(pos, next - pos);
        size_t colon = line.find(':');
        if (colon != std::string::npos) {
            std::string name = line.substr(0, colon);
            for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            std::string value = line.substr(colon + 1);
            value.erase(0, value.find_first_not_of(' '));
            r.header_lines.emplace_back(name, value);
            r.headers.emplace(name, std::move(value));
        }
        pos = next + 2;
    }
    buffer_.erase(0, end + 4);
    if (r.header("transfer-encoding") == "chunked") {  // size line, data, CRLF ... 0 CRLF CRLF
        for (;;) {
            size_t line;
            while ((line = buffer_.find("\r\n")) == std::string::npos) fill();
            size_t size = std::stoul(buffer_.substr(0, line), nullptr, 16);
            while (buffer_.size() < line + 2 + size + 2) fill();
            r.body += buffer_.substr(line + 2, size);
            buffer_.erase(0, line + 2 + size + 2);
            if (size == 0) return r;
        }
    }
    size_t length = r.headers.count("content-length") ? std::stoul(r.headers["content-length"]) : 0;
    while (buffer_.size() < length) fill();
    r.body = buffer_.substr(0, length);
    buffer_.erase(0, length);
    return r;
}

std::string HttpClient::read_some() {
    if (!buffer_.empty()) return std::exchange(buffer_, std::string());
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 30000) <= 0) throw std::runtime_error("timed out waiting for bytes");
    char buf[4096];
    ssize_t n = recv(fd_, buf, sizeof buf, 0);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

HttpResult HttpClient::request(const std::string& method, const std::string& target,
                               const std::string& body,
                               const std::map<std::string, std::string>& headers) {
    // The caller's Host replaces the default one: two Host fields are a 400 (decision 77).
    bool own_host = false;
    for (auto& [k, v] : headers) own_host = own_host || strcasecmp(k.c_str(), "host") == 0;
    std::string req = method + " " + target + " HTTP/1.1\r\n";
    if (!own_host) req += "Host: " + host_ + ":" + std::to_string(port_) + "\r\n";
    for (auto& [k, v] : headers) req += k + ": " + v + "\r\n";
    if (!body.empty() || method == "POST")
        req += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    req += "\r\n" + body;
    if (reconnect_ && fd_ >= 0 && buffer_.empty()) {
        pollfd p{fd_, POLLIN, 0};
        char c;
        if (poll(&p, 1, 0) > 0 && recv(fd_, &c, 1, MSG_PEEK) == 0) close_socket();
    }
    send_raw(req);
    HttpResult r = read_response();
    if (r.header("connection") == "Close" || r.header("connection") == "close") close_socket();
    return r;
}

HttpResult HttpClient::get(const std::string& target,
                           const std::map<std::string, std::string>& headers) {
    return request("GET", target, "", headers);
}

HttpResult HttpClient::post(const std::string& target, const std::string& body,
                            const std::map<std::string, std::string>& headers) {
    return request("POST", target, body, headers);
}

HttpResult HttpClient::post_json(const std::string& target, const nlohmann::json& body,
                                 const std::map<std::string, std::string>& headers) {
    auto h = headers;
    h["Content-Type"] = "application/json";
    return request("POST", target, body.dump(), h);
}

}  // namespace platform::test
