// bad_inputs.hpp — bad arguments generated from an endpoint's input schema, for the registry-wide
// sweeps of issue 11 (tests/integration/sweep_test.cpp).
//
//   for (const BadInput& c : bad_inputs(schema, {.max_body = op.max_body}))
//       post(path, c.body()) → a 4xx whose message names(c.argument)
//
// Each case breaks exactly one thing and keeps every required argument valid (the baseline), so
// the validator's first complaint is about the argument the case is about. Kinds:
//   missing          each required argument left out
//   wrong_type       each typed argument given each JSON type its schema refuses (a string,
//                    7.5, true, {}, [], null)
//   out_of_range     below minimum / above maximum (exclusive bounds included), shorter than
//                    minLength, "" for a required string, not in enum, fewer than minItems,
//                    more than maxItems
//   oversize         maxLength + 1 characters; where a string has no maxLength, ~1 MiB (kept
//                    under the endpoint's body limit) — valid by the schema, so the plugin runs
//   invalid_utf8     a string argument holding an ill-formed byte sequence (raw body bytes)
//   malformed_json   a truncated body, trailing garbage, a body that is not an object
//   unknown_argument an argument the schema does not declare
//   at_limits        not bad: each argument at the edge of what its schema allows (minimum,
//                    maximum, every enum value, maxLength two-byte characters, maxItems items,
//                    true), so the plugins, not only the host's validator, meet extreme input
// Cases that are valid by the schema (`valid_by_schema`: at_limits, and the two above where the
// schema allows them) reach the plugin: they must not fail with a 5xx, but may succeed.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace platform::test {

enum class BadKind {
    missing,
    wrong_type,
    out_of_range,
    oversize,
    invalid_utf8,
    malformed_json,
    unknown_argument,
    at_limits
};
constexpr int kBadKinds = 8;
const char* kind_name(BadKind kind);

struct BadInput {
    BadKind kind;
    std::string label;             // what is wrong, for failure lists: "limit = 0 (minimum 1)"
    std::string argument;          // what the error must name ("body" for malformed JSON)
    nlohmann::json args;           // the arguments sent, when `raw` is empty
    std::string raw;               // exact body bytes (malformed JSON, invalid UTF-8)
    bool valid_by_schema = false;  // the plugin runs: any answer but a 5xx is fine
    std::string body() const { return raw.empty() ? args.dump() : raw; }
};

// A value that satisfies `schema`: its const, default, first enum value or example, else one
// built from its type and limits (strings are tried against pattern and format from a small list
// of candidates). nullopt when none of that satisfies it.
std::optional<nlohmann::json> valid_value(const nlohmann::json& schema);

// Every required argument of an object schema with a valid value; `unsatisfiable` names those
// valid_value could not build.
struct Baseline {
    nlohmann::json args = nlohmann::json::object();
    std::vector<std::string> unsatisfiable;
};
Baseline baseline(const nlohmann::json& schema);

struct BadInputOptions {
    std::size_t max_body = 1 << 20;  // the endpoint's body limit (x-platform-max-body)
    bool raw_bodies = true;          // generate invalid_utf8 and malformed_json (HTTP only)
};
// Every case for an endpoint's input schema. Cases whose target needs a baseline that could not
// be built are left out (see Baseline::unsatisfiable).
std::vector<BadInput> bad_inputs(const nlohmann::json& schema, const BadInputOptions& options = {});

// True when `message` names `argument` as a whole word: "id" is named by "id: is required" but
// not by "invalid".
bool names(const std::string& message, const std::string& argument);

}  // namespace platform::test
