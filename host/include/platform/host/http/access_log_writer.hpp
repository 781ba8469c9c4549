// platform/host/http/access_log_writer.hpp — writes the access log's lines (access_log.hpp) to
// stderr from a thread of its own, without a lock or a system call shared by the requests.
//
// A request formats its line into its thread's own buffer (PerThread: a thread-local look-up),
// under that buffer's own mutex, which only the thread itself and the writer's drain take, so it
// is uncontended. The writer thread sleeps on a condition variable until something is pending:
// the producer that makes work pending first since the last drain (the one whose exchange of an
// atomic flag finds it clear) takes the writer's mutex to wake it; every other line costs no more
// than its buffer's mutex and a load of the flag. After waking, the writer waits `batch` (10 ms by
// default) so that a loaded server wakes it at most about a hundred times a second rather than per
// request, and a line still reaches the log within about 10 ms, which is what `tail -f` and the
// tests that poll the log see. It then swaps each thread's buffer out and writes them all with
// one fwrite, under spdlog's console mutex (`spdlog::details::console_mutex`, the lock spdlog's
// stderr sinks write under), so an access line never lands inside another log line, and a line
// that shows comes with every line any thread appended before it. Idle, the writer blocks with no
// periodic wake-up.
//
// No line is lost. A thread whose buffer holds more than `thread_cap` bytes (256 KiB: at the
// default window, 25 MB/s from one thread, or a stderr that does not drain) writes its buffer
// itself under the console mutex; the writer swaps and writes under that mutex too, so a thread's
// lines stay in order however they leave, and a stderr that blocks makes the requests wait (the
// previous spdlog queue's "block" policy). stop() writes everything queued before it returns;
// after it each line is written by its own thread at once.
//
// Thread-safety: write and write_line from any number of threads; stop from any thread (it is
// idempotent and waits for a stop already running). The object must outlive its producers (the
// server's ports hold it by shared_ptr). A write to `out` that fails (a closed stderr) drops those
// bytes, as spdlog's sinks do.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <platform/host/core/per_thread.hpp>
#include <platform/host/http/access_log.hpp>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace platform::host {

class AccessLogWriter {
public:
    struct Options {
        std::FILE* out = stderr;  // not owned; tests give a pipe's
        std::chrono::milliseconds batch{10};
        size_t thread_cap = 256 * 1024;
    };

    AccessLogWriter();
    explicit AccessLogWriter(Options o);
    ~AccessLogWriter();  // stop()
    AccessLogWriter(const AccessLogWriter&) = delete;
    AccessLogWriter& operator=(const AccessLogWriter&) = delete;

    // The record's line (append_access_log_line) and '\n', formatted into the thread's buffer.
    void write(const AccessRecord& r);
    // `line` and '\n'.
    void write_line(std::string_view line);
    // Writes what is queued and ends the writer thread.
    void stop();

private:
    // A thread's lines. `text` is appended to under `m`; `out` is what the writer (or the thread
    // itself, over the cap) swapped out and writes, only under the console mutex. Mutable: PerThread
    // hands the writer const references.
    struct Buffer {
        mutable std::mutex m;
        mutable std::string text;
        mutable std::string out;
    };

    template <class Fill>
    void append(Fill&& fill);
    void write_own(const Buffer& b);
    void run();
    void drain();

    Options o_;
    PerThread<Buffer> buffers_;
    alignas(64) std::atomic<bool> pending_{false};  // lines appended since the last drain began
    std::atomic<bool> stopped_{false};              // the writer's last drain has begun
    alignas(64) std::mutex wake_m_;
    std::condition_variable wake_;
    bool stopping_ = false;              // under wake_m_
    std::vector<const Buffer*> listed_;  // the writer thread's
    std::string batch_;                  // the writer thread's: one drain's lines
    std::once_flag stop_once_;
    std::thread thread_;
};

}  // namespace platform::host
