// The web handler's WebSocket pass-through: an `Upgrade: websocket` request whose path names a
// registered service with a live node (resolve_web_path, as for plain requests) is sent to the
// node as it came (hop-by-hop headers kept: they are the upgrade; X-Forwarded-* added). The
// node's 101 goes back as it came and the connection becomes a byte relay (http_relay.cpp); any
// other answer is passed back as an HTTP answer; a node that cannot be reached, or does not answer
// within 10 s, is 502 before any 101. Only http:// nodes (or bare host:port) can be relayed to.
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <platform/host/core/names.hpp>
#include <platform/host/http/http_bodies.hpp>
#include <platform/sdk/text.hpp>
#include <random>

#include "handlers.hpp"

namespace platform::host {

namespace {

constexpr int kUpstreamWaitMs = 10000;
constexpr size_t kMaxUpstreamHead = 64 * 1024;

// A connected socket to `address` (host:port), or -1 with `why`.
int connect_to(const std::string& address, std::string& why) {
    const size_t colon = address.rfind(':');
    if (colon == std::string::npos) return why = "no port in the node's address", -1;
    std::string host = address.substr(0, colon), port = address.substr(colon + 1);
    if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
    addrinfo hints{}, *found = nullptr;
    hints.ai_socktype = SOCK_STREAM;
    if (int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0)
        return why = gai_strerror(rc), -1;
    int fd = -1;
    why = "connection refused";
    for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
        fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) continue;
        int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
        if (rc != 0 && errno == EINPROGRESS) {
            pollfd p{fd, POLLOUT, 0};
            int err = 0;
            socklen_t len = sizeof err;
            rc = ::poll(&p, 1, kUpstreamWaitMs) == 1 &&
                         ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0
                     ? 0
                     : -1;
            if (rc != 0 && err) why = std::strerror(err);
        }
        if (rc != 0) {
            ::close(fd);
            fd = -1;
        }
    }
    ::freeaddrinfo(found);
    return fd;
}

bool send_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        pollfd p{fd, POLLOUT, 0};
        if (::poll(&p, 1, kUpstreamWaitMs) != 1) return false;
        ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<size_t>(n));
    }
    return true;
}

// The upgrade request as it goes to the node.
std::string request_head(const HttpRequest& req, const std::string& address) {
    std::string head = "GET " + req.path + (req.query.empty() ? "" : "?" + req.query) +
                       " HTTP/1.1\r\nHost: " + address + "\r\n";
    for (const auto& [name, value] : req.headers) {
        if (name == "host" || name == "x-forwarded-for" || name == "x-forwarded-host" ||
            name == "x-forwarded-proto" || !gw::header_name_ok(name) || !gw::header_value_ok(value))
            continue;
        head += gw::canonical_header(name) + ": " + value + "\r\n";
    }
    std::string xff = req.header("x-forwarded-for");
    if (!req.remote.empty()) xff = xff.empty() ? req.remote : xff + ", " + req.remote;
    if (!xff.empty()) head += "X-Forwarded-For: " + xff + "\r\n";
    if (const std::string host = req.header("host"); !host.empty())
        head += "X-Forwarded-Host: " + host + "\r\n";
    head += std::string("X-Forwarded-Proto: ") + (req.tls ? "https" : "http") + "\r\n\r\n";
    return head;
}

}  // namespace

bool Gateway::web_socket(HttpRequest& req, const Reply& reply, const RelayConnection& relay) {
    auto route = resolve_web_path(req.path);
    if (!route) return false;
    const std::string full = qualify(request_namespace(req), route->service);
    auto nodes = runtime_.registry().node_addresses(full, runtime_.clock().now_ms());
    if (nodes.empty()) return false;
    static thread_local std::mt19937 rng{std::random_device{}()};
    std::string address = nodes[std::uniform_int_distribution<size_t>(0, nodes.size() - 1)(rng)];
    if (address.rfind("http://", 0) == 0) address = address.substr(7);
    while (!address.empty() && address.back() == '/') address.pop_back();
    auto shared = std::make_shared<HttpRequest>(std::move(req));
    forward_pool_->submit([shared, address, full, reply, relay] {
        auto fail = [&](const std::string& why) {
            reply(gateway_error(full, 502, "upstream " + address + ": " + why));
        };
        if (address.find("://") != std::string::npos)
            return fail("only http nodes can take a WebSocket");
        std::string why;
        const int fd = connect_to(address, why);
        if (fd < 0) return fail(why);
        if (!send_all(fd, request_head(*shared, address))) {
            ::close(fd);
            return fail("the upgrade request could not be sent");
        }
        std::string got;
        char buf[8192];
        while (got.find("\r\n\r\n") == std::string::npos && got.size() < kMaxUpstreamHead) {
            pollfd p{fd, POLLIN, 0};
            ssize_t n = ::poll(&p, 1, kUpstreamWaitMs) == 1 ? ::recv(fd, buf, sizeof buf, 0) : -1;
            if (n <= 0) {
                ::close(fd);
                return fail("no answer to the upgrade");
            }
            got.append(buf, static_cast<size_t>(n));
        }
        const size_t end = got.find("\r\n\r\n");
        if (end == std::string::npos) {
            ::close(fd);
            return fail("an answer head over " + std::to_string(kMaxUpstreamHead) + " bytes");
        }
        const std::string head = got.substr(0, end + 4);
        if (head.rfind("HTTP/1.1 101", 0) == 0) {
            relay(head, fd, got.substr(end + 4));  // closes fd when it cannot take over
            return;
        }
        HttpResponse r;  // refused: its status and body (by its Content-Length) passed back
        r.status = head.size() > 12 ? std::atoi(head.c_str() + 9) : 502;
        r.content_type = "text/plain";
        r.body = got.substr(end + 4);
        const std::string lower = platform::lower(head);
        const size_t cl = lower.find("\r\ncontent-length:");
        const size_t want =
            cl == std::string::npos ? 0 : std::strtoul(head.c_str() + cl + 17, nullptr, 10);
        while (r.body.size() < std::min(want, gw::kMaxForwardResponse)) {
            pollfd p{fd, POLLIN, 0};
            ssize_t n = ::poll(&p, 1, kUpstreamWaitMs) == 1 ? ::recv(fd, buf, sizeof buf, 0) : -1;
            if (n <= 0) break;
            r.body.append(buf, static_cast<size_t>(n));
        }
        ::close(fd);
        if (r.status < 200 || r.status > 599) return fail("an answer that is not HTTP");
        reply(std::move(r));
    });
    return true;
}

}  // namespace platform::host
