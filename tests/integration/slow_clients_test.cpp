// slow_clients_test.cpp — the host under slow clients (issue 11). Debian's slowhttptest opens 500
// connections (200 a second) in one of its modes for at most 20 s, against the real host on the
// `test` profile with http.header_timeout_ms and http.idle_timeout_ms at 5 s:
//   slowloris   (-H) request heads that never end: a header line every 2 s;
//   slow body   (-B) a POST announcing 8 KiB of body, sent 1–10 bytes every 2 s;
//   slow read   (-X) three pipelined GETs of the 500 KB OpenAPI document per connection, read 32
//                    bytes every 5 s through a 512–1024 byte receive window.
// Meanwhile a probe asks GET /health every 100 ms, each time on a new connection. Passes when
// every probe got its 200 within 2 s, slowhttptest's own probe found the service available every
// second, the attack was real (at least 400 connections open at once), and the host closed the
// slow connections: for slowloris and slow body slowhttptest saw every one closed before its time
// limit ("No open connections left"). Slow readers are dropped by the host after idle_timeout_ms,
// but the kernel goes on delivering what was already queued to them, so slowhttptest still counts
// them open; there the host's side is checked: while slowhttptest still runs, the host holds none
// of them (/proc/net/tcp: no socket on its port with an owner). None is left after any mode.
// Skipped, saying so, when slowhttptest is not installed (scripts/deps.sh).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <regex>
#include <sstream>
#include <thread>

#include "build_tree.hpp"
#include "command.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "local_files.hpp"

using namespace platform::test;
using Clock = std::chrono::steady_clock;

namespace {

// One GET /health on a new connection; true when a 200 came back, whole, within `deadline_ms`.
bool probe_health(int port, int deadline_ms) {
    const auto until = Clock::now() + std::chrono::milliseconds(deadline_ms);
    auto left = [&] {
        return static_cast<int>(std::max<int64_t>(
            0,
            std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count()));
    };
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = false;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 || errno == EINPROGRESS) {
        pollfd p{fd, POLLOUT, 0};
        const std::string req = "GET /health HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n";
        if (::poll(&p, 1, left()) == 1 && (p.revents & POLLOUT) &&
            ::send(fd, req.data(), req.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(req.size())) {
            std::string in;
            char buf[4096];
            for (;;) {
                p = {fd, POLLIN, 0};
                if (::poll(&p, 1, left()) != 1) break;
                ssize_t n = ::recv(fd, buf, sizeof buf, 0);
                if (n <= 0) {
                    ok = n == 0 && in.rfind("HTTP/1.1 200 ", 0) == 0 &&
                         in.find("\"status\":\"ok\"") != std::string::npos;
                    break;
                }
                in.append(buf, static_cast<size_t>(n));
            }
        }
    }
    ::close(fd);
    return ok;
}

struct CsvRow {
    int seconds = 0, closed = 0, pending = 0, connected = 0, available = 0;
};

std::vector<CsvRow> read_csv(const std::string& path) {
    std::vector<CsvRow> rows;
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // Seconds,Closed,Pending,Connected,Service Available
    while (std::getline(in, line)) {
        CsvRow r;
        if (std::sscanf(line.c_str(), "%d,%d,%d,%d,%d", &r.seconds, &r.closed, &r.pending,
                        &r.connected, &r.available) == 5)
            rows.push_back(r);
    }
    return rows;
}

class SlowClients : public ::testing::Test {
protected:
    void SetUp() override {
        tool_ = find_on_path("slowhttptest");
        if (tool_.empty())
            GTEST_SKIP() << "slowhttptest not found in PATH: install it (scripts/deps.sh)";
        std::ifstream in(platform::test::source_dir() + "/profiles/test.yaml");
        std::stringstream text;
        text << in.rdbuf();
        const std::string profile = dir_.path() + "/slow-clients.yaml";
        std::ofstream(profile)
            << text.str()
            << "\nhttp: {header_timeout_ms: 5000, idle_timeout_ms: 5000, access_log: false}\n";
        HostProcess::Options o;
        o.profile = profile;
        host_ = std::make_unique<HostProcess>(o);
        host_->start();
    }

