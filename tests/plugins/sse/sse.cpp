// sse — test-only: streaming endpoints, to test Server-Sent Events and WebSocket live streams end
// to end. `room` is an in-memory chat room: a stream declaring live_input and resume_arg.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <platform/sdk.hpp>
#include <string>
#include <thread>
#include <vector>

namespace schema = platform::schema;

using platform::json;

class Sse {
public:
    static void describe(platform::ServiceSpec<Sse>& s) {
        s.id("sse").version("1.0.0").service("v1.sse").summary("Test-only streaming endpoints");
        s.get("count")
            .title("Count")
            .description(
                "Streams {\"i\": k} for k = 1..n, then ends; fail=true ends with an error instead.")
            .schema(schema::object()
                        .integer("n")
                        .min(0)
                        .max(100000)
                        .required()
                        .boolean("fail")
                        .def(false)
                        .integer("gap_ms")
                        .min(0)
                        .max(1000)
                        .def(0))
            .streaming()
            .read_only()
            .async(&Sse::count);
        s.get("stopped").title("How many streams stopped early").read_only().handler(&Sse::stopped);
        s.get("room")
            .title("Room")
            .description(
                "Streams the room's messages {\"cursor\": n, \"text\", \"from\": after} after "
                "cursor "
                "`after`, then "
                "each new one, until hold_ms passed; then ends normally. Over a WebSocket each "
                "message the client sends calls `say`, and the host calls the stream again from "
                "the last cursor when it ends.")
            .schema(schema::object()
                        .str("room")
                        .max_len(64)
                        .required()
                        .integer("after")
                        .min(0)
                        .def(0)
                        .integer("hold_ms")
                        .min(0)
                        .max(60000)
                        .def(10000))
            .streaming()
            .read_only()
            .live_input("say")
            .resume_arg("after")
            .async(&Sse::room);
        s.post("say")
            .title("Say")
            .description(
                "Adds `text` to the room; answers {\"said\": text}. hold_ms is the stream's "
                "argument, "
                "merged in from a live socket, and ignored.")
            .schema(schema::object()
                        .str("room")
                        .max_len(64)
                        .required()
                        .str("text")
                        .max_bytes(100000)
                        .required()
                        .integer("hold_ms")
                        .min(0)
                        .max(60000))
            .handler(&Sse::say);
    }

    void count(platform::Request& r, platform::Responder out) {
        const int64_t n = r["n"].get<int64_t>(), gap = r["gap_ms"].get<int64_t>();
        for (int64_t i = 1; i <= n; ++i) {
            if (!out.chunk(json{{"i", i}})) {
                stopped_.fetch_add(1);
                return;
            }
            if (gap) std::this_thread::sleep_for(std::chrono::milliseconds(gap));
        }
        if (r["fail"].get<bool>())
            return out.end(platform::Code::conflict, "stream failed on purpose");
        out.end();
    }

    json stopped(platform::Request&) { return {{"stopped", stopped_.load()}}; }

    void room(platform::Request& r, platform::Responder out) {
        const std::string name = r["room"].get<std::string>();
        const int64_t from = r["after"].get<int64_t>();
        size_t next = static_cast<size_t>(from);  // messages[next] is the next to send
        const auto until = std::chrono::steady_clock::now() +
                           std::chrono::milliseconds(r["hold_ms"].get<int64_t>());
        std::unique_lock<std::mutex> lock(m_);
        for (;;) {
            auto& said = rooms_[name];
            while (next < said.size()) {
                json message{{"cursor", next + 1}, {"text", said[next]}, {"from", from}};
                ++next;
                lock.unlock();
                const bool open = out.chunk(message);
                lock.lock();
                if (!open) return;
            }
            if (!said_.wait_until(lock, until, [&] { return rooms_[name].size() > next; })) break;
        }
        lock.unlock();
        out.end();
    }

    json say(platform::Request& r) {
        std::lock_guard<std::mutex> g(m_);
        auto& said = rooms_[r["room"].get<std::string>()];
        said.push_back(r["text"].get<std::string>());
        said_.notify_all();
        return {{"said", said.back()}};
    }

private:
    std::atomic<int64_t> stopped_{0};
    std::mutex m_;
    std::condition_variable said_;
    std::map<std::string, std::vector<std::string>> rooms_;
};

PLATFORM_SERVICE(Sse)
