// http_wire.hpp — private to host/src/http: an answer as bytes on the wire, and the server's own
// error answers. http_answer.cpp and http_stream.cpp write answers with these; requests are read
// by frame_request() (http_framing.hpp) and parse_framed_request() (request_parser.hpp).
#pragma once

#include <pistache/http.h>

#include <platform/host/http/gateway.hpp>
#include <platform/host/http/http_server.hpp>
#include <string>
#include <string_view>

namespace platform::host::wire {

std::string trim(const std::string& s);  // without the spaces and tabs around it

// The reason phrase of `status`, also for 408, 414 and 505, which status.cpp does not name.
std::string reason(int status);

// A gateway error body ({"Id","Code","Detail","Status"}) for answers made by the server itself.
HttpResponse error_response(const std::string& id, int status, const std::string& detail);

// An answer as it goes on the wire: status line, Connection, the headers (one per name, the first
// wins — but every Set-Cookie, the one header that must repeat, RFC 6265 §3), Content-Type and
// Content-Length, then the body. A header whose name or value holds CR or LF is dropped.
std::string wire_bytes(Pistache::Http::Version version, const HttpResponse& r, bool close);

}  // namespace platform::host::wire
