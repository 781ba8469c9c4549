// Connection handling on Pistache 0.0.5: HTTP/1.1 clients that send no Connection header keep
// their connection (Pistache would close it); Connection: close and HTTP/1.0 are honoured.
#include <gtest/gtest.h>

#include "host_process.hpp"
#include "http_client.hpp"
#include "shared_host_test.hpp"

using namespace platform::test;

namespace {

class Connections : public SharedHostTest {
protected:
    static void TearDownTestSuite() { stop_host(false); }
};

TEST_F(Connections, ThreeRequestsWithoutConnectionHeaderShareOneConnection) {
    HttpClient c("127.0.0.1", host->api_port());
    c.set_reconnect(false);
    for (int i = 0; i < 3; ++i) {
        c.send_raw("GET / HTTP/1.1\r\nHost: test\r\n\r\n");
        auto r = c.read_response();
        EXPECT_EQ(r.status, 200);
        EXPECT_NE(r.header("connection"), "Close");
    }
    const std::string body = R"({"title":"k","text":"alive"})";
    c.send_raw(
        "POST /api/v1/notes/add HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer kc\r\n"
        "Content-Type: application/json\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body);
    EXPECT_EQ(c.read_response().status, 200);
    EXPECT_EQ(c.connects(), 1);
    EXPECT_FALSE(c.connection_closed());
}

TEST_F(Connections, ConnectionCloseIsHonoured) {
    HttpClient c("127.0.0.1", host->api_port());
    c.set_reconnect(false);
    c.send_raw("GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    auto r = c.read_response();
    EXPECT_EQ(r.status, 200);
    EXPECT_TRUE(c.connection_closed());
}

TEST_F(Connections, Http10WithoutKeepAliveIsClosed) {
    HttpClient c("127.0.0.1", host->api_port());
    c.set_reconnect(false);
    c.send_raw("GET / HTTP/1.0\r\n\r\n");
    EXPECT_EQ(c.read_response().status, 200);
    EXPECT_TRUE(c.connection_closed());
}

TEST_F(Connections, ProxyPortKeepsConnectionsToo) {
    HttpClient c("127.0.0.1", host->proxy_port());
    c.set_reconnect(false);
    for (int i = 0; i < 3; ++i) {
        c.send_raw(
            "POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: "
            "55\r\n\r\n"
            "{\"service\":\"registry\",\"method\":\"Registry.ListServices\"}");
        EXPECT_EQ(c.read_response().status, 200);
    }
    EXPECT_EQ(c.connects(), 1);
}

}  // namespace
