// The Prometheus text exposition (format 0.0.4) written by hand: families, labels, histograms.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <platform/host/core/metrics.hpp>
#include <platform/host/core/per_thread.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace platform::host;

namespace {

bool has_line(const std::string& text, const std::string& line) {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        if (l == line) return true;
    return false;
}

TEST(Metrics, EmptyRegistryStillDeclaresEveryFamily) {
    Metrics m;
    std::string t = m.exposition();
    for (const char* name :
         {"platform_http_requests_total", "platform_http_request_duration_seconds",
          "platform_http_in_flight", "platform_calls_total", "platform_call_duration_seconds"}) {
        EXPECT_NE(t.find(std::string("# HELP ") + name + " "), std::string::npos) << name;
        EXPECT_NE(t.find(std::string("# TYPE ") + name + " "), std::string::npos) << name;
    }
    EXPECT_TRUE(has_line(t, "# TYPE platform_http_requests_total counter"));
    EXPECT_TRUE(has_line(t, "# TYPE platform_http_request_duration_seconds histogram"));
    EXPECT_TRUE(has_line(t, "# TYPE platform_http_in_flight gauge"));
    EXPECT_TRUE(has_line(t, "platform_http_in_flight 0"));
    EXPECT_TRUE(has_line(t, "platform_http_request_duration_seconds_count 0"));
    EXPECT_EQ(t.back(), '\n');
}

TEST(Metrics, CountersAndHistogramBuckets) {
    Metrics m;
    m.http_request("GET", 200, 0.003);
    m.http_request("GET", 200, 0.2);
    m.http_request("POST", 404, 20);
    m.http_request("BREW", 405, 0.01);
    m.in_flight_add(2);
    std::string t = m.exposition();
    EXPECT_TRUE(has_line(t, R"(platform_http_requests_total{method="GET",status="200"} 2)")) << t;
    EXPECT_TRUE(has_line(t, R"(platform_http_requests_total{method="POST",status="404"} 1)"));
    EXPECT_TRUE(has_line(t, R"(platform_http_requests_total{method="OTHER",status="405"} 1)"));
    // Cumulative buckets: 0.003 <= .005; 0.01 <= .01; 0.2 <= .25; 20 only in +Inf.
    EXPECT_TRUE(has_line(t, R"(platform_http_request_duration_seconds_bucket{le="0.005"} 1)")) << t;
    EXPECT_TRUE(has_line(t, R"(platform_http_request_duration_seconds_bucket{le="0.01"} 2)"));
    EXPECT_TRUE(has_line(t, R"(platform_http_request_duration_seconds_bucket{le="0.1"} 2)"));
    EXPECT_TRUE(has_line(t, R"(platform_http_request_duration_seconds_bucket{le="0.25"} 3)"));
    EXPECT_TRUE(has_line(t, R"(platform_http_request_duration_seconds_bucket{le="10"} 3)"));
    EXPECT_TRUE(has_line(t, R"(platform_http_request_duration_seconds_bucket{le="+Inf"} 4)"));
    EXPECT_TRUE(has_line(t, "platform_http_request_duration_seconds_count 4"));
    EXPECT_NE(t.find("platform_http_request_duration_seconds_sum 20.2"), std::string::npos);
    EXPECT_TRUE(has_line(t, "platform_http_in_flight 2"));
    for (const char* le :
         {"0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"})
        EXPECT_NE(t.find(std::string("le=\"") + le + "\""), std::string::npos) << le;
}

TEST(Metrics, CallsPerServiceWithEscapedLabels) {
    Metrics m;
    m.call("go.core.api.v1.notes", "Notes.Add", "ok", 0.02);
    m.call("go.core.api.v1.notes", "Notes.Add", "ok", 0.03);
    m.call("weird\"svc\\\n", "X.Y", "internal", 1);
    std::string t = m.exposition();
    EXPECT_TRUE(has_line(
        t,
        R"(platform_calls_total{service="go.core.api.v1.notes",endpoint="Notes.Add",code="ok"} 2)"))
        << t;
    EXPECT_TRUE(has_line(
        t, R"(platform_calls_total{service="weird\"svc\\\n",endpoint="X.Y",code="internal"} 1)"))
        << t;
    EXPECT_TRUE(has_line(
        t, R"(platform_call_duration_seconds_bucket{service="go.core.api.v1.notes",le="0.025"} 1)"))
        << t;
    EXPECT_TRUE(has_line(
        t, R"(platform_call_duration_seconds_bucket{service="go.core.api.v1.notes",le="+Inf"} 2)"));
    EXPECT_TRUE(
        has_line(t, R"(platform_call_duration_seconds_count{service="go.core.api.v1.notes"} 2)"));
}

TEST(Metrics, TrackCallCountsTheOutcome) {
    Metrics m;
    int called = 0;
    auto done = track_call(
        "svc", "A.B", [&](Outcome o) { called += o.code == PLATFORM_NOT_FOUND; }, m);
    done(Outcome{PLATFORM_NOT_FOUND, "nope", "", false});
    EXPECT_EQ(called, 1);
    EXPECT_TRUE(
        has_line(m.exposition(),
                 R"(platform_calls_total{service="svc",endpoint="A.B",code="not_found"} 1)"));
}

// Each thread counts in its own shard; the scrape sums them, and counts from threads that have
// exited stay (their shard goes to the next thread).
TEST(Metrics, ManyThreadsCountExactTotals) {
    Metrics m;
    constexpr int kThreads = 8, kEach = 5000;
    for (int round = 0; round < 2; ++round) {
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&m, t] {
                for (int i = 0; i < kEach; ++i) {
                    m.http_request("GET", 200, 0.001);
                    m.call("svc", t % 2 ? "A.B" : "C.D", "ok", 0.02);
                    m.model_call("p", "ok");
                }
            });
        // Scrapes while the threads count: each sees a consistent histogram.
        for (int i = 0; i < 20; ++i) m.exposition();
        for (auto& th : threads) th.join();
    }
    const std::string t = m.exposition();
    const int total = 2 * kThreads * kEach, half = total / 2;
    EXPECT_TRUE(has_line(
        t, R"(platform_http_requests_total{method="GET",status="200"} )" + std::to_string(total)))
        << t;
    EXPECT_TRUE(
        has_line(t, "platform_http_request_duration_seconds_count " + std::to_string(total)));
    EXPECT_TRUE(has_line(t, R"(platform_http_request_duration_seconds_bucket{le="0.005"} )" +
                                std::to_string(total)));
    EXPECT_TRUE(has_line(t, R"(platform_calls_total{service="svc",endpoint="A.B",code="ok"} )" +
                                std::to_string(half)));
    EXPECT_TRUE(has_line(t, R"(platform_calls_total{service="svc",endpoint="C.D",code="ok"} )" +
                                std::to_string(half)));
    EXPECT_TRUE(has_line(
        t, R"(platform_call_duration_seconds_count{service="svc"} )" + std::to_string(total)));
    EXPECT_TRUE(has_line(
        t, R"(platform_model_calls_total{provider="p",code="ok"} )" + std::to_string(total)));
}

