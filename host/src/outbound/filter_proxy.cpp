// FilterProxy — the browser's way out (rules in filter_proxy.hpp): each request head decided by
// the outbound client's hop decision, then a tunnel (CONNECT) or one forwarded plain-HTTP request.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <platform/host/outbound/filter_proxy.hpp>
#include <stdexcept>

#include "hop_guard.hpp"

namespace platform::host {

namespace {

constexpr int kSliceMs = 200;  // how often a waiting connection looks at the stop flag

ProxyVerdict refuse(int status, std::string reason) {
    ProxyVerdict v;
    v.status = status;
    v.reason = std::move(reason);
    return v;
}

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

bool is_token(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || std::strchr("!#$%&'*+-.^_`|~", c)))
            return false;
    return true;
}

// The head's lines without their CRLF; the request line first.
std::vector<std::string> head_lines(std::string_view head) {
    std::vector<std::string> lines;
    size_t i = 0;
    while (i < head.size()) {
        size_t j = head.find("\r\n", i);
        if (j == std::string_view::npos) j = head.size();
        if (j == i) break;  // the blank line
        lines.emplace_back(head.substr(i, j - i));
        i = j + 2;
    }
    return lines;
}

// The answer the proxy gives itself (refusals, busy, tunnel established).
std::string answer(int status, const std::string& reason) {
    const char* text = status == 400   ? "Bad Request"
                       : status == 403 ? "Forbidden"
                       : status == 502 ? "Bad Gateway"
                       : status == 503 ? "Service Unavailable"
                       : status == 504 ? "Gateway Timeout"
                                       : "Error";
    std::string one_line;
    for (char c : reason) one_line += (c == '\r' || c == '\n') ? ' ' : c;
    return "HTTP/1.1 " + std::to_string(status) + " " + text +
           "\r\nContent-Type: text/plain; charset=utf-8\r\nX-Platform-Proxy: " + one_line +
           "\r\nContent-Length: " + std::to_string(one_line.size() + 1) +
           "\r\nConnection: close\r\n\r\n" + one_line + "\n";
}

// Applies the hop decision to `u` and fills the verdict's target.
ProxyVerdict decided(const ParsedUrl& u, const OutboundSettings& s, bool tunnel) {
    outbound::Decision d = outbound::decide(u, /*operator_kind=*/false, s);
    if (d.status == PLATFORM_PERMISSION_DENIED) return refuse(403, d.error);
    if (d.status != PLATFORM_OK) return refuse(502, d.error);
    ProxyVerdict v;
    v.tunnel = tunnel;
    v.host = u.host;
    v.port = u.port;
    v.ip = u.ip;
    v.pins = std::move(d.pins);
    return v;
}

}  // namespace

ProxyVerdict proxy_verdict(std::string_view head, const OutboundSettings& s) {
    std::vector<std::string> lines = head_lines(head);
    if (lines.empty()) return refuse(400, "proxy: empty request");
    const std::string& line = lines[0];
    size_t sp1 = line.find(' '), sp2 = line.rfind(' ');
    if (sp1 == std::string::npos || sp2 == sp1) return refuse(400, "proxy: malformed request line");
    const std::string method = line.substr(0, sp1);
    const std::string target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    const std::string version = line.substr(sp2 + 1);
    if (!is_token(method) || target.empty() || target.find(' ') != std::string::npos ||
        (version != "HTTP/1.1" && version != "HTTP/1.0"))
        return refuse(400, "proxy: malformed request line");
    std::string error;
    bool denied = false;
    if (method == "CONNECT") {
        // authority form: host:port, [v6]:port — the port is required.
        size_t colon = target.rfind(':');
        if (colon == std::string::npos || colon + 1 == target.size() ||
            target.find_first_not_of("0123456789", colon + 1) != std::string::npos ||
            target.find('/') != std::string::npos || target.find('@') != std::string::npos)
            return refuse(400, "proxy: CONNECT needs host:port, got " + target);
        auto u = parse_url("https://" + target + "/", &error, &denied);
        if (!u) return refuse(denied ? 403 : 400, "proxy: " + error);
        return decided(*u, s, true);
    }
    if (lower(target.substr(0, 7)) != "http://")
        return refuse(400, "proxy: only http:// in absolute form and CONNECT are served, got " +
                               target.substr(0, 100));
    auto u = parse_url(target, &error, &denied);
    if (!u) return refuse(denied ? 403 : 400, "proxy: " + error);
    ProxyVerdict v = decided(*u, s, false);
    if (v.status) return v;
    // Origin form, the client's headers without the proxy's and the connection's, one request.
    std::string out = method + " " + u->target + " " + version + "\r\n";
    bool has_host = false;
    for (size_t i = 1; i < lines.size(); ++i) {
        size_t colon = lines[i].find(':');
        std::string name = lower(lines[i].substr(0, colon));
        if (name.rfind("proxy-", 0) == 0 || name == "connection" || name == "keep-alive") continue;
        has_host |= name == "host";
        out += lines[i] + "\r\n";
    }
    if (!has_host) {
        const bool default_port = u->port == 80;
        out += "Host: " + u->host_for_url() + (default_port ? "" : ":" + std::to_string(u->port)) +
               "\r\n";
    }
    out += "Connection: close\r\n\r\n";
    v.head = std::move(out);
    return v;
}

