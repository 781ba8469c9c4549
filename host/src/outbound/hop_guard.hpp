// hop_guard.hpp — private to host/src/outbound: the decision taken before every hop (the first
// URL and each redirect) about where curl may connect. A trusted hop (operator or provider URL
// whose host:port is in outbound.allow) is left to curl; otherwise the SSRF guard refuses the
// metadata names and special addresses (guard.cpp) and pins the resolved, checked addresses.
// Resolves names with getaddrinfo (blocking); thread-safe.
#pragma once

#include <platform/abi.h>

#include <platform/host/outbound/outbound.hpp>
#include <string>
#include <vector>

namespace platform::host::outbound {

// One hop's decision. status OK: connect, to `pins` when not empty ("1.2.3.4", "[::1]"), else
// wherever curl resolves the name (a trusted hop or an IP literal). Otherwise PERMISSION_DENIED
// (a refused name or address) or BAD_GATEWAY (the name does not resolve), `error` saying why.
struct Decision {
    platform_status_t status = PLATFORM_OK;
    std::string error;
    std::vector<std::string> pins;
};

// Decides the hop to `u`. `operator_kind`: the fetch is for an operator or provider URL, so
// outbound.allow may trust it and a refusal adds that such targets belong in outbound.allow.
Decision decide(const ParsedUrl& u, bool operator_kind, const OutboundSettings& s);

}  // namespace platform::host::outbound
