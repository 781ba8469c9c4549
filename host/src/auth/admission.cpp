// Admission: rules, token restrictions, CSRF, per-account rate limit (admission.hpp).
#include <openssl/crypto.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <platform/host/core/admission.hpp>
#include <platform/host/core/runtime.hpp>

namespace platform::host {

using nlohmann::json;

namespace {

void sink_string(void* user, platform_str_t b) {
    static_cast<std::string*>(user)->append(b.ptr ? b.ptr : "", b.len);
}

std::atomic<uint64_t> admissions{0};  // Admission instances made (their ids)

Outcome refuse(platform_status_t code, std::string message) {
    return Outcome{code, std::move(message)};
}

std::string call_name(const ServiceEntry& svc, const Endpoint& ep) {
    return svc.name + ":" + ep.method;
}

bool listed(const std::vector<std::string>& list, const std::vector<std::string>& names) {
    for (const auto& entry : list) {
        std::string e = entry.rfind("service:", 0) == 0 ? entry.substr(8) : entry;
        if (std::find(names.begin(), names.end(), e) != names.end()) return true;
    }
    return false;
}

// The assistant services and the capability each needs: agent, work and inbox their
// own; recall (the agent's conversations) the agent's. A token's `services` list does not limit
// them: it limits what they reach, since their calls run as the caller (decision 30).
const char* capability_of(const std::string& short_name) {
    for (const char* c : {"agent", "work", "inbox"})
        if (short_name == c) return c;
    if (short_name == "recall") return "agent";
    return nullptr;
}

}  // namespace

Admission::Admission(Runtime& runtime) : runtime_(runtime), instance_(++admissions) {
    const auto& limit = runtime.profile().http.account_rate_limit;
    if (limit.enabled())
        per_account_ = std::make_unique<RateLimiter>(
            limit.requests_per_second,
            limit.burst > 0 ? limit.burst : std::max(1.0, limit.requests_per_second));
    if (per_account_ && limit.shared)  // counted in the store (decision 72)
        per_account_->share(store_rate_counters(runtime), "account");
}

Admission::~Admission() = default;

std::vector<std::string> Admission::service_names(const ServiceEntry& svc) {
    std::vector<std::string> names{svc.relative};
    if (svc.relative.rfind("v1.", 0) == 0) names.push_back(svc.relative.substr(3));
    names.push_back(svc.name);
    return names;
}

std::vector<AccessRule> Admission::rules() {
    return *current_rules();
}

namespace {
const std::shared_ptr<const std::vector<AccessRule>>& default_set() {
    static const auto set = std::make_shared<const std::vector<AccessRule>>(default_rules());
    return set;
}
}  // namespace

Admission::RuleSet Admission::current_rules() {
    Plugin* auth = runtime_.provider("auth");
    const auto* table =
        auth ? static_cast<const platform_auth_provider_t*>(auth->desc->provider) : nullptr;
    const bool has_rules =
        table &&
        table->struct_size >= offsetof(platform_auth_provider_t, rules) + sizeof(table->rules) &&
        table->rules_version && table->rules;
    if (!has_rules) return default_set();
    const uint64_t version = table->rules_version(auth->instance);
    struct Cached {
        uint64_t instance = 0, version = 0;
        RuleSet set;
    };
    thread_local Cached cached;
    if (cached.set && cached.instance == instance_ && cached.version == version) return cached.set;
    RuleSet set;
    {
        std::lock_guard<std::mutex> g(m_);
        set = fetch_rules(version);
    }
    cached = Cached{instance_, version, set};
    return set;
}

Admission::RuleSet Admission::fetch_rules(uint64_t version) {
    if (fetched_ && version == version_) return rules_;
    Plugin* auth = runtime_.provider("auth");
    const auto* table = static_cast<const platform_auth_provider_t*>(auth->desc->provider);
    std::string text;
    if (table->rules(auth->instance, sink_string, &text) != PLATFORM_OK) {
        spdlog::error("auth provider {} could not list its rules; keeping the previous set",
                      auth->id);
        return fetched_ ? rules_ : default_set();
    }
    json list = json::parse(text, nullptr, false);
    std::vector<AccessRule> parsed;
    if (list.is_array())
        for (const auto& j : list) {
            std::string error;
            if (auto r = parse_rule(j, error))
                parsed.push_back(std::move(*r));
            else
                spdlog::warn("auth provider {}: rule ignored: {}", auth->id, error);
        }
    else
        spdlog::error("auth provider {} lent rules that are not a JSON array", auth->id);
    rules_ = std::make_shared<const std::vector<AccessRule>>(std::move(parsed));
    version_ = version;
    fetched_ = true;
    return rules_;
}

std::optional<Outcome> Admission::check(const Identity& who, const Invocation& inv,
                                        const ServiceEntry& svc, const Endpoint& ep) {
    if (auto r = check_rules(who, inv, svc, ep)) return r;
    // An internal endpoint is reached only through a plugin whose own public method the token
    // already passed (decision 31): its services and capabilities were checked there.
    if (!ep.internal())
        if (auto r = check_token(who, svc, ep)) return r;
    if (auto r = check_csrf(who, inv, svc, ep)) return r;
    if (per_account_ && !who.anonymous() && who.type != "service") {
        auto d = per_account_->check(who.id);
        if (!d.allowed) {
            Outcome o = refuse(PLATFORM_RATE_LIMITED,
                               "rate limit for account " + who.id + " exceeded; retry in " +
                                   std::to_string(d.retry_after_seconds) + " s");
            o.headers.emplace_back("Retry-After", std::to_string(d.retry_after_seconds));
            return o;
        }
    }
    return std::nullopt;
}

bool Admission::may_call(const Identity& who, const std::string& ns, const ServiceEntry& svc,
                         const Endpoint& ep) {
    if (ep.access != PLATFORM_ACCESS_PUBLIC && who.anonymous()) return false;
    if (ep.access == PLATFORM_ACCESS_ADMIN && !who.has_scope("admin")) return false;
    Invocation inv;
    inv.ns = ns;
    return !check_rules(who, inv, svc, ep) && !check_token(who, svc, ep);
}

std::optional<Outcome> Admission::check_rules(const Identity& who, const Invocation& inv,
                                              const ServiceEntry& svc, const Endpoint& ep) {
    RuleResource res{"service", service_names(svc), {ep.method, ep.name}};
    RuleAccount account{who.id, who.issuer, who.scopes};
    const std::string& ns = inv.ns.empty() ? runtime_.settings().ns : inv.ns;
    if (verify_access(*current_rules(), who.anonymous() ? nullptr : &account, res, ns) ==
        Verdict::granted)
        return std::nullopt;
    if (who.anonymous())
        return refuse(PLATFORM_UNAUTHENTICATED, "Unauthorized call made to " + call_name(svc, ep));
    return refuse(PLATFORM_PERMISSION_DENIED,
                  "Forbidden call made to " + call_name(svc, ep) + " by " + who.id +
                      (who.issuer != ns ? " (account of namespace " + who.issuer + ")" : ""));
}

std::optional<Outcome> Admission::check_token(const Identity& who, const ServiceEntry& svc,
                                              const Endpoint& ep) {
    const auto names = service_names(svc);
    const std::string& short_name = names.size() > 2 ? names[1] : names[0];
    auto forbidden = [&](const std::string& why) {
        return refuse(PLATFORM_PERMISSION_DENIED,
                      "Forbidden call made to " + call_name(svc, ep) + ": " + why);
    };
    if (who.credential_kind == "services" && svc.relative.rfind("v1.", 0) != 0)
        return forbidden("a services token calls catalogue services only");
    const char* cap = capability_of(short_name);
    if (!who.services.empty() && !cap && !listed(who.services, names)) {
        std::string list;
        for (const auto& s : who.services) list += (list.empty() ? "" : ", ") + s;
        return forbidden("the token is scoped to " + list);
    }
    if ((ep.flags & PLATFORM_FLAG_ACTION) && !who.has_capability("actions"))
        return forbidden("the token lacks the `actions` capability (Allow actions)");
    if (cap && !who.has_capability(cap))
        return forbidden(std::string("the token lacks the `") + cap + "` capability");
    return std::nullopt;
}

std::optional<Outcome> Admission::check_csrf(const Identity& who, const Invocation& inv,
                                             const ServiceEntry& svc, const Endpoint& ep) {
    if (!inv.via_cookie) return std::nullopt;
    const std::string& m = inv.http_method;
    if (m.empty() || m == "GET" || m == "HEAD" || m == "OPTIONS") return std::nullopt;
    auto it = inv.headers.find("x-csrf-token");
    const std::string given = it == inv.headers.end() ? "" : it->second;
    if (!who.csrf.empty() && given.size() == who.csrf.size() &&
        CRYPTO_memcmp(given.data(), who.csrf.data(), given.size()) == 0)
        return std::nullopt;
    return refuse(PLATFORM_PERMISSION_DENIED, "Forbidden call made to " + call_name(svc, ep) +
                                                  ": a cookie-authenticated " + m +
                                                  " needs the X-CSRF-Token header of the session");
}

}  // namespace platform::host
