// platform/host/http/websocket_frames.hpp — the WebSocket protocol (RFC 6455) as pure functions
// over bytes: the handshake's accept key, reading a client's frames into messages and control
// events, and writing the server's frames. No sockets, no threads: the session that owns a
// connection (host/src/http/http_websocket.cpp) feeds it what it reads and writes what it makes.
//
// Reading follows the RFC's rules for a server:
//   - every client frame must be masked; the reserved bits must be clear (no extension is
//     negotiated); opcodes other than continuation, text, binary, close, ping and pong are errors;
//   - lengths come in the 7-, 16- and 64-bit forms; the 64-bit form's top bit must be clear;
//   - a message is one frame with FIN, or a first frame and continuations up to one with FIN;
//     a continuation with no message open, or a new text/binary frame inside one, is an error;
//   - control frames (close, ping, pong) carry at most 125 bytes, are never fragmented and may
//     come between the fragments of a message;
//   - a text message must be valid UTF-8 (checked once whole), a close reason too;
//   - a message longer than the limit is refused as soon as a frame header shows it: a single
//     frame's declared length or the fragments' running total, before its payload is buffered.
// A protocol error, invalid UTF-8 or an oversized message ends the reading: the reader gives one
// `error` event carrying the close code to send (1002, 1007, 1009) and ignores later bytes.
// Threads: a FrameReader is used by one thread at a time; the free functions are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace platform::host::websocket {

enum class Opcode : uint8_t {
    continuation = 0x0,
    text = 0x1,
    binary = 0x2,
    close = 0x8,
    ping = 0x9,
    pong = 0xA,
};

// Close codes this host sends or reads (RFC 6455 §7.4.1).
enum CloseCode : uint16_t {
    kNormal = 1000,
    kGoingAway = 1001,      // the server stops
    kProtocolError = 1002,  // a frame broke the protocol
    kUnsupportedData = 1003,
    kNoStatus = 1005,         // a close frame without a code (never sent)
    kInvalidData = 1007,      // a text message that is not UTF-8
    kPolicyViolation = 1008,  // the call was refused (access)
    kMessageTooBig = 1009,
    kInternalError = 1011,  // the call failed
};

// Sec-WebSocket-Accept for a client's Sec-WebSocket-Key: base64(SHA-1(key + the RFC's GUID)).
std::string accept_key(std::string_view client_key);

// True when `key` is what a client must send: the base64 form of 16 bytes (24 characters).
bool valid_client_key(std::string_view key);

// True when `bytes` is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool valid_utf8(std::string_view bytes);

// One server frame with FIN set and no mask, `payload` of any length.
std::string server_frame(Opcode op, std::string_view payload);
// A close frame: the code, then the reason cut to fit the 125-byte control payload (at a UTF-8
// character boundary).
std::string close_frame(uint16_t code, std::string_view reason);

// What the client's bytes amount to.
struct Event {
    enum class Kind {
        message,  // a whole data message: `type` text or binary, `payload` its bytes
        ping,     // `payload` to echo in a pong
        pong,
        close,  // the client closes: `code` (kNoStatus when it gave none), `payload` its reason
        error,  // reading ends: send a close with `code`, `payload` says why
    };
    Kind kind = Kind::message;
    Opcode type = Opcode::text;
    uint16_t code = 0;
    std::string payload;
};

class FrameReader {
public:
    // `max_message`: the longest data message accepted, in bytes (after unmasking).
    explicit FrameReader(size_t max_message) : max_message_(max_message) {}

    // Appends `bytes` and returns every event the complete frames among them make, in order.
    // After an `error` or `close` event nothing more is read.
    std::vector<Event> feed(std::string_view bytes);

    bool ended() const { return ended_; }

private:
    // One frame off the front of buffer_ into `out`; false when it is incomplete or reading ended.
    bool next(std::vector<Event>& out);
    void fail(std::vector<Event>& out, uint16_t code, std::string why);

    size_t max_message_;
    std::string buffer_;   // bytes not yet made into frames
    std::string message_;  // the fragments of the open message
    Opcode message_type_ = Opcode::text;
    bool in_message_ = false;
    bool ended_ = false;
};

}  // namespace platform::host::websocket
