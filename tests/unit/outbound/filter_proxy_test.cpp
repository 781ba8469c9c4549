// The browser's filtering proxy (filter_proxy.hpp): its decision on request heads as a table
// (the SSRF guard's refusals for CONNECT and absolute-form requests, what it does not serve, the
// head it sends on), and the proxy itself on loopback: a refused request never reaches the
// server and answers 403 with the reason; an allow_user entry lets it through, one request per
// connection; a CONNECT tunnel carries bytes both ways; the head limit and the busy answer.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <platform/host/outbound/filter_proxy.hpp>

#include "loopback_server.hpp"

using namespace platform::host;
using namespace platform::test;

namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

ProxyVerdict verdict(const std::string& line, const OutboundSettings& s = {}) {
    return proxy_verdict(line + "\r\nUser-Agent: t\r\n\r\n", s);
}

struct Refusal {
    const char* line;
    int status;
    const char* reason;  // a part of it
};

const Refusal kRefused[] = {
    {"CONNECT 127.0.0.1:443 HTTP/1.1", 403, "loopback"},
    {"CONNECT [::1]:443 HTTP/1.1", 403, "loopback"},
    {"CONNECT 10.0.0.1:443 HTTP/1.1", 403, "RFC 1918"},
    {"CONNECT 169.254.169.254:80 HTTP/1.1", 403, "metadata"},
    {"CONNECT metadata.google.internal:443 HTTP/1.1", 403, "metadata"},
    {"CONNECT localhost:443 HTTP/1.1", 403, "resolves to"},
    {"GET http://127.0.0.1/ HTTP/1.1", 403, "loopback"},
    {"GET http://127.0.0.1:9/x HTTP/1.1", 403, "loopback"},
    {"GET http://2130706433/ HTTP/1.1", 403, "loopback"},
    {"GET http://0x7f.1/ HTTP/1.1", 403, "loopback"},
    {"GET http://[::1]:8080/ HTTP/1.1", 403, "loopback"},
    {"GET http://[::ffff:127.0.0.1]/ HTTP/1.1", 403, "refused"},
    {"GET http://10.0.0.1/ HTTP/1.1", 403, "RFC 1918"},
    {"POST http://192.168.1.1/login HTTP/1.1", 403, "RFC 1918"},
    {"GET http://169.254.169.254/latest/meta-data/ HTTP/1.1", 403, "metadata"},
    {"GET http://localhost:8080/ HTTP/1.1", 403, "resolves to"},
    {"GET http://user@1.1.1.1/ HTTP/1.1", 403, "userinfo"},
    {"GET https://example.com/ HTTP/1.1", 400, "only http://"},
    {"GET file:///etc/passwd HTTP/1.1", 400, "only http://"},
    {"GET gopher://example.com/ HTTP/1.1", 400, "only http://"},
    {"GET /relative HTTP/1.1", 400, "only http://"},
    {"CONNECT example.com HTTP/1.1", 400, "host:port"},
    {"CONNECT example.com:https HTTP/1.1", 400, "host:port"},
    {"GET http://1.1.1.1/ HTTP/2.0", 400, "malformed"},
    {"G(T http://1.1.1.1/ HTTP/1.1", 400, "malformed"},
    {"GET", 400, "malformed"},
};

TEST(FilterProxyVerdict, RefusesWhatTheGuardRefusesWithItsReason) {
    for (const auto& c : kRefused) {
        ProxyVerdict v = verdict(c.line);
        EXPECT_EQ(v.status, c.status) << c.line << ": " << v.reason;
        EXPECT_TRUE(has(v.reason, c.reason)) << c.line << ": " << v.reason;
    }
}

