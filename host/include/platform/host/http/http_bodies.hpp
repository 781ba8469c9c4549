// platform/host/http/http_bodies.hpp — response bodies of the HTTP surfaces, in one place.
#pragma once

#include <optional>
#include <platform/host/core/calls.hpp>
#include <platform/host/http/gateway.hpp>
#include <string>

namespace platform::host {

// Gateway error: {"Id","Code","Detail","Status"} with the matching HTTP status.
HttpResponse gateway_error(const std::string& id, int http_status, const std::string& detail);

// /api/v1 error: {"error":{"code","message"}}.
HttpResponse catalogue_error(int http_status, const std::string& code, const std::string& message);
HttpResponse catalogue_status(platform_status_t code, const std::string& message);

// A plugin's outcome on a gateway route: the raw result, or a gateway error with id `id`.
// Appends the host's answer headers of an outcome (Outcome::headers) to a response.
HttpResponse with_outcome_headers(HttpResponse r, Outcome& o);
// A failure the host answered with its own body (Outcome::raw, e.g. a 402 challenge), else nullopt.
std::optional<HttpResponse> raw_failure(Outcome& o);
HttpResponse gateway_outcome(const std::string& id, Outcome o);
// A plugin's outcome on /api/v1: {"data": r} or {"result": r}, or a catalogue error. `r` is the
// plugin's answer as it came (not parsed and written again); an answer that is not JSON is a 500
// "the service answered invalid JSON".
HttpResponse catalogue_outcome(Outcome o, bool result_envelope);

}  // namespace platform::host