    // Runs slowhttptest with `mode_args` for at most 20 s while probing /health every 100 ms;
    // checks what every mode must show and returns the CSV rows.
    std::vector<CsvRow> attack(const std::string& name, std::vector<std::string> mode_args) {
        const int port = host_->api_port();
        std::vector<std::string> argv{tool_};
        argv.insert(argv.end(), mode_args.begin(), mode_args.end());
        for (std::string a : {"-c", "500", "-r", "200", "-l", "20", "-p", "2", "-g", "-o"})
            argv.push_back(a);
        argv.push_back(dir_.path() + "/" + name);
        auto run = std::async(std::launch::async, [argv] { return run_command(argv, {}, 60); });
        int probes = 0, failed = 0, peak_held = 0;
        double slowest = 0;
        const auto start = Clock::now();
        auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
        while (run.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
            const auto next = Clock::now() + std::chrono::milliseconds(100);
            const double asked = seconds();
            ++probes;
            if (!probe_health(port, 2000)) ++failed;
            slowest = std::max(slowest, seconds() - asked);
            // When the host had let go of every slow connection, while slowhttptest still ran.
            const int held = held_connections(port, false);
            peak_held = std::max(peak_held, held);
            if (peak_held >= 400 && held == 0 && dropped_at_ < 0) dropped_at_ = seconds();
            std::this_thread::sleep_until(next);  // the probe's period, not a synchronisation
        }
        result_ = run.get();
        const std::string out = std::regex_replace(result_.out, std::regex("\x1b\\[[0-9;]*m"), "");
        std::smatch m;
        exit_status_ =
            std::regex_search(out, m, std::regex("Exit status: *([^\n]*)")) ? m[1].str() : "";
        char dropped[64] = "";
        if (dropped_at_ >= 0)
            std::snprintf(dropped, sizeof dropped, ", none from %.1f s on", dropped_at_);
        std::printf(
            "[ %s ] %d probes of /health, %d failed, slowest %.3f s; "
            "the host held at most %d of them%s; slowhttptest: %s\n",
            name.c_str(), probes, failed, slowest, peak_held, dropped, exit_status_.c_str());
        EXPECT_EQ(result_.code, 0) << result_.out << result_.err;
        EXPECT_GE(probes, 50);
        EXPECT_EQ(failed, 0) << "probes of /health that got no 200 within 2 s";

        auto rows = read_csv(dir_.path() + "/" + name + ".csv");
        EXPECT_FALSE(rows.empty()) << "no CSV from slowhttptest\n" << out;
        int peak = 0;
        for (const auto& r : rows) {
            peak = std::max(peak, r.connected);
            EXPECT_GT(r.available, 0)
                << "slowhttptest's probe found the service unavailable at second " << r.seconds;
        }
        if (!rows.empty())
            std::printf("[ %s ] %zu s; peak %d connections open; last: closed %d, connected %d\n",
                        name.c_str(), rows.size(), peak, rows.back().closed, rows.back().connected);
        EXPECT_GE(peak, 400) << "the attack did not get its connections open";

        // The host holds none of them any more (within 10 s: it may still be closing the last).
        const auto until = Clock::now() + std::chrono::seconds(10);
        while (held_connections(port, false) > 0 && Clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));  // polling a condition
        EXPECT_EQ(held_connections(port, false), 0)
            << "connections the host still holds after the run";
        EXPECT_TRUE(probe_health(port, 2000));
        return rows;
    }

    void TearDown() override {
        if (host_) {
            EXPECT_EQ(host_->stop(), 0) << host_->log();
        }
    }

    TempDir dir_;
    std::string tool_;
    std::unique_ptr<HostProcess> host_;
    CommandResult result_;
    std::string exit_status_;
    double dropped_at_ = -1;  // seconds into the run when the host held none of them any more
};

TEST_F(SlowClients, SlowlorisHeadsAreCutAtTheHeaderTimeout) {
    auto rows =
        attack("slowloris", {"-H", "-i", "2", "-x", "24", "-u",
                             "http://127.0.0.1:" + std::to_string(host_->api_port()) + "/"});
    EXPECT_EQ(exit_status_, "No open connections left");  // all closed before the time limit
    ASSERT_FALSE(rows.empty());
    EXPECT_LT(rows.size(), 20u);
}

TEST_F(SlowClients, SlowBodiesAreCutAtTheHeaderTimeout) {
    auto rows = attack("slow-body", {"-B", "-i", "2", "-x", "10", "-s", "8192", "-t", "POST", "-u",
                                     "http://127.0.0.1:" + std::to_string(host_->api_port()) +
                                         "/api/v1/notes/add"});
    EXPECT_EQ(exit_status_, "No open connections left");  // all closed before the time limit
    ASSERT_FALSE(rows.empty());
    EXPECT_LT(rows.size(), 20u);
}

TEST_F(SlowClients, SlowReadersAreDroppedAtTheIdleTimeout) {
    {  // far more than a socket's buffers hold, so the host's writes wait on the reader
        HttpClient c("127.0.0.1", host_->api_port());
        auto doc = c.get("/api/v1/openapi.json");
        ASSERT_EQ(doc.status, 200);
        ASSERT_GT(doc.body.size(), 200000u) << "too few plugins built for a large OpenAPI document";
    }
    attack("slow-read",
           {"-X", "-w", "512", "-y", "1024", "-n", "5", "-z", "32", "-k", "3", "-u",
            "http://127.0.0.1:" + std::to_string(host_->api_port()) + "/api/v1/openapi.json"});
    // slowhttptest still held them all (it counts none closed: the kernel still delivers what was
    // queued), but the host had dropped every one.
    EXPECT_GE(dropped_at_, 0) << "the host still held slow readers when slowhttptest ended";
    EXPECT_LT(dropped_at_, 15);
}

}  // namespace
