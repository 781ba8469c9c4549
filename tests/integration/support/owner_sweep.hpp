// owner_sweep.hpp — ownership swept over every owner endpoint (owned_fixtures.hpp), over HTTP
// (access_test.cpp) and MCP tools/call (sweep_test.cpp), and over the C, Rust and Go examples
// started with `platform run` (runtime_languages_test.cpp).
//
// For each operation with owner access: account A makes its resource (the fixture's create call,
// over HTTP), account B calls the operation with the fixture's arguments naming A's resource and
// gets what the fixture expects — 404 (MCP: an isError not_found result), its own resource, its
// own list, or 503 — and nothing of A's (kMarker) in the answer; then A reads its resource back
// unchanged (the fixture's `read`, which must show `read_shows`). An owner operation without a
// fixture fails the test. Failures are reported through gtest; nothing here throws.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "http_client.hpp"
#include "registry_sweep.hpp"

namespace platform::test {

// The bearer texts of accounts A and B for the `index`th owner operation swept.
struct OwnerPair {
    std::string a, b;
};
using OwnerAccounts = std::function<OwnerPair(const SweptOperation& op, int index)>;

// Over HTTP through `c`: the number of owner operations of `ops` swept.
int owner_sweep_http(HttpClient& c, const std::vector<SweptOperation>& ops,
                     const OwnerAccounts& accounts);

struct McpOwnerSweep {
    int swept = 0;      // owner operations that are tools, swept
    int not_tools = 0;  // owner operations B's tools/list does not offer (left out)
};
// Over MCP to the host on `port` (A's resource made over HTTP through `c`).
McpOwnerSweep owner_sweep_mcp(int port, HttpClient& c, const std::vector<SweptOperation>& ops,
                              const OwnerAccounts& accounts);

}  // namespace platform::test
