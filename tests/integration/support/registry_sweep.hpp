// registry_sweep.hpp — the registry-wide bad-input sweep (issue 11): every endpoint the host
// serves, read at run time from /api/v1/openapi.json (HTTP) and tools/list (MCP), gets the cases
// bad_inputs.hpp generates from its input schema, so a new plugin — built in, or started with
// `platform run` — is covered without editing a test. The answers are judged by
// sweep_verdicts.hpp. Used by sweep_test.cpp (every plugin, test and kubernetes profiles),
// access_test.cpp and runtime_languages_test.cpp (the C, Rust and Go examples).
//
//   HTTP  POST <path> with a JSON body, every kind of case; GET endpoints also get invalid UTF-8
//         through the query string. kSweepTimeoutMs per request: a hang is a failure.
//   MCP   tools/call with the same arguments (no raw bodies: a body that is not JSON is -32700 at
//         the transport) — isError results naming the argument, never a JSON-RPC error.
// Valid calls (at the limits, ~1 MiB strings, undeclared arguments where allowed) are not made to
// streaming endpoints or the business clock (the tally's `skipped`, with the reason). Failures are
// collected, then listed at once by report_sweep. SWEEP_VERBOSE=1 prints every case with
// its answer on stderr.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "bad_inputs.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"

namespace platform::test {

constexpr int kSweepTimeoutMs = 10000;

// One operation of the OpenAPI document (each path is POST-able).
struct SweptOperation {
    std::string path;     // "/api/v1/notes/add", "/registry/listServices"
    std::string service;  // "notes", "registry"
    std::string tool;     // "notes_add" for /api/v1 paths (its MCP tool, if it is one), else ""
    std::string access;   // x-platform-access: "public", "owner", "admin", ...
    std::set<std::string> flags;  // x-platform-flags: "read_only", "action", "open_world", ...
    nlohmann::json schema;        // the JSON request body's schema
    size_t max_body = 1 << 20;    // x-platform-max-body
    bool get = false;             // the path answers GET too
};

// Every operation of GET /api/v1/openapi.json whose path starts with `path_prefix` ("" = all).
std::vector<SweptOperation> registry_operations(HttpClient& c, const std::string& path_prefix = "");

// The bearer texts the sweep calls with: `admin` for endpoints with admin access, `caller` for
// the rest. On auth-noop (the test profile) a bearer text is the account id itself.
struct SweepCallers {
    std::string caller = "sweeper", admin = "admin";
    const std::string& of(const SweptOperation& op) const {
        return op.access == "admin" ? admin : caller;
    }
};

// What one sweep did and found.
struct SweepTally {
    int calls = 0;
    std::set<std::string> endpoints;  // paths (HTTP) or tools (MCP) swept
    std::set<BadKind> kinds;
    std::vector<std::string> failures, skipped;
    std::map<std::string, int> answers;  // "bad 400", "valid 200", "bad isError", ... → count

    void answered(const BadInput& c, const std::string& what);
    void fail(const std::string& where, const BadInput& c, const std::string& what);
    std::string answers_line() const;   // "bad 400 x12, valid 200 x3"
    std::string failures_text() const;  // one indented line per failure
};

// Every case of every operation in `ops` over HTTP to the host on `port`, reconnecting after a
// timeout.
SweepTally sweep_http(int port, const std::vector<SweptOperation>& ops,
                      const SweepCallers& callers = {});

// Every case but raw bodies of every operation in `ops` that is an MCP tool for its caller.
SweepTally sweep_mcp(int port, const std::vector<SweptOperation>& ops,
                     const SweepCallers& callers = {});

// Prints the sweeps' figures (lines starting "sweep: ") with their wall times in seconds, and
// fails the test listing every failure, or when the HTTP sweep tried fewer than kBadKinds kinds.
void report_sweep(const SweepTally& http, double http_seconds, const SweepTally& mcp,
                  double mcp_seconds);

// An initialized MCP client for `token`, its reads bounded by kSweepTimeoutMs.
std::unique_ptr<McpClient> sweep_mcp_client(int port, const std::string& token);

// tools/call `tool` with `args` as message `id`, the raw answer (the arguments' ill-formed UTF-8
// replaced, so the message stays JSON).
HttpResult call_tool(McpClient& m, int id, const std::string& tool, const nlohmann::json& args);

}  // namespace platform::test
