// Drain on SIGTERM under load (issue 11): 200 slow requests in flight (abi-slow, tests/abi/slow.c,
// each sleeping on its own host worker) when the signal comes. Every one of them is answered 200
// with its body; a request made after the signal is refused — 503 with Connection: close, whether
// on a new connection or on a keep-alive one opened before, or the connection refused once the
// port is closed (http_settings.hpp drain_ms); the host logs that it drained and exits
// 0 within 10 s of the signal.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <future>
#include <regex>
#include <thread>
#include <vector>

#include "build_tree.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

constexpr int kInFlight = 200;
// Long enough for all 200 to be sleeping before the signal, short enough for the default
// drain_ms (10 s) and the 10 s exit bound.
constexpr int kSleepMs = 5000;

std::string slow_rpc(int ms) {
    return json{{"service", "abi.slow"}, {"method", "Slow.Sleep"}, {"request", {{"ms", ms}}}}
        .dump();
}

// Until the host logged `what` `n` times (20 s at most); polls the collected log.
bool logged_times(const HostProcess& host, const std::string& what, size_t n) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (count_of(host.log(), what) < n && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return count_of(host.log(), what) >= n;
}

// A request after the signal: 503 + Connection: close, or no answer at all (refused or closed).
// Answers which of the two it was.
std::string expect_refused(HttpClient& c, const std::string& what) {
    const auto asked = std::chrono::steady_clock::now();
    try {
        HttpResult r = c.get("/api/v1/registry/services");
        EXPECT_EQ(r.status, 503) << what << ": " << r.body;
        EXPECT_EQ(r.header("connection"), "Close") << what;
        EXPECT_NE(r.body.find("shutting down"), std::string::npos) << what << ": " << r.body;
        return std::to_string(r.status);
    } catch (const std::exception& e) {  // refused, or closed without an answer: fine, if prompt
        EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(5))
            << what << ": " << e.what();
        return "no answer";
    }
}

TEST(Drain, SigtermWithTwoHundredSlowRequestsInFlightAnswersThemAllAndExitsZero) {
    HostProcess::Options o;
    o.env["PLATFORM_PLUGIN_PATH"] = platform::test::test_plugin_dir() + "/abi";
    HostProcess host(o);
    host.start();
    const int port = host.api_port();

    // A keep-alive connection opened before the signal, idle while it comes.
    HttpClient idle("127.0.0.1", port);
    ASSERT_EQ(idle.get("/health").status, 200);

    const auto sent = std::chrono::steady_clock::now();
    std::vector<std::future<HttpResult>> slow;
    for (int i = 0; i < kInFlight; ++i)
        slow.push_back(std::async(std::launch::async, [port] {
            HttpClient c("127.0.0.1", port);
            return c.post("/rpc", slow_rpc(kSleepMs));
        }));
    ASSERT_TRUE(logged_times(host, "[abi-slow] sleeping", kInFlight))
        << count_of(host.log(), "[abi-slow] sleeping") << " of " << kInFlight << " sleeping\n"
        << host.log();
    for (auto& f : slow)
        ASSERT_EQ(f.wait_for(std::chrono::seconds(0)), std::future_status::timeout)
            << "a slow request ended before the signal: raise kSleepMs";

    const auto signalled = std::chrono::steady_clock::now();
    const double ramp = std::chrono::duration<double>(signalled - sent).count();
    auto exit_code = std::async(std::launch::async, [&] { return host.stop(SIGTERM); });
    ASSERT_TRUE(host.wait_for_log("draining")) << host.log();
    std::smatch m;
    const std::string log = host.log();
    ASSERT_TRUE(std::regex_search(log, m, std::regex("draining \\(([0-9]+) requests in flight")))
        << log;
    EXPECT_EQ(std::stoi(m[1]), kInFlight) << log;

    HttpClient late("127.0.0.1", port);
    const std::string on_new = expect_refused(late, "a new connection");
    idle.set_reconnect(false);
    const std::string on_idle = expect_refused(idle, "a keep-alive connection from before");

    int answered = 0;
    for (auto& f : slow) {
        HttpResult r = f.get();
        answered += r.status == 200;
        EXPECT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(r.body, json({{"slept", kSleepMs}}).dump());
        EXPECT_EQ(r.header("connection"), "Close");
    }
    EXPECT_EQ(answered, kInFlight);
    EXPECT_EQ(exit_code.get(), 0) << host.log();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
    EXPECT_LT(seconds, 10.0) << host.log();
    EXPECT_NE(host.log().find("drained"), std::string::npos) << host.log();
    EXPECT_EQ(host.log().find("still in flight"), std::string::npos) << host.log();
    std::printf(
        "[drain] %d slow requests (%d ms) in flight after %.2f s; SIGTERM; %d answered 200; "
        "exit 0 after %.2f s; after the signal: %s on a new connection, %s on a kept-alive one\n",
        kInFlight, kSleepMs, ramp, answered, seconds, on_new.c_str(), on_idle.c_str());
}

}  // namespace
