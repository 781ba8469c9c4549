// owned_fixtures.hpp — the ownership sweep's fixtures (another account gets 404),
// shared by access_test (over HTTP) and sweep_test (its MCP twin).
//
// Ownership, swept: every endpoint declaring owner access is listed here with how to make
// account A's resource and the arguments naming it; a new owner endpoint without an entry fails.
// "{id}" in any string of `args` or `read_args` stands for the id A's create call answered (its
// `id`, else its `slug`).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "http_client.hpp"

namespace platform::test {

enum class Expect { NotFound, Own, List, Unavailable };
struct OwnedFixture {
    std::string create_path;
    nlohmann::json create_args;
    nlohmann::json args;  // what B sends
    Expect expect;        // NotFound: A's id is 404 to B; Own: B makes its own; List: B's own view
    std::string read;     // how A reads its resource back afterwards (args: `read_args`)
    nlohmann::json read_args;
};

// The marker every fixture puts in A's resource; no answer to B may contain it.
constexpr const char* kMarker = "owned-by-A";

// `j` with "{id}" replaced by `id` in every string.
nlohmann::json with_id(const nlohmann::json& j, const std::string& id);

// Makes A's resource of fixture `f` through `c` with A's headers `owner`: the id the create call
// answered ("" when its data has none), or nullopt and a test failure naming `path` (the endpoint
// swept) when the call is refused.
std::optional<std::string> create_owned(HttpClient& c, const OwnedFixture& f, const Headers& owner,
                                        const std::string& path);

// Every owner endpoint's fixture, by /api/v1 path.
const std::map<std::string, OwnedFixture>& owned_fixtures();

}  // namespace platform::test
