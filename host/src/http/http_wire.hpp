// http_wire.hpp — private to host/src/http: a request from the bytes Pistache parsed, and an
// answer back to bytes. http_connection.cpp reads requests with these, http_answer.cpp and
// http_stream.cpp write answers; the fuzz harness reaches parse_framed through
// parse_framed_request (http_server.hpp).
#pragma once

#include <pistache/http.h>

#include <platform/host/http/gateway.hpp>
#include <platform/host/http/http_framing.hpp>
#include <platform/host/http/http_server.hpp>
#include <string>
#include <string_view>

namespace platform::host::wire {

std::string trim(const std::string& s);  // without the spaces and tabs around it

// One framed request (exactly the bytes frame_request() delimited, `f`) through `parser`, which is
// reset before and after; refusals as ParsedRequest documents them.
ParsedRequest parse_framed(Pistache::Http::RequestParser& parser, std::string_view framed,
                           const Frame& f, size_t max_size);

// The reason phrase of `status`, also for 408, 414 and 505, which status.cpp does not name.
std::string reason(int status);

// A gateway error body ({"Id","Code","Detail","Status"}) for answers made by the server itself.
HttpResponse error_response(const std::string& id, int status, const std::string& detail);

// An answer as it goes on the wire: status line, Connection, the headers (one per name, the first
// wins — but every Set-Cookie, the one header that must repeat, RFC 6265 §3), Content-Type and
// Content-Length, then the body. A header whose name or value holds CR or LF is dropped.
std::string wire_bytes(Pistache::Http::Version version, const HttpResponse& r, bool close);

}  // namespace platform::host::wire
