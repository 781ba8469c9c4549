// platform/host/isolation/worker_channel.hpp — one end of a host<->worker socket
// (worker_protocol.hpp).
//
// Owns the socket fd (closed by the destructor). start() runs one reader thread that decodes
// frames, hands replies to the request() waiting for them and every other message to
// `on_message` (on the reader thread: handlers must not block; dispatch work to a pool). When
// the peer closes, sends garbage, or close() is called, every pending request() returns nullopt,
// later ones fail at once, and `on_closed(why)` runs once, on the reader thread.
//
// Lifetime: create with make_shared. The reader thread holds a reference until it exits, so a
// channel lives while its reader runs; close() (any thread, idempotent) makes it exit soon.
// Thread-safe: send/request/reply from any thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <platform/host/isolation/worker_protocol.hpp>
#include <string>

namespace platform::host::worker {

class Channel : public std::enable_shared_from_this<Channel> {
public:
    using MessageFn = std::function<void(nlohmann::json message)>;
    using ClosedFn = std::function<void(const std::string& why)>;

    Channel(int fd, MessageFn on_message, ClosedFn on_closed);
    ~Channel();
    Channel(const Channel&) = delete;
    Channel& operator=(const Channel&) = delete;

    void start();
    // Sends one message; false when the channel is closed or the write failed (then it closes).
    bool send(const nlohmann::json& message);
    // Sends a request (sets "id") and waits for its reply; nullopt when closed or after
    // timeout_ms (< 0: no timeout).
    std::optional<nlohmann::json> request(nlohmann::json message, int64_t timeout_ms = -1);
    // Answers a request received through on_message: `answer` gets "re" and, when absent, "code" 0.
    bool reply(const nlohmann::json& request, nlohmann::json answer);
    void close(const std::string& why = "closed");
    bool closed() const { return closed_.load(); }

private:
    struct Pending {
        std::optional<nlohmann::json> reply;
        bool done = false;
    };
    void read_loop();
    void finish(const std::string& why);

    int fd_;
    MessageFn on_message_;
    ClosedFn on_closed_;
    std::mutex write_m_;
    std::mutex m_;
    std::condition_variable cv_;
    std::map<uint64_t, std::shared_ptr<Pending>> pending_;
    std::atomic<uint64_t> next_id_{1};
    std::atomic<bool> closed_{false};
    std::string close_reason_;
};

}  // namespace platform::host::worker
