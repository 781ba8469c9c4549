// curl_exchange.hpp — private to host/src/outbound: one HTTP exchange (one hop) through the calling
// thread's libcurl easy handle, with redirects off, no proxy, only http/https, the connection
// pinned to the guard's addresses, the body decoded and capped. The handle keeps its connections
// between exchanges (keep-alive reuse per thread), never its options. The only place that drives
// libcurl's HTTP transfers; thread-safe (nothing shared between threads).
#pragma once

#include <optional>
#include <platform/host/outbound/outbound.hpp>
#include <string>
#include <vector>

#include "fetch_state.hpp"

namespace platform::host::outbound {

// What one hop sends. Views: everything referred to must outlive the exchange.
struct HopRequest {
    const ParsedUrl& url;
    const Hop& hop;                                // method and body (headers: see header_lines)
    const std::vector<std::string>& header_lines;  // "Name: value", as this origin may see them
    const std::vector<std::string>& pins;          // the guard's addresses; empty = curl resolves
    long time_left_ms;                             // > 0; what is left of the fetch's timeout
    const Limits& limits;                          // timeout_ms and the cap, for the messages
    const std::string& user_agent;
    const std::string& where;  // "redirect to <url>: " after the first hop
};

// What one hop brought back: the HTTP status, the Location to follow when curl saw one, the
// headers as a JSON object (lower-case names, repeated ones joined with ", ") and the body.
struct HopResponse {
    long status = 0;
    std::optional<std::string> location;
    std::string headers_json, body;
};

// Runs the exchange. A failure is PAYLOAD_TOO_LARGE (body over max_response_bytes), TIMEOUT, or
// BAD_GATEWAY with curl's error (connect, TLS, protocol), each prefixed with `where` and with the
// hop's URL as final_url; INTERNAL when no handle could be made. nullopt when a response arrived.
std::optional<Reply> exchange(const HopRequest& req, HopResponse& out);

}  // namespace platform::host::outbound
