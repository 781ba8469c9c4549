// owned_fixtures.hpp — the ownership sweep's fixtures (another account gets 404), swept by
// owner_sweep.hpp over HTTP (access_test) and MCP (sweep_test), and over the examples in other
// languages (runtime_languages_test).
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

// The marker every fixture puts in A's resource; no answer to B may contain it.
constexpr const char* kMarker = "owned-by-A";

enum class Expect { NotFound, Own, List, Unavailable };
struct OwnedFixture {
    OwnedFixture(std::string create_path, nlohmann::json create_args, nlohmann::json args,
                 Expect expect, std::string read, nlohmann::json read_args,
                 std::string read_shows = kMarker, std::string own_shows = "")
        : create_path(std::move(create_path)),
          create_args(std::move(create_args)),
          args(std::move(args)),
          expect(expect),
          read(std::move(read)),
          read_args(std::move(read_args)),
          read_shows(std::move(read_shows)),
          own_shows(std::move(own_shows)) {}
    std::string create_path;
    nlohmann::json create_args;
    nlohmann::json args;  // what B sends
    Expect expect;        // NotFound: A's id is 404 to B; Own: B makes its own; List: B's own view
    std::string read;     // how A reads its resource back afterwards (args: `read_args`)
    nlohmann::json read_args;
    std::string read_shows;  // what A's read-back must contain
    std::string own_shows;   // Own: what B's answer must contain ("" = not checked)
};

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
