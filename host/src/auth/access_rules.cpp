// Access rules: parsing and micro's VerifyAccess (access_rules.hpp).
#include <strings.h>

#include <algorithm>
#include <platform/host/core/access_rules.hpp>

namespace platform::host {

using nlohmann::json;

namespace {

bool same(const std::string& a, const std::string& b) {
    return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

bool any_of(const std::vector<std::string>& values, const std::string& v) {
    return std::any_of(values.begin(), values.end(),
                       [&](const std::string& x) { return same(x, v); });
}

// "*", the endpoint itself, and for a path every prefix wildcard: /foo/bar → /*, /foo/*, /foo/bar/*.
std::vector<std::string> valid_endpoints(const std::vector<std::string>& endpoints) {
    std::vector<std::string> out{"*"};
    for (const auto& e : endpoints) {
        out.push_back(e);
        if (e.find('/') == std::string::npos) continue;
        for (size_t i = 0; i <= e.size(); ++i)
            if (i == e.size() || e[i] == '/') out.push_back(e.substr(0, i) + "/*");
    }
    return out;
}

}  // namespace

std::optional<AccessRule> parse_rule(const json& j, std::string& error) {
    if (!j.is_object()) return error = "a rule must be an object", std::nullopt;
    AccessRule r;
    r.id = j.value("id", "");
    if (r.id.empty()) return error = "rule without an id", std::nullopt;
    r.scope = j.value("scope", "");
    if (r.scope == "<public>") r.scope.clear();
    const std::string resource = j.value("resource", "");
    size_t a = resource.find(':'), b = a == std::string::npos ? a : resource.find(':', a + 1);
    if (b == std::string::npos)
        return error = "rule " + r.id + ": resource must be type:name:endpoint", std::nullopt;
    r.type = resource.substr(0, a);
    r.name = resource.substr(a + 1, b - a - 1);
    r.endpoint = resource.substr(b + 1);
    const std::string access = j.value("access", "GRANTED");
    if (same(access, "granted"))
        r.granted = true;
    else if (same(access, "denied"))
        r.granted = false;
    else
        return error = "rule " + r.id + ": access must be GRANTED or DENIED", std::nullopt;
    const json& p = j.contains("priority") ? j["priority"] : json(0);
    if (!p.is_number_integer())
        return error = "rule " + r.id + ": priority must be an integer", std::nullopt;
    r.priority = p.get<int64_t>();
    return r;
}

std::vector<AccessRule> default_rules() {
    return {AccessRule{"default", "", "*", "*", "*", true, 0}};
}

Verdict verify_access(const std::vector<AccessRule>& rules, const RuleAccount* account,
                      const RuleResource& resource, const std::string& ns) {
    std::vector<std::string> types{"*", resource.type}, names{"*"};
    names.insert(names.end(), resource.names.begin(), resource.names.end());
    const std::vector<std::string> endpoints = valid_endpoints(resource.endpoints);

    std::vector<const AccessRule*> applicable;
    for (const auto& r : rules)
        if (any_of(types, r.type) && any_of(names, r.name) && any_of(endpoints, r.endpoint))
            applicable.push_back(&r);
    std::stable_sort(
        applicable.begin(), applicable.end(),
        [](const AccessRule* x, const AccessRule* y) { return x->priority > y->priority; });

    for (const AccessRule* r : applicable) {
        const Verdict decided = r->granted ? Verdict::granted : Verdict::forbidden;
        if (r->scope.empty()) return decided;
        if (!account) continue;
        if (r->scope != "+" && account->issuer != ns) return Verdict::forbidden;
        if (r->scope == "*" || r->scope == "+") return decided;
        if (std::find(account->scopes.begin(), account->scopes.end(), r->scope) !=
            account->scopes.end())
            return decided;
    }
    return Verdict::forbidden;
}

}  // namespace platform::host
