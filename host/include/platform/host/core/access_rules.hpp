// platform/host/core/access_rules.hpp — access rules and micro's verification algorithm.
//
// A rule: id, scope (`""` = `<public>` anyone; `*` any account of the namespace; `+` any account
// of any namespace; otherwise a scope the account must hold), access GRANTED | DENIED, resource
// `type:name:endpoint` where each part may be `*` and an endpoint may end in `/*` (a path prefix),
// and a priority. verify_access() is micro's `VerifyAccess`: keep the rules whose type, name and
// endpoint match the resource (case-insensitively; a resource may have several name aliases —
// `v1.notes` is also `notes`), stable-sort them by priority, highest first, and let the first one
// that applies decide:
//   - a public rule decides for anyone;
//   - without an account the rule does not apply;
//   - an account issued by another namespace is refused, unless the scope is `+`;
//   - `*` / `+`, or a scope the account holds, decides;
// and when none decides the answer is Forbidden.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace platform::host {

struct AccessRule {
    std::string id;
    std::string scope;  // "" public, "*" account, "+" any namespace, else a named scope
    std::string type, name, endpoint;
    bool granted = true;
    int64_t priority = 0;
};

struct RuleResource {
    std::string type = "service";
    std::vector<std::string> names;      // the service's names: relative, short, qualified
    std::vector<std::string> endpoints;  // "Notes.Add", "add", or a path "/foo/bar"
};

struct RuleAccount {
    std::string id, issuer;
    std::vector<std::string> scopes;
};

enum class Verdict { granted, forbidden };

// Parses one rule as the auth provider lends it ({"id","scope","resource","access","priority"});
// nullopt with `error` set when malformed. `<public>` is accepted for the empty scope.
std::optional<AccessRule> parse_rule(const nlohmann::json& j, std::string& error);

// The default rule set: `default`, public, GRANTED on `*:*:*`, priority 0.
std::vector<AccessRule> default_rules();

// micro's VerifyAccess. `account` is nullptr for an anonymous caller.
Verdict verify_access(const std::vector<AccessRule>& rules, const RuleAccount* account,
                      const RuleResource& resource, const std::string& ns);

}  // namespace platform::host
