// http_timeouts_test.cpp — the profile's http.header_timeout_ms and http.idle_timeout_ms
// (docs/reliability.md, "HTTP limits"), each set to 1 s here: a connection that sends nothing, a
// head or a body that never ends get 408 and are closed; an idle keep-alive connection is closed;
// a streamed answer (SSE) longer than the idle timeout still arrives whole, and the connections
// opened meanwhile never see a byte of it (the stream once wrote on after Pistache had closed its
// descriptor, whose number a new connection could get).
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "host_process.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"

using namespace platform::test;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

class HttpTimeouts : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        HostProcess::Options o;
        o.profile = test_profile_with(suite_dir() + "/timeouts.yaml",
                                      "http: {header_timeout_ms: 1000, idle_timeout_ms: 1000}");
        start_host(o);
    }
    // The 408 a connection gets after sending `bytes` (maybe nothing) and then nothing more.
    static void expect_408_after(const std::string& bytes) {
        HttpClient c("127.0.0.1", host->api_port());
        c.set_reconnect(false);
        c.set_timeout_ms(5000);
        const auto start = Clock::now();
        c.send_raw(bytes);
        auto r = c.read_response();
        EXPECT_EQ(r.status, 408) << r.body;
        EXPECT_GE(seconds_since(start), 0.9);
        EXPECT_LT(seconds_since(start), 4.0);  // the checks run every 500 ms
        EXPECT_TRUE(c.connection_closed());
    }
};

TEST_F(HttpTimeouts, AConnectionThatSendsNothingGets408) {
    expect_408_after("");
}

TEST_F(HttpTimeouts, AHeadThatNeverEndsGets408) {
    expect_408_after("GET / HTTP/1.1\r\nHost: t\r\nX-Slow: 1\r\n");
}

TEST_F(HttpTimeouts, ABodyThatNeverEndsGets408) {
    expect_408_after(
        "POST /api/v1/notes/add HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Content-Length: 100\r\n\r\n{\"title\":");
}

TEST_F(HttpTimeouts, AnIdleKeepAliveConnectionIsClosed) {
    HttpClient c("127.0.0.1", host->api_port());
    c.set_reconnect(false);
    ASSERT_EQ(c.get("/health").status, 200);
    const auto start = Clock::now();
    bool closed = false;
    while (!closed && seconds_since(start) < 5)
        closed = c.connection_closed();  // each waits up to 2 s
    EXPECT_TRUE(closed);
    EXPECT_GE(seconds_since(start), 0.9);
}

TEST_F(HttpTimeouts, AStreamLongerThanTheIdleTimeoutArrivesWholeAndAlone) {
    const int port = host->api_port();
    // 30 events 100 ms apart: about 3 s, three idle timeouts.
    auto stream = std::async(std::launch::async, [port] {
        HttpClient c("127.0.0.1", port);
        c.set_timeout_ms(10000);
        return c.get("/api/v1/sse/count?n=30&gap_ms=100");
    });
    // New connections while it runs: each gets its own answer and nothing else.
    int asked = 0;
    while (stream.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
        HttpClient other("127.0.0.1", port);
        other.set_reconnect(false);
        other.send_raw("GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
        std::string bytes;
        for (std::string more = other.read_some(); !more.empty(); more = other.read_some())
            bytes += more;
        ++asked;
        EXPECT_EQ(bytes.rfind("HTTP/1.1 200 ", 0), 0u) << bytes;
        EXPECT_EQ(bytes.find("data:"), std::string::npos) << bytes;
    }
    auto r = stream.get();
    ASSERT_EQ(r.status, 200) << r.body;
    std::string expected;
    for (int i = 1; i <= 30; ++i) expected += "data: {\"i\":" + std::to_string(i) + "}\n\n";
    EXPECT_EQ(r.body, expected);
    EXPECT_GE(asked, 10);
}

}  // namespace
