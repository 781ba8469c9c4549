// The access log's writer: every line arrives once, whole, in its thread's order; stop writes what
// is queued; a line after the writer drained wakes it again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <platform/host/http/access_log_writer.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace platform::host;
using namespace std::chrono_literals;

namespace {

// A pipe the writer writes into and a thread that reads everything from it.
class PipeSink {
public:
    PipeSink() {
        if (::pipe(fds_) != 0) throw std::runtime_error("pipe");
        out = ::fdopen(fds_[1], "w");
        reader_ = std::thread([this] {
            char buf[65536];
            for (;;) {
                const ssize_t n = ::read(fds_[0], buf, sizeof buf);
                if (n <= 0) break;
                std::lock_guard<std::mutex> g(m_);
                got_.append(buf, static_cast<size_t>(n));
                cv_.notify_all();
            }
            std::lock_guard<std::mutex> g(m_);
            eof_ = true;
            cv_.notify_all();
        });
    }
    ~PipeSink() {
        close_writer();
        reader_.join();
        ::close(fds_[0]);
    }
    // True when `pred(text)` held before the deadline.
    template <class Pred>
    bool wait_until(Pred pred, std::chrono::seconds within = 20s) {
        std::unique_lock<std::mutex> l(m_);
        return cv_.wait_for(l, within, [&] { return pred(got_); });
    }
    // Everything written, once the writing end is closed.
    std::string all() {
        close_writer();
        std::unique_lock<std::mutex> l(m_);
        cv_.wait(l, [&] { return eof_; });
        return got_;
    }
    std::string now() {
        std::lock_guard<std::mutex> g(m_);
        return got_;
    }

    std::FILE* out = nullptr;

private:
    void close_writer() {
        if (out) std::fclose(out);
        out = nullptr;
    }
    int fds_[2];
    std::thread reader_;
    std::mutex m_;
    std::condition_variable cv_;
    std::string got_;
    bool eof_ = false;
};

// "t<thread> <n> <padding>": the padding's length varies with n, so a torn line shows.
std::string line_of(int t, int n) {
    return "t" + std::to_string(t) + " " + std::to_string(n) + " " + std::string(n % 97, 'x');
}

// Checks that `text` holds exactly lines 0..per_thread-1 of each of `threads` threads, whole and
// in each thread's order.
void expect_every_line_once_in_order(const std::string& text, int threads, int per_thread) {
    ASSERT_TRUE(text.empty() || text.back() == '\n');
    std::map<int, int> next;  // thread -> the line number expected next
    std::istringstream in(text);
    std::string line;
    size_t lines = 0;
    while (std::getline(in, line)) {
        ++lines;
        int t = -1, n = -1;
        ASSERT_EQ(std::sscanf(line.c_str(), "t%d %d", &t, &n), 2) << line;
        ASSERT_EQ(line, line_of(t, n));
        ASSERT_EQ(n, next[t]) << "thread " << t << " out of order";
        ++next[t];
    }
    EXPECT_EQ(lines, static_cast<size_t>(threads) * per_thread);
    for (int t = 0; t < threads; ++t) EXPECT_EQ(next[t], per_thread) << "thread " << t;
}

void write_from_threads(AccessLogWriter& w, int threads, int per_thread) {
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
        ts.emplace_back([&w, t, per_thread] {
            for (int n = 0; n < per_thread; ++n) w.write_line(line_of(t, n));
        });
    for (auto& t : ts) t.join();
}

}  // namespace

TEST(AccessLogWriter, ManyThreadsEveryLineOnceWholeInOrder) {
    PipeSink sink;
    AccessLogWriter w({sink.out, 10ms, 256 * 1024});
    write_from_threads(w, 8, 20000);
    w.stop();
    expect_every_line_once_in_order(sink.all(), 8, 20000);
}

// A cap of 1 KiB and no batching window: threads write their own buffers while the writer drains
// the others', and the order of each thread's lines still holds.
TEST(AccessLogWriter, OverTheCapAThreadWritesItselfAndKeepsItsOrder) {
    PipeSink sink;
    AccessLogWriter w({sink.out, 0ms, 1024});
    write_from_threads(w, 8, 20000);
    w.stop();
    expect_every_line_once_in_order(sink.all(), 8, 20000);
}

TEST(AccessLogWriter, StopWritesEverythingQueued) {
    PipeSink sink;
    // A window of an hour: nothing is written before stop.
    AccessLogWriter w({sink.out, std::chrono::hours(1), 256 * 1024});
    write_from_threads(w, 4, 500);
    EXPECT_EQ(sink.now(), "");
    const auto start = std::chrono::steady_clock::now();
    w.stop();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);  // the window is cut short
    expect_every_line_once_in_order(sink.all(), 4, 500);
}

TEST(AccessLogWriter, ALineAfterADrainWakesTheWriter) {
    PipeSink sink;
    AccessLogWriter w({sink.out, 10ms, 256 * 1024});
    // Each line is written only once the previous one arrived, so the writer has drained and gone
    // back to sleep: each one must wake it again. Every other one from a thread of its own.
    for (int n = 0; n < 50; ++n) {
        const std::string line = line_of(0, n);
        if (n % 2)
            std::thread([&] { w.write_line(line); }).join();
        else
            w.write_line(line);
        ASSERT_TRUE(sink.wait_until([&](const std::string& got) {
            return got.find(line + "\n") != std::string::npos;
        })) << "line "
            << n << " did not arrive";
    }
    w.stop();
    const std::string all = sink.all();
    std::istringstream in(all);
    std::string line;
    for (int n = 0; n < 50; ++n) {
        ASSERT_TRUE(std::getline(in, line));
        EXPECT_EQ(line, line_of(0, n));
    }
    EXPECT_FALSE(std::getline(in, line));
}

TEST(AccessLogWriter, AfterStopALineIsWrittenAtOnce) {
    PipeSink sink;
    AccessLogWriter w({sink.out, 10ms, 256 * 1024});
    w.write_line("before");
    w.stop();
    EXPECT_TRUE(sink.wait_until([](const std::string& got) { return got == "before\n"; }));
    w.stop();               // idempotent
    w.write_line("after");  // no writer thread left: the caller writes it
    EXPECT_TRUE(sink.wait_until([](const std::string& got) { return got == "before\nafter\n"; }))
        << sink.now();
}

TEST(AccessLogWriter, WriteFormatsTheRecordAsOneLine) {
    PipeSink sink;
    AccessRecord r;
    r.time = std::chrono::system_clock::time_point(std::chrono::milliseconds(1700000000123));
    r.request_id = "rid-1";
    r.method = "GET";
    r.path = "/health";
    r.status = 200;
    r.remote = "127.0.0.1";
    r.user_agent = "test";
    {
        AccessLogWriter w({sink.out, 10ms, 256 * 1024});
        w.write(r);
    }  // the destructor stops it
    EXPECT_EQ(sink.all(), access_log_line(r) + "\n");
}
