// raw_websocket.hpp — a WebSocket client on a plain loopback socket, for tests that need the
// protocol's details the npm client hides: the handshake's answer head as it came, frames masked
// or not, fragments, control frames, close codes, and whether the server ended the connection.
//
//   RawWebSocket ws;
//   ASSERT_EQ(ws.open(port, "/api/v1/sse/room?room=r", "Authorization: Bearer alice\r\n")
//                 .rfind("HTTP/1.1 101", 0), 0u);
//   ws.send_frame(0x1, R"({"text":"hi"})");
//   auto f = ws.read_data();  // the next frame that is not a ping (pings are answered)
//
// Reads wait up to 15 s for bytes (a poll, never a fixed sleep). One thread at a time.
#pragma once

#include <string>

namespace platform::test {

class RawWebSocket {
public:
    struct Frame {
        int opcode = -1;  // -1: nothing came (15 s passed, or the connection ended)
        bool fin = false;
        std::string payload;
        // A close frame's code, 0 when it has none.
        int close_code() const;
    };
    RawWebSocket() = default;
    ~RawWebSocket();
    RawWebSocket(const RawWebSocket&) = delete;
    RawWebSocket& operator=(const RawWebSocket&) = delete;

    // Connects to 127.0.0.1:`port` and sends the handshake for `target` (a fixed key) with
    // `extra_headers` (each line ending in CRLF). Answers the answer's head; the connection is a
    // WebSocket when it starts with "HTTP/1.1 101" ("" when the connection failed).
    std::string open(int port, const std::string& target, const std::string& extra_headers);
    // One frame; masked as a client must unless `masked` is false.
    void send_frame(int opcode, const std::string& payload, bool fin = true, bool masked = true);
    Frame read_frame();
    // The next frame that is not a ping (each ping is answered with a pong).
    Frame read_data();
    // True when the server closed the TCP connection, false when it stayed open for 15 s.
    bool ended();

private:
    void send_all(const std::string& bytes);
    bool fill();  // more bytes into buffer_; false on timeout or the connection's end
    int fd_ = -1;
    bool eof_ = false;
    std::string buffer_;
};

}  // namespace platform::test