namespace {

using Clock = std::chrono::steady_clock;

int ms_left(Clock::time_point deadline) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left < 0 ? 0 : static_cast<int>(left);
}

// Writes all of `data`, waiting for room up to the idle timeout; false on failure or stop.
bool send_all(int fd, std::string_view data, int idle_ms, const std::atomic<bool>& stop) {
    size_t sent = 0;
    auto deadline = Clock::now() + std::chrono::milliseconds(idle_ms);
    while (sent < data.size()) {
        if (stop) return false;
        ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += static_cast<size_t>(n);
            deadline = Clock::now() + std::chrono::milliseconds(idle_ms);
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return false;
        if (ms_left(deadline) == 0) return false;
        pollfd p{fd, POLLOUT, 0};
        ::poll(&p, 1, std::min(kSliceMs, ms_left(deadline)));
    }
    return true;
}

// Reads the request head (up to the blank line) within the limits; "" on failure. Bytes after
// the head land in `rest`.
std::string read_head(int fd, const FilterProxyLimits& lim, const std::atomic<bool>& stop,
                      std::string& rest, bool& too_large) {
    std::string in;
    char buf[4096];
    auto deadline = Clock::now() + std::chrono::milliseconds(lim.head_timeout_ms);
    while (!stop && ms_left(deadline) > 0) {
        size_t end = in.find("\r\n\r\n");
        if ((end == std::string::npos ? in.size() : end + 4) > lim.max_head_bytes) {
            too_large = true;
            return "";
        }
        if (end != std::string::npos) {
            rest = in.substr(end + 4);
            in.resize(end + 4);
            return in;
        }
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, std::min(kSliceMs, ms_left(deadline))) <= 0) continue;
        ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) return "";
        in.append(buf, static_cast<size_t>(n));
    }
    return "";
}

// Connects to one of the verdict's addresses within the timeout; -1 with `error` set.
int connect_to(const ProxyVerdict& v, int timeout_ms, std::string& error) {
    std::vector<std::string> hosts;
    bool numeric = true;
    if (!v.pins.empty()) {
        for (const auto& pin : v.pins)
            hosts.push_back(pin.front() == '[' ? pin.substr(1, pin.size() - 2) : pin);
    } else {
        hosts.push_back(v.host);
        numeric = v.ip;
    }
    const std::string port = std::to_string(v.port);
    for (const auto& h : hosts) {
        addrinfo hints{};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = numeric ? AI_NUMERICHOST : 0;
        addrinfo* res = nullptr;
        if (::getaddrinfo(h.c_str(), port.c_str(), &hints, &res) != 0 || !res) {
            error = "could not resolve " + h;
            continue;
        }
        for (addrinfo* ai = res; ai; ai = ai->ai_next) {
            int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            if (fd < 0) continue;
            int rc = ::connect(fd, ai->ai_addr, ai->ai_addrlen);
            if (rc != 0 && errno == EINPROGRESS) {
                pollfd p{fd, POLLOUT, 0};
                int err = ETIMEDOUT;
                if (::poll(&p, 1, timeout_ms) > 0) {
                    socklen_t len = sizeof err;
                    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
                }
                rc = err == 0 ? 0 : -1;
                errno = err;
            }
            if (rc == 0) {
                ::freeaddrinfo(res);
                return fd;
            }
            error = "could not connect to " +
                    (h.find(':') != std::string::npos ? "[" + h + "]" : h) + ":" + port + ": " +
                    std::strerror(errno);
            ::close(fd);
        }
        ::freeaddrinfo(res);
    }
    return -1;
}

