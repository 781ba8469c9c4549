// dynamic.hpp — commands built at run time from the registry's descriptors (docs/cli.md).
//
// `platform <service> <method> --arg value`: the service's getService entry gives each method's
// JSON Schema, which types the flags (integer, number, boolean, array, object), flattens nested
// fields with underscores (--options_domain sets options.domain) and writes the help. Nothing
// about an endpoint is written twice: the CLI knows only what the descriptor says.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace platform::cli {

// Bad command-line usage: exit code 2.
class UsageError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct MethodInfo {
    std::string name;       // as typed: "add", "listServices"
    std::string canonical;  // "Notes.Add"
    std::string title, description, verb, access, flags, path, max_body, since, price;
    nlohmann::json schema;
    std::vector<std::string> order;  // top-level argument names in declaration order
};

struct ServiceInfo {
    std::string name;   // full: go.core.api.v1.notes
    std::string typed;  // as the user typed it: notes
    std::string summary;
    std::vector<MethodInfo> methods;
};

// From one entry of registry getService's "services".
ServiceInfo service_info(const nlohmann::json& service, const std::string& typed);

// By name, canonical method, or the name with '-' for '_' ("mark-read"); nullptr when unknown.
const MethodInfo* find_method(const ServiceInfo& s, const std::string& word);

// Turns `--flag value` / `--flag=value` arguments into the request object (micro's dynamic
// flags). A flag names a top-level property, or a nested one with its path joined
// by '_' (`--options_domain x` -> {"options":{"domain":"x"}}); a property literally named
// `user_email` wins over the nested reading. Values are coerced by the schema: integer, number,
// boolean (a bare `--flag` is true; `--flag false` / `--flag=false` too), object (JSON), array
// (the flag repeated, or one value split on commas, or a JSON array: `--ids=1,2`, `--ids 1,2`,
// `--ids=1 --ids=2`, `--ids 1 --ids 2`, `--ids '[1,2]'`, items coerced by `items`), string as is.
// Throws UsageError ("Unknown flag: --zz", "--limit: must be an integer (got 'x')", "--title: must
// be UTF-8 text ..." for a value with other bytes).
// `read`, when set, sees every value given to a flag (not a bare boolean's implied `true`) and
// answers the text to use instead: the CLI reads `@file` and `-` (stdin) there.
using ValueReader = std::function<std::string(const std::string& flag, const std::string& value)>;
nlohmann::json parse_flags(const MethodInfo& m, const std::vector<std::string>& args,
                           const ValueReader& read = {});

// The first required argument `request` lacks, as its flag ("--title"; "--options_domain" for a
// required field of an object that was given), or "" when none is missing.
std::string missing_required(const MethodInfo& m, const nlohmann::json& request);

// May a call of `m` be repeated after a 500/408 (rpc_client.hpp)? Only when it is not a
// submission: verb GET, or flagged read_only or idempotent.
bool retryable(const MethodInfo& m);

// `platform <service> --help` and `platform help <service> <method>`: an example first, then
// verb, path, access, flags, body limit, and every argument with its type, whether it is
// required, its limits (enum, min/max, length, default) and description.
std::string service_help(const ServiceInfo& s);
std::string method_help(const ServiceInfo& s, const MethodInfo& m);

}  // namespace platform::cli
