// provider_target.hpp — private to host/src/outbound: the second step of a fetch, deciding where
// the first hop goes. An absolute URL goes where it says; a provider request (`provider` set)
// joins its path to providers.<name>.base_url and places providers.<name>.api_key as
// api_key_header says (a header for the first origin, or a query parameter). No I/O.
#pragma once

#include <optional>
#include <platform/host/outbound/outbound.hpp>

#include "fetch_state.hpp"

namespace platform::host::outbound {

// Fills `target` from `req` (read_request's copy) and the provider settings in `s`. A failure is
// UNAVAILABLE naming the missing setting (base_url, or api_key when key_required) or
// INVALID_ARGUMENT for an absolute URL in a provider request; nullopt on success.
std::optional<Reply> resolve_target(const platform_http_request_t& req, const OutboundSettings& s,
                                    Target& target);

}  // namespace platform::host::outbound