TEST(FilterProxyVerdict, PublicAddressesPassAndThePlainHeadIsRewritten) {
    ProxyVerdict t = verdict("CONNECT 93.184.216.34:443 HTTP/1.1");
    EXPECT_EQ(t.status, 0) << t.reason;
    EXPECT_TRUE(t.tunnel);
    EXPECT_EQ(t.host, "93.184.216.34");
    EXPECT_EQ(t.port, 443);
    EXPECT_TRUE(t.ip);

    ProxyVerdict v = proxy_verdict(
        "GET http://1.1.1.1:8080/a?b=1 HTTP/1.1\r\nHost: 1.1.1.1:8080\r\n"
        "Proxy-Connection: keep-alive\r\nProxy-Authorization: Basic eA==\r\n"
        "Connection: keep-alive\r\nKeep-Alive: 300\r\nAccept: */*\r\n\r\n",
        {});
    ASSERT_EQ(v.status, 0) << v.reason;
    EXPECT_FALSE(v.tunnel);
    EXPECT_EQ(v.port, 8080);
    EXPECT_EQ(
        v.head,
        "GET /a?b=1 HTTP/1.1\r\nHost: 1.1.1.1:8080\r\nAccept: */*\r\nConnection: close\r\n\r\n");

    ProxyVerdict no_host = verdict("GET http://1.1.1.1/ HTTP/1.0");
    ASSERT_EQ(no_host.status, 0) << no_host.reason;
    EXPECT_EQ(no_host.head,
              "GET / HTTP/1.0\r\nUser-Agent: t\r\nHost: 1.1.1.1\r\nConnection: close\r\n\r\n");
}

TEST(FilterProxyVerdict, AllowUserAdmitsOnlyItsHostAndPort) {
    OutboundSettings s;
    s.allow_user = {"127.0.0.1:8123"};
    EXPECT_EQ(verdict("GET http://127.0.0.1:8123/page HTTP/1.1", s).status, 0);
    EXPECT_EQ(verdict("CONNECT 127.0.0.1:8123 HTTP/1.1", s).status, 0);
    EXPECT_EQ(verdict("GET http://127.0.0.1:8124/page HTTP/1.1", s).status, 403);
    s.allow = {"127.0.0.1:*"};  // the operator list is not for pages
    EXPECT_EQ(verdict("GET http://127.0.0.1:8124/page HTTP/1.1", s).status, 403);
}

// ---- the proxy on loopback ----------------------------------------------------------------

int dial(int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<uint16_t>(port));
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    return fd;
}

void put(int fd, const std::string& s) {
    ASSERT_EQ(::send(fd, s.data(), s.size(), MSG_NOSIGNAL), static_cast<ssize_t>(s.size()));
}

// Reads until the peer closes (or 5 s pass without a byte).
std::string drain(int fd) {
    std::string out;
    char buf[4096];
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 5000) <= 0) break;
        ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    return out;
}

// Reads until `part` arrived (or 5 s pass without a byte).
std::string until(int fd, const std::string& part) {
    std::string out;
    char buf[4096];
    while (!has(out, part)) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 5000) <= 0) break;
        ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    return out;
}

TEST(FilterProxy, RefusedRequestNeverReachesTheServer) {
    LoopbackServer server(
        [](const LoopbackServer::Request&) { return LoopbackServer::reply(200, "the secret"); });
    FilterProxy proxy({});
    EXPECT_TRUE(has(proxy.address(), "127.0.0.1:"));
    int fd = dial(proxy.port());
    put(fd, "GET " + server.url("/secret") + " HTTP/1.1\r\nHost: x\r\n\r\n");
    std::string answer = drain(fd);
    ::close(fd);
    EXPECT_TRUE(has(answer, "HTTP/1.1 403 Forbidden")) << answer;
    EXPECT_TRUE(has(answer, "X-Platform-Proxy: refused: 127.0.0.1 is a loopback address"))
        << answer;
    EXPECT_FALSE(has(answer, "the secret"));

    fd = dial(proxy.port());
    put(fd, "CONNECT 127.0.0.1:" + std::to_string(server.port()) + " HTTP/1.1\r\n\r\n");
    answer = drain(fd);
    ::close(fd);
    EXPECT_TRUE(has(answer, "HTTP/1.1 403 Forbidden")) << answer;
    EXPECT_TRUE(server.requests().empty());
}

