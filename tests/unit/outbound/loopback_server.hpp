// loopback_server.hpp — a tiny HTTP/1.1 server on 127.0.0.1 for outbound tests (header-only).
//
//   LoopbackServer server([](const LoopbackServer::Request& r) {
//       return LoopbackServer::reply(200, "hello", {{"X-Test", "yes"}});
//   });
//   ... "http://127.0.0.1:" + std::to_string(server.port()) + "/hello"
//
// One thread per connection, one request per connection (Connection: close). A handler that
// returns an empty string never answers (the connection hangs until the server is destroyed), for
// timeout tests. Every request is recorded. Bounded: the destructor stops and joins everything.
// Keep-alive mode (LoopbackServer(handler, LoopbackServer::kKeepAlive)): a connection serves
// requests until the client closes it, the handler's answers made with reply(..., keep_alive =
// true); connections() counts the connections accepted, for tests of connection reuse.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace platform::test {

class LoopbackServer {
public:
    struct Request {
        std::string method, target, body;
        std::map<std::string, std::string> headers;  // lower-case names
        std::string header(const std::string& lower) const {
            auto it = headers.find(lower);
            return it == headers.end() ? "" : it->second;
        }
    };
    using Handler = std::function<std::string(const Request&)>;

    static constexpr bool kKeepAlive = true;

    explicit LoopbackServer(Handler handler, bool keep_alive = false)
        : handler_(std::move(handler)), keep_alive_(keep_alive) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = 0;
        if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 64) != 0)
            throw std::runtime_error("loopback server: bind/listen failed");
        socklen_t len = sizeof a;
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
        port_ = ntohs(a.sin_port);
        acceptor_ = std::thread([this] { accept_loop(); });
    }

    ~LoopbackServer() {
        stop_ = true;
        acceptor_.join();
        std::vector<std::thread> workers;
        {
            std::lock_guard<std::mutex> g(m_);
            workers.swap(workers_);
        }
        for (auto& t : workers) t.join();
        ::close(fd_);
    }

    int port() const { return port_; }
    std::string url(const std::string& path = "/") const {
        return "http://127.0.0.1:" + std::to_string(port_) + path;
    }

    size_t connections() const { return connections_; }

    std::vector<Request> requests() const {
        std::lock_guard<std::mutex> g(m_);
        return requests_;
    }

    static std::string reply(int status, const std::string& body,
                             const std::vector<std::pair<std::string, std::string>>& headers = {},
                             bool keep_alive = false) {
        std::string out = "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n";
        for (const auto& [k, v] : headers) out += k + ": " + v + "\r\n";
        out += "Content-Length: " + std::to_string(body.size()) +
               (keep_alive ? "\r\n\r\n" : "\r\nConnection: close\r\n\r\n") + body;
        return out;
    }
    static std::string redirect(int status, const std::string& location) {
        return reply(status, "", {{"Location", location}});
    }

private:
    static const char* reason(int status) {
        switch (status) {
            case 200:
                return "OK";
            case 301:
                return "Moved Permanently";
            case 302:
                return "Found";
            case 303:
                return "See Other";
            case 307:
                return "Temporary Redirect";
            case 308:
                return "Permanent Redirect";
            case 404:
                return "Not Found";
            default:
                return "Status";
        }
    }

    void accept_loop() {
        while (!stop_) {
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) continue;
            int c = ::accept(fd_, nullptr, nullptr);
            if (c < 0) continue;
            ++connections_;
            std::lock_guard<std::mutex> g(m_);
            workers_.emplace_back([this, c] {
                std::string in;
                while (serve(c, in) && keep_alive_) {
                }
                ::close(c);
            });
        }
    }

    // Waits for readable data up to the stop flag; false when stopping or closed.
    bool wait_readable(int c) {
        while (!stop_) {
            pollfd p{c, POLLIN, 0};
            int r = ::poll(&p, 1, 50);
            if (r > 0) return true;
            if (r < 0) return false;
        }
        return false;
    }

    // Serves one request of connection `c`, `in` holding what was read beyond the last one:
    // false when the connection is done (closed, stopping, or left hanging).
    bool serve(int c, std::string& in) {
        char buf[8192];
        size_t head_end;
        while ((head_end = in.find("\r\n\r\n")) == std::string::npos) {
            if (!wait_readable(c)) return false;
            ssize_t n = ::recv(c, buf, sizeof buf, 0);
            if (n <= 0) return false;
            in.append(buf, static_cast<size_t>(n));
        }
        Request r;
        std::string head = in.substr(0, head_end);
        size_t line_end = head.find("\r\n");
        std::string first = head.substr(0, line_end);
        size_t s1 = first.find(' '), s2 = first.find(' ', s1 + 1);
        r.method = first.substr(0, s1);
        r.target = first.substr(s1 + 1, s2 - s1 - 1);
        for (size_t i = line_end + 2; line_end != std::string::npos && i < head.size();) {
            size_t j = head.find("\r\n", i);
            if (j == std::string::npos) j = head.size();
            std::string line = head.substr(i, j - i);
            size_t colon = line.find(':');
            if (colon != std::string::npos) {
                std::string name = line.substr(0, colon), value = line.substr(colon + 1);
                for (auto& ch : name)
                    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                value.erase(0, value.find_first_not_of(' '));
                r.headers[name] = value;
            }
            i = j + 2;
        }
        size_t want =
            r.headers.count("content-length") ? std::stoul(r.headers["content-length"]) : 0;
        r.body = in.substr(head_end + 4);
        while (r.body.size() < want) {
            if (!wait_readable(c)) return false;
            ssize_t n = ::recv(c, buf, sizeof buf, 0);
            if (n <= 0) break;
            r.body.append(buf, static_cast<size_t>(n));
        }
        in = r.body.size() > want ? r.body.substr(want) : std::string();
        r.body.resize(std::min(r.body.size(), want));
        {
            std::lock_guard<std::mutex> g(m_);
            requests_.push_back(r);
        }
        std::string out = handler_(r);
        if (out.empty()) {
            while (wait_readable(c)) {  // hang until the client gives up or the server stops
                if (::recv(c, buf, sizeof buf, 0) <= 0) break;
            }
            return false;
        }
        for (size_t off = 0; off < out.size();) {
            ssize_t n = ::send(c, out.data() + off, out.size() - off, MSG_NOSIGNAL);
            if (n <= 0) return false;
            off += static_cast<size_t>(n);
        }
        return true;
    }

    Handler handler_;
    bool keep_alive_ = false;
    std::atomic<size_t> connections_{0};
    int fd_ = -1, port_ = 0;
    std::atomic<bool> stop_{false};
    std::thread acceptor_;
    mutable std::mutex m_;
    std::vector<std::thread> workers_;
    std::vector<Request> requests_;
};

}  // namespace platform::test
