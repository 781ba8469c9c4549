// platform/host/http/trace_context.hpp — request ids and W3C Trace Context on the HTTP surfaces.
//
// X-Request-Id: a client's value is kept when it is 1..128 printable ASCII characters without
// spaces (the gateway's own rule), otherwise 16 random hex digits are generated. It is echoed on
// the response, passed to plugins as call metadata and written in the access log.
// traceparent (https://www.w3.org/TR/trace-context/#traceparent-header): a valid incoming value is
// propagated unchanged into call metadata and echoed on the response; an invalid or missing one
// is replaced by a new `00-<32 hex trace id>-<16 hex parent id>-00`.
#pragma once

#include <string>
#include <string_view>

namespace platform::host {

// The request id to use for a request whose X-Request-Id header is `given` ("" = none).
std::string request_id_for(const std::string& given);

// True when `value` is a traceparent this host propagates: version 00 exactly 55 characters,
// a later version (not ff) at least 55 followed by '-' when longer; lower-case hex fields;
// trace id and parent id not all zero.
bool valid_traceparent(std::string_view value);

// A new traceparent (version 00, random ids, flags 00).
std::string new_traceparent();

// The trace id inside a valid traceparent ("" otherwise).
std::string trace_id_of(std::string_view traceparent);

}  // namespace platform::host
