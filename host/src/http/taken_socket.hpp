// taken_socket.hpp — what the front's taken-over connections share: a chunked stream
// (http_stream.cpp), a WebSocket session (http_websocket.cpp) and the `web` handler's relay
// (http_relay.cpp) each write to their own duplicate of the client's socket, bypassing
// Pistache's transport; the last two also read it once Pistache lets the peer go.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "http_connection.hpp"

namespace platform::host::front {

// Writes all of `bytes` to the non-blocking socket `fd`, waiting with poll (up to 30 s each time)
// while it is full. False when the peer went away or stayed full; `written`, when given, grows by
// what went out. Not locked: each caller serialises its own writes.
bool send_whole(int fd, std::string_view bytes, uint64_t* written = nullptr);

// The client's bytes while Pistache still reads the connection: its reader hands them over with
// deliver() (any thread); the session's thread polls wake_fd(), then take()s them. Once Pistache
// has let the peer go, own_reading() tells the session to read the socket itself.
class HandedOverInput {
public:
    HandedOverInput();
    ~HandedOverInput();
    HandedOverInput(const HandedOverInput&) = delete;
    HandedOverInput& operator=(const HandedOverInput&) = delete;

    void deliver(std::string_view bytes);
    void own_reading();
    // Makes the session's poll return (an eventfd; no bytes needed).
    void wake();
    int wake_fd() const { return wake_; }
    // Clears the wake-up and moves what was delivered into `bytes`; true once the session reads
    // the socket itself.
    bool take(std::string& bytes);

private:
    int wake_;
    std::mutex m_;
    std::string inbox_;
    bool own_ = false;
};

// Starts a taken-over connection's session: registers it with the server (a drain closes it and
// waits for its thread), marks the connection's input closed so no more of it is parsed,
// hands what Pistache buffered and will still read to `input`, then calls `send_head` (the 101,
// written only once nothing the client sends next can reach the HTTP parser), arranges for the
// session to read the socket itself once Pistache lets the peer go, and runs `run` on a detached
// thread. `input` is the session's own (an aliasing pointer keeps the session alive).
void start_taken_over(const std::shared_ptr<Exchange>& ex,
                      const std::shared_ptr<WebSocket>& session,
                      const std::shared_ptr<HandedOverInput>& input,
                      const std::function<void()>& send_head, std::function<void()> run);

// A taken-over connection's end: its access-log line (status 101, `sent` bytes), the connection
// released to Pistache for closing, and one fewer session thread for the drain to wait on.
void end_taken_over(const std::shared_ptr<Exchange>& ex, uint64_t sent);

}  // namespace platform::host::front
