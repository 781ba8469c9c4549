// fetch_request.hpp — private to host/src/outbound: the first step of a fetch, normalising what
// the plugin asked for — the request struct up to its struct_size, the method, the headers and
// the limits. Pure functions of their arguments; no I/O.
#pragma once

#include <optional>
#include <platform/host/outbound/outbound.hpp>

#include "fetch_state.hpp"

namespace platform::host::outbound {

// A copy of `in` with the fields past an older plugin's struct_size read as zeros. The copy views
// the same strings as `in`.
platform_http_request_t read_request(const platform_http_request_t& in);

// The first hop from `req`: the method (GET when empty) in upper case, the body, and headers_json
// validated (an object of strings, token names, single-line values, none of the headers the
// client sets). A failure is INVALID_ARGUMENT naming the method or the header; nullopt on success.
std::optional<Reply> read_hop(const platform_http_request_t& req, Hop& hop);

// The request's timeout and response cap, or the settings' when the request gives 0 — except that
// a provider's own timeout_ms, when the profile sets one, is the timeout of every request to it;
// the deadline counts from now. PLATFORM_HTTP_NO_REDIRECTS turns following off.
Limits fetch_limits(const platform_http_request_t& req, const OutboundSettings& s);

}  // namespace platform::host::outbound