TEST(PerThread, ThreadsGetTheirOwnAndExitedThreadsHandTheirsOn) {
    PerThread<std::atomic<int>> counts;
    constexpr int kThreads = 6, kEach = 10000;
    for (int round = 0; round < 3; ++round) {
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&] {
                auto& mine = counts.local();
                for (int i = 0; i < kEach; ++i) {
                    EXPECT_EQ(&counts.local(), &mine);
                    mine.store(mine.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
                }
            });
        for (auto& th : threads) th.join();
    }
    int sum = 0;
    counts.for_each([&](const std::atomic<int>& c) { sum += c.load(); });
    EXPECT_EQ(sum, 3 * kThreads * kEach);
    // Three rounds of six threads, one round at a time: at most six, reused across rounds.
    EXPECT_LE(counts.size(), size_t(kThreads));
}

TEST(PerThread, OutlivedByTheThreadsThatUsedIt) {
    std::thread user;
    {
        PerThread<int> gone;
        std::atomic<bool> used{false};
        std::mutex m;
        std::condition_variable cv;
        bool may_exit = false;
        user = std::thread([&, g = &gone] {
            g->local() = 1;
            used = true;
            std::unique_lock<std::mutex> lock(m);
            cv.wait(lock, [&] { return may_exit; });
        });
        while (!used) std::this_thread::yield();
        PerThread<int> other;  // a later registry never sees the first's entry
        EXPECT_EQ(other.local(), 0);
        {
            std::lock_guard<std::mutex> g(m);
            may_exit = true;
        }
        cv.notify_all();
        user.join();  // exits with its entry for `gone` while `gone` is still alive
    }
    PerThread<int> after;
    std::thread([&] { EXPECT_EQ(after.local(), 0); }).join();
    SUCCEED();
}

TEST(Metrics, Escape) {
    EXPECT_EQ(prometheus_escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
}

}  // namespace
