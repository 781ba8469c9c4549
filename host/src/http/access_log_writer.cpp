#include <spdlog/details/console_globals.h>

#include <platform/host/http/access_log_writer.hpp>

namespace platform::host {

namespace {
std::mutex& console_mutex() {
    return spdlog::details::console_mutex::mutex();
}
}  // namespace

AccessLogWriter::AccessLogWriter() : AccessLogWriter(Options{}) {}

AccessLogWriter::AccessLogWriter(Options o) : o_(o) {
    thread_ = std::thread([this] { run(); });
}

AccessLogWriter::~AccessLogWriter() {
    stop();
}

void AccessLogWriter::write(const AccessRecord& r) {
    append([&](std::string& s) { append_access_log_line(s, r); });
}

void AccessLogWriter::write_line(std::string_view line) {
    append([&](std::string& s) { s.append(line); });
}

// The flag is read before it is exchanged: under load it is already set, and a load keeps its
// cache line shared between the cores. A producer that reads it set has its line drained by the
// drain that clears it next (the writer clears it before it takes any buffer's mutex).
template <class Fill>
void AccessLogWriter::append(Fill&& fill) {
    const Buffer& b = buffers_.local();
    size_t size;
    {
        std::lock_guard<std::mutex> g(b.m);
        fill(b.text);
        b.text += '\n';
        size = b.text.size();
    }
    if (size > o_.thread_cap || stopped_.load()) return write_own(b);
    if (!pending_.load() && !pending_.exchange(true)) {
        std::lock_guard<std::mutex> g(wake_m_);
        wake_.notify_one();
    }
}

void AccessLogWriter::write_own(const Buffer& b) {
    std::lock_guard<std::mutex> c(console_mutex());
    {
        std::lock_guard<std::mutex> g(b.m);
        b.out.swap(b.text);
    }
    if (!b.out.empty()) {
        std::fwrite(b.out.data(), 1, b.out.size(), o_.out);
        std::fflush(o_.out);
    }
    b.out.clear();
}

void AccessLogWriter::stop() {
    std::call_once(stop_once_, [this] {
        {
            std::lock_guard<std::mutex> g(wake_m_);
            stopping_ = true;
        }
        wake_.notify_one();
        thread_.join();
    });
}

void AccessLogWriter::run() {
    std::unique_lock<std::mutex> l(wake_m_);
    for (;;) {
        wake_.wait(l, [&] { return stopping_ || pending_.load(); });
        if (!stopping_) wake_.wait_for(l, o_.batch, [&] { return stopping_; });
        const bool last = stopping_;
        if (last) stopped_ = true;
        l.unlock();
        drain();
        if (last) return;
        l.lock();
    }
}

// One fwrite for the whole drain: a line that shows in the log comes with every line appended
// before it (on any thread), as the one queue of spdlog's logger gave.
void AccessLogWriter::drain() {
    pending_.exchange(false);
    listed_.clear();
    buffers_.for_each([&](const Buffer& b) { listed_.push_back(&b); });
    std::lock_guard<std::mutex> c(console_mutex());
    batch_.clear();
    for (const Buffer* b : listed_) {
        {
            std::lock_guard<std::mutex> g(b->m);
            if (b->text.empty()) continue;
            b->out.swap(b->text);
        }
        batch_.append(b->out);
        b->out.clear();
    }
    if (batch_.empty()) return;
    std::fwrite(batch_.data(), 1, batch_.size(), o_.out);
    std::fflush(o_.out);
}

}  // namespace platform::host