TEST(FilterProxy, AllowedRequestIsForwardedInOriginFormOncePerConnection) {
    LoopbackServer server([](const LoopbackServer::Request& r) {
        return LoopbackServer::reply(200, "page " + r.target);
    });
    OutboundSettings s;
    s.allow_user = {"127.0.0.1:" + std::to_string(server.port())};
    FilterProxy proxy(s);
    int fd = dial(proxy.port());
    put(fd, "GET " + server.url("/a?b=1") +
                " HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Connection: keep-alive\r\n\r\n");
    std::string answer = drain(fd);  // the proxy closes after the one answer
    ::close(fd);
    EXPECT_TRUE(has(answer, "HTTP/1.1 200 OK")) << answer;
    EXPECT_TRUE(has(answer, "page /a?b=1")) << answer;
    auto seen = server.requests();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].target, "/a?b=1");
    EXPECT_EQ(seen[0].header("connection"), "close");
    EXPECT_EQ(seen[0].header("proxy-connection"), "");
}

TEST(FilterProxy, ConnectTunnelCarriesBytesBothWays) {
    LoopbackServer server([](const LoopbackServer::Request& r) {
        return LoopbackServer::reply(200, "tunnelled " + r.target);
    });
    OutboundSettings s;
    s.allow_user = {"127.0.0.1:" + std::to_string(server.port())};
    FilterProxy proxy(s);
    int fd = dial(proxy.port());
    put(fd, "CONNECT 127.0.0.1:" + std::to_string(server.port()) + " HTTP/1.1\r\n\r\n");
    std::string established = until(fd, "\r\n\r\n");
    EXPECT_EQ(established, "HTTP/1.1 200 Connection established\r\n\r\n");
    put(fd, "GET /inside HTTP/1.1\r\nHost: x\r\n\r\n");
    std::string answer = drain(fd);
    ::close(fd);
    EXPECT_TRUE(has(answer, "tunnelled /inside")) << answer;
}

TEST(FilterProxy, UnreachableAddressIs502AndOversizedHeadIs400) {
    FilterProxyLimits lim;
    lim.max_head_bytes = 512;
    OutboundSettings s;
    // A port nothing listens on: allowed, then the connection is refused.
    int closed_port;
    {
        LoopbackServer gone([](const LoopbackServer::Request&) { return std::string(); });
        closed_port = gone.port();
    }
    s.allow_user = {"127.0.0.1:" + std::to_string(closed_port)};
    FilterProxy proxy(s, lim);
    int fd = dial(proxy.port());
    put(fd, "GET http://127.0.0.1:" + std::to_string(closed_port) + "/ HTTP/1.1\r\n\r\n");
    std::string answer = drain(fd);
    ::close(fd);
    EXPECT_TRUE(has(answer, "HTTP/1.1 502 Bad Gateway")) << answer;
    EXPECT_TRUE(has(answer, "could not connect to 127.0.0.1")) << answer;

    fd = dial(proxy.port());
    put(fd, "GET http://10.0.0.1/ HTTP/1.1\r\nX-Big: " + std::string(1000, 'a') + "\r\n\r\n");
    answer = drain(fd);
    ::close(fd);
    EXPECT_TRUE(has(answer, "HTTP/1.1 400 Bad Request")) << answer;
    EXPECT_TRUE(has(answer, "request head over 512 bytes")) << answer;
}

TEST(FilterProxy, BeyondItsConnectionsItAnswersBusy) {
    FilterProxyLimits lim;
    lim.max_connections = 1;
    FilterProxy proxy({}, lim);
    int first = dial(proxy.port());
    put(first, "GET http://1.1.1.1/");  // an unfinished head keeps the one place taken
    // The proxy takes the first connection before the second (one accept loop, in order).
    int second = dial(proxy.port());
    std::string answer = drain(second);
    ::close(second);
    ::close(first);
    EXPECT_TRUE(has(answer, "HTTP/1.1 503")) << answer;
    EXPECT_TRUE(has(answer, "busy (1 connections)")) << answer;
}

}  // namespace
