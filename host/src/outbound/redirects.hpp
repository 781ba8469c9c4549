// redirects.hpp — private to host/src/outbound: the last step of a fetch, the hops from the first
// URL to the answer. Each hop is decided by the guard (hop_guard.hpp) and then exchanged
// (curl_exchange.hpp); a 301/302/303/307/308 with a Location is followed up to
// outbound.max_redirects unless the request asked for none, 303 (and 301/302 after POST)
// becoming a GET without a body, and credentials (Authorization, Cookie, Proxy-Authorization,
// the provider key) are sent only while the origin is the first one. Blocks for the whole fetch.
#pragma once

#include <platform/host/outbound/outbound.hpp>

#include "fetch_state.hpp"

namespace platform::host::outbound {

// Fetches from `first` (the parsed target URL) to the final answer: a Reply with the response,
// or the failure of the hop that failed, prefixed "redirect to <url>: " after the first hop.
Reply follow_redirects(const ParsedUrl& first, Hop hop, const Target& target, const Limits& limits,
                       const OutboundSettings& s);

}  // namespace platform::host::outbound
