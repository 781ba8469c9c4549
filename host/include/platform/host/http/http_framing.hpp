// platform/host/http/http_framing.hpp — where one HTTP/1.1 request ends in a connection's bytes.
//
// Pistache 0.0.5's own parser took one request and dropped whatever followed it in the read
// buffer, so pipelined requests vanished. The server keeps each connection's unconsumed bytes and
// asks frame_request() where the first whole request ends (request line, header fields up to the
// empty line, then a Content-Length body or a chunked body up to its last chunk and trailers);
// exactly those bytes go to parse_framed_request() (request_parser.hpp), with where the head ends
// and where each header field is (the header section is walked once), and it reads the same
// chunk-size lines (parse_chunk_size below). The limits are checked here, before a body is
// buffered: a head over max_header_bytes or more than max_header_count fields is 431 (a request
// line alone over max_header_bytes is 414), a request over max_request_bytes is 413 as soon as
// its Content-Length says so. Malformed requests are 400 (bare LF, obsolete line folding, space
// before a colon, a bad or conflicting Content-Length, Content-Length with Transfer-Encoding —
// request smuggling shapes), an unsupported transfer coding 501, an HTTP version other than
// 1.0/1.1 505. After an error the connection cannot be resynchronised: answer and close.
//
// With TLS on, the api port's Pistache endpoint only takes the TLS terminator's connections
// (tls_listener.hpp): each starts with the preface line
//   PLATFORM-TLS <secret> <client-ip> <client-port>\r\n
// naming the real client; parse_tls_preface() reads it before any request is framed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace platform::host {

struct FrameLimits {
    uint64_t max_request_bytes = 1024 * 1024;
    uint32_t max_header_count = 100;
    uint32_t max_header_bytes = 16 * 1024;
};

// One header field line, as offsets into the request's bytes (after `skip`): the name is
// [begin, colon), the value without the blanks around it [value, value_end), and the line ends
// (before its CRLF) at `end`.
struct FieldSpan {
    uint32_t begin = 0, colon = 0, value = 0, value_end = 0, end = 0;
};

struct Frame {
    enum class State { incomplete, complete, error };
    State state = State::incomplete;
    size_t skip = 0;             // empty lines before the request line, to drop (RFC 9112 §2.2)
    size_t length = 0;           // complete: bytes of the request after `skip`
    int status = 0;              // error: the HTTP status to answer
    std::string message;         // error: why
    std::string method, target;  // when the request line was read (for logs)
    bool chunked = false;
    uint64_t content_length = 0;
    // complete: bytes of the head (request line and header fields up to and with the empty line),
    // and where each header field is, in order: parse_framed_request() reads the fields from
    // these instead of walking the header section a second time.
    size_t head = 0;
    std::vector<FieldSpan> fields;

    bool complete() const { return state == State::complete; }
    bool incomplete() const { return state == State::incomplete; }
    bool error() const { return state == State::error; }
};

// Looks at the start of `buffer` (a connection's unconsumed bytes).
Frame frame_request(std::string_view buffer, const FrameLimits& limits);
// The same into `f`, whose storage is reused (the server keeps one Frame per I/O thread).
void frame_request(std::string_view buffer, const FrameLimits& limits, Frame& f);

// A chunk-size line without its CRLF: up to 15 hex digits (blanks around them allowed), then
// optional `;` extensions, which are not read. False when it is not one.
bool parse_chunk_size(std::string_view line, uint64_t& size);

// The TLS terminator's preface line (see above).
inline constexpr size_t kMaxTlsPreface = 128;  // longer without CRLF: invalid
struct TlsPreface {
    enum class State { incomplete, ok, invalid };
    State state = State::incomplete;
    size_t length = 0;      // ok: bytes of the line, CRLF included
    std::string client_ip;  // ok: as the terminator gave it (numeric IPv4 or IPv6)
    int client_port = 0;
    bool ok() const { return state == State::ok; }
    bool incomplete() const { return state == State::incomplete; }
    bool invalid() const { return state == State::invalid; }
};
// Reads the preface at the start of `buffer`; the secret is compared in constant time. Invalid:
// not the preface, another secret, a malformed address or port, or longer than kMaxTlsPreface.
TlsPreface parse_tls_preface(std::string_view buffer, std::string_view secret);
// The preface line the terminator sends.
std::string tls_preface(std::string_view secret, std::string_view client_ip, int client_port);

}  // namespace platform::host
