// dynamic.hpp — commands built at run time from the registry's descriptors (DESIGN §9).
//
// `platform <service> <method> --arg value`: the service's getService entry gives each method's
// JSON Schema, which types the flags (integer, number, boolean, array, object), flattens nested
// fields with underscores (--options_domain sets options.domain) and writes the help. Nothing
// about an endpoint is written twice: the CLI knows only what the descriptor says.
#pragma once

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
    std::string title, description, verb, access, flags, path;
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

// Turns `--flag value` / `--flag=value` arguments into the request object. Throws UsageError
// ("Unknown flag: --zz", "--limit: must be an integer (got 'x')").
nlohmann::json parse_flags(const MethodInfo& m, const std::vector<std::string>& args);

std::string service_help(const ServiceInfo& s);
std::string method_help(const ServiceInfo& s, const MethodInfo& m);

}  // namespace platform::cli
