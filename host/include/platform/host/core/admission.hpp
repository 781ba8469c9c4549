// platform/host/core/admission.hpp — may this caller make this call? (docs/identity.md "Admission")
//
// Runs for every call after authentication, before the endpoint's own access level, payment and
// validation: the access rules (access_rules.hpp; the auth provider's rule set, re-read whenever
// its rules_version changes, else the default public rule), the restrictions of the token used
// (services tokens, service lists, capabilities, `actions` on action endpoints), the CSRF check
// for cookie-authenticated state-changing requests, and the per-account rate limit
// (http.account_rate_limit). A refusal is an Outcome: 401 without an account, 403 with one, 429
// with Retry-After.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <platform/host/core/access_rules.hpp>
#include <platform/host/core/calls.hpp>
#include <platform/host/core/identity.hpp>
#include <platform/host/core/rate_limiter.hpp>
#include <string>
#include <vector>

namespace platform::host {

class Runtime;
struct Invocation;
struct ServiceEntry;
struct Endpoint;

class Admission {
public:
    explicit Admission(Runtime& runtime);
    ~Admission();

    // nullopt when the call may go on; else the refusal to answer with.
    std::optional<Outcome> check(const Identity& who, const Invocation& inv,
                                 const ServiceEntry& svc, const Endpoint& ep);
    // Whether `who` may call the endpoint at all — rules, token restrictions and the access level,
    // without counting against a rate limit: what listings (MCP tools/list) show. `ns` = the
    // request's namespace ("" = the host's).
    bool may_call(const Identity& who, const std::string& ns, const ServiceEntry& svc,
                  const Endpoint& ep);
    // The rules in force (the provider's, or the default rule).
    std::vector<AccessRule> rules();
    // The names a service goes by in rules and token lists: "v1.notes", "notes", the full name.
    static std::vector<std::string> service_names(const ServiceEntry& svc);
    // The restrictions of the token used (nullopt = none applies): a services token calls `v1.*`
    // only; a `services` list limits catalogue services, except the assistant services (agent,
    // work, inbox, recall), which need their capability instead (recall: `agent`) — their own
    // calls run as the caller, so the list still limits what they reach; ACTION endpoints need
    // `actions`.
    static std::optional<Outcome> check_token(const Identity& who, const ServiceEntry& svc,
                                              const Endpoint& ep);

private:
    std::optional<Outcome> check_rules(const Identity& who, const Invocation& inv,
                                       const ServiceEntry& svc, const Endpoint& ep);
    static std::optional<Outcome> check_csrf(const Identity& who, const Invocation& inv,
                                             const ServiceEntry& svc, const Endpoint& ep);

    using RuleSet = std::shared_ptr<const std::vector<AccessRule>>;
    // The rules in force without a copy: each thread keeps the set it last used with the
    // provider's version, so a call takes m_ only when the version changed (no process-wide lock
    // on the read path).
    RuleSet current_rules();
    RuleSet fetch_rules(uint64_t version);  // under m_

    Runtime& runtime_;
    const uint64_t instance_;  // tells this Admission's sets apart in the threads' caches
    std::mutex m_;
    bool fetched_ = false;
    uint64_t version_ = 0;
    RuleSet rules_;
    std::unique_ptr<RateLimiter> per_account_;  // nullptr = off
};

}  // namespace platform::host
