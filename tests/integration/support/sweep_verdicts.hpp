// sweep_verdicts.hpp — whether an answer is right for a case of the registry-wide sweeps
// (bad_inputs.hpp, tests/integration/sweep_test.cpp).
//
// A case that is bad by the schema must get a 4xx JSON error naming its argument (HTTP:
// `error.message`, or `Detail` on the built-ins' gateway routes) or an MCP result with isError:
// true whose text names it. A case valid by the schema reaches the plugin: any answer but a 5xx
// or an MCP internal error. 501 (not supported here) and 503 (a provider that is not configured or
// is stopping, named in the message) are allowed anywhere; 502 and 504 only from an endpoint that
// declares it reaches an upstream (`upstream`: the open_world flag). A 500 is never right.
// Every HTTP error body must agree with its status (abi.h's table: 413 is payload_too_large),
// and a number sent at its limits that the answer echoes under its own name must come back
// unchanged (an offset read into an int or a uint32 comes back wrapped).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "bad_inputs.hpp"
#include "http_client.hpp"

namespace platform::test {

// nullopt when the answer is right for the case, else what is wrong with it.
std::optional<std::string> judge_http(const BadInput& c, const HttpResult& r, bool upstream);
std::optional<std::string> judge_mcp(const BadInput& c, const HttpResult& r, bool upstream);
// The code of an MCP tool result's structured error ({error: {code}}), or "" when it has none.
std::string error_code_of(const nlohmann::json& result);

// The JSON-RPC response of a POST /mcp answer (application/json or an event stream), or null.
nlohmann::json mcp_response(const HttpResult& r);

// At most 160 characters of `s`, for failure lists.
std::string shorten(std::string s);

}  // namespace platform::test
