// platform/host/http/request_parser.hpp — one framed request into the host's HttpRequest.
//
// frame_request() (http_framing.hpp) has already found where the request ends and refused what
// breaks the framing (line endings, field syntax, control characters, Content-Length and
// Transfer-Encoding, the limits), and noted where the head ends and where each header field is
// (Frame::head, Frame::fields). parse_framed_request() reads those fields and the body into an
// HttpRequest, without walking the header section again:
//   - method: one of OPTIONS GET POST HEAD PUT PATCH DELETE TRACE CONNECT (case-sensitive);
//     another is 400 "unknown HTTP request method";
//   - path: the request target up to the first '?', as sent (no percent-decoding; the gateway's
//     resolvers decide what a path may hold); query: the raw text after that '?', "" without one;
//   - headers: lower-cased name → value without the spaces and tabs around it. A repeated field:
//     the first one counts, except Host, Authorization and Content-Type, where a second one is 400
//     (a proxy in front that took the other one would disagree with the host about who is calling
//     or what the body is). Trailer fields of a chunked body are read and dropped;
//   - Host: host, "[IPv6]" or either with ":port", the port 1-5 digits up to 65535; else 400;
//   - Cookie: every `;`-separated cookie has a `=` (a value may be empty); else 400;
//   - body: the Content-Length bytes, or the chunks of a chunked body decoded (extensions ignored);
//   - http10 for HTTP/1.0; close for `Connection: close`, or HTTP/1.0 without `keep-alive`.
// A refusal sets error_status and error_detail, with only the method and path of the request line
// in req; the connection is then answered and closed.
#pragma once

#include <cstddef>
#include <platform/host/core/http_message.hpp>
#include <platform/host/http/http_framing.hpp>
#include <string>
#include <string_view>

namespace platform::host {

struct ParsedRequest {
    HttpRequest req;
    bool http10 = false;
    bool close = false;  // Connection: close, or HTTP/1.0 without keep-alive
    int error_status = 0;
    std::string error_detail;
};

// `framed`: exactly the bytes frame_request() delimited (`frame`, complete, made from the same
// bytes), without its skip; a field outside them is 400.
// Longer than `max_request_bytes` is 413. The server's read loop and the fuzz harness
// (tests/fuzz/http_request.cpp) share it.
ParsedRequest parse_framed_request(std::string_view framed, const Frame& frame,
                                   size_t max_request_bytes);

}  // namespace platform::host