// Relays both ways until either side ends, an error, the idle timeout or stop.
void relay(int a, int b, int idle_ms, const std::atomic<bool>& stop) {
    char buf[16384];
    auto deadline = Clock::now() + std::chrono::milliseconds(idle_ms);
    while (!stop && ms_left(deadline) > 0) {
        pollfd p[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
        int r = ::poll(p, 2, std::min(kSliceMs, ms_left(deadline)));
        if (r < 0 && errno != EINTR) return;
        if (r <= 0) continue;
        for (int i = 0; i < 2; ++i) {
            if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            int from = i == 0 ? a : b, to = i == 0 ? b : a;
            ssize_t n = ::recv(from, buf, sizeof buf, 0);
            if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            if (n <= 0) {
                // Either end, or an error, ends the exchange: a plain HTTP answer is complete (one
                // request per connection), a client kept alive or killed must not hold the
                // connection, and a tunnel's TLS has nothing to say after its peer closed.
                return;
            }
            if (!send_all(to, std::string_view(buf, static_cast<size_t>(n)), idle_ms, stop)) return;
            deadline = Clock::now() + std::chrono::milliseconds(idle_ms);
        }
    }
}

}  // namespace

FilterProxy::FilterProxy(OutboundSettings s, FilterProxyLimits limits)
    : settings_(std::move(s)), limits_(limits) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener_ < 0) throw std::runtime_error("filter proxy: socket failed");
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::listen(listener_, 64) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
        ::close(listener_);
        throw std::runtime_error(std::string("filter proxy: cannot listen on 127.0.0.1: ") +
                                 std::strerror(errno));
    }
    port_ = ntohs(a.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
}

FilterProxy::~FilterProxy() {
    stop_ = true;
    if (acceptor_.joinable()) acceptor_.join();
    std::list<std::unique_ptr<Connection>> all;
    {
        std::lock_guard<std::mutex> g(m_);
        all.swap(connections_);
    }
    for (auto& c : all)
        if (c->thread.joinable()) c->thread.join();
    ::close(listener_);
}

void FilterProxy::accept_loop() {
    while (!stop_) {
        pollfd p{listener_, POLLIN, 0};
        if (::poll(&p, 1, kSliceMs) <= 0) continue;
        int c = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (c < 0) continue;
        std::lock_guard<std::mutex> g(m_);
        for (auto it = connections_.begin(); it != connections_.end();) {
            if ((*it)->done) {
                (*it)->thread.join();
                it = connections_.erase(it);
            } else {
                ++it;
            }
        }
        if (active_ >= limits_.max_connections) {
            send_all(c,
                     answer(503, "proxy: busy (" + std::to_string(limits_.max_connections) +
                                     " connections)"),
                     1000, stop_);
            ::close(c);
            continue;
        }
        ++active_;
        auto conn = std::make_unique<Connection>();
        Connection* raw = conn.get();
        connections_.push_back(std::move(conn));
        raw->thread = std::thread([this, c, raw] {
            serve(c);
            ::close(c);
            --active_;
            raw->done = true;
        });
    }
}

void FilterProxy::serve(int client) {
    std::string rest;
    bool too_large = false;
    std::string head = read_head(client, limits_, stop_, rest, too_large);
    if (head.empty()) {
        if (too_large)
            send_all(client,
                     answer(400, "proxy: request head over " +
                                     std::to_string(limits_.max_head_bytes) + " bytes"),
                     1000, stop_);
        return;
    }
    ProxyVerdict v = proxy_verdict(head, settings_);
    if (v.status) {
        spdlog::debug("browser proxy: {} ({})", v.reason, head.substr(0, head.find('\r')));
        send_all(client, answer(v.status, v.reason), 1000, stop_);
        return;
    }
    std::string error;
    int upstream = connect_to(v, limits_.connect_timeout_ms, error);
    if (upstream < 0) {
        send_all(client, answer(502, error), 1000, stop_);
        return;
    }
    bool ok = v.tunnel
                  ? send_all(client, "HTTP/1.1 200 Connection established\r\n\r\n", 1000, stop_)
                  : send_all(upstream, v.head, limits_.idle_timeout_ms, stop_);
    if (ok && !rest.empty()) ok = send_all(upstream, rest, limits_.idle_timeout_ms, stop_);
    if (ok) relay(client, upstream, limits_.idle_timeout_ms, stop_);
    ::close(upstream);
}

std::string browser_proxy_address(const OutboundSettings& s) {
    static std::mutex m;
    static FilterProxy* proxy = nullptr;  // kept until the process exits
    static bool failed = false;
    std::lock_guard<std::mutex> g(m);
    if (!proxy && !failed) {
        try {
            proxy = new FilterProxy(s);
            spdlog::info("browser proxy listening on {}", proxy->address());
        } catch (const std::exception& e) {
            failed = true;
            spdlog::error("browser proxy: {}", e.what());
        }
    }
    return proxy ? proxy->address() : "";
}

}  // namespace platform::host
