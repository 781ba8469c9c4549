// auth-local — settings, start-up, and the provider side: a credential to the identity JSON.
//
// A credential with two dots is an ES256 access token: signature and algorithm (jwt.cpp), expiry
// on the business clock, the account still existing and the login (grant) it came from not
// revoked. Anything else must be an opaque token of 43 base64url characters, found by its sha256:
// personal, services or session (refresh tokens are not bearer credentials). The identity always
// carries the account's current scopes.
#include <sodium.h>

#include <cstdlib>
#include <stdexcept>

#include "auth_local.hpp"

namespace auth_local {

namespace {

uint64_t next_instance() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1);
}

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::string string_setting(const json& c, const char* key, const std::string& fallback) {
    auto it = c.find(key);
    if (it == c.end() || it->is_null()) return fallback;
    if (!it->is_string())
        throw std::runtime_error(std::string("auth-local: config `") + key + "` must be a string");
    return it->get<std::string>().empty() ? fallback : it->get<std::string>();
}

int64_t int_setting(const json& c, const char* key, int64_t fallback, int64_t lo, int64_t hi) {
    auto it = c.find(key);
    if (it == c.end() || it->is_null()) return fallback;
    if (!it->is_number_integer() || it->get<int64_t>() < lo || it->get<int64_t>() > hi)
        throw std::runtime_error(std::string("auth-local: config `") + key +
                                 "` must be an integer from " + std::to_string(lo) + " to " +
                                 std::to_string(hi));
    return it->get<int64_t>();
}

// libsodium first: randomness and argon2id need it.
Settings prepare(const platform::Host& host, const json& config) {
    if (sodium_init() < 0) throw std::runtime_error("auth-local: libsodium failed to initialise");
    const json ns = host.config("platform.namespace");
    return Settings::from(config, ns.is_string() ? ns.get<std::string>() : "go.core.api");
}

}  // namespace

Settings Settings::from(const json& c, const std::string& host_namespace) {
    if (!c.is_object()) throw std::runtime_error("auth-local: config must be an object");
    Settings s;
    s.ns = string_setting(c, "namespace", host_namespace);
    if (!valid_namespace(s.ns))
        throw std::runtime_error("auth-local: config `namespace` is not a valid namespace");
    s.admin_secret = string_setting(c, "admin_secret", env("PLATFORM_ADMIN_SECRET"));
    s.private_key = string_setting(c, "private_key", env("PLATFORM_AUTH_PRIVATE_KEY"));
    auto da = c.find("disable_admin");
    if (da != c.end() && !da->is_null()) {
        if (!da->is_boolean())
            throw std::runtime_error("auth-local: config `disable_admin` must be true or false");
        s.disable_admin = da->get<bool>();
    }
    s.argon2_ops = static_cast<uint64_t>(int_setting(
        c, "argon2_ops", crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_OPSLIMIT_MIN, 20));
    s.argon2_mem = static_cast<uint64_t>(
                       int_setting(c, "argon2_mem_kib", crypto_pwhash_MEMLIMIT_INTERACTIVE / 1024,
                                   crypto_pwhash_MEMLIMIT_MIN / 1024, 1024 * 1024)) *
                   1024;
    s.token_expiry = int_setting(c, "token_expiry", 900, 60, 86400);
    s.refresh_days = int_setting(c, "refresh_days", 30, 1, 3650);
    s.session_days = int_setting(c, "session_days", 7, 1, 365);
    return s;
}

AuthLocal::AuthLocal(const platform::Host& host, const json& config)
    : host_(host),
      settings_(prepare(host, config)),
      accounts_(host.store(), settings_.argon2_ops, settings_.argon2_mem),
      tokens_(host.store()),
      rules_(host.store()),
      instance_(next_instance()) {
    accounts_.count_changes_in(&changes_);
    tokens_.count_changes_in(&changes_);
}

AuthLocal::~AuthLocal() {
    stop();
}

// Replicas sharing the store: a change of the rules made through any of them is announced on
// the broker (kRulesTopic) and makes every one read the stored version again (rules.cpp). Without
// a broker (or when it drops a message) the 5 s re-read remains.
void AuthLocal::start() {
    const platform_host_api_t* api = host_.api();
    const bool broker = PLATFORM_HAS_FIELD(platform_host_api_t, api, broker_unsubscribe) &&
                        api->broker_publish && api->broker_subscribe && api->broker_unsubscribe;
    if (broker) {
        rules_.on_change([this] {
            const std::string body = json{{"version", rules_.version()}}.dump();
            host_.api()->broker_publish(host_.ctx(), platform::view(kRulesTopic),
                                        platform::view(body), platform::view("{}"));
        });
        auto message = [](void* user, platform_str_t, platform_str_t, platform_str_t) {
            static_cast<Rules*>(user)->reread();
        };
        if (api->broker_subscribe(host_.ctx(), platform::view(kRulesTopic), platform::view(""),
                                  message, &rules_, &subscription_) != PLATFORM_OK)
            subscription_ = 0;
    }
    jwt_.load(host_, settings_.private_key);
    rules_.ensure_default();
    // On a first start this creates `admin`, hashing its secret with argon2id at full strength:
    // ~200 M instructions and 64 MiB, nearly half of the host's whole start. It runs on its own
    // thread while the other plugins load and the listener opens; a login arriving meanwhile
    // calls ensure_admin too and waits for it (decision 80).
    admin_thread_ = std::thread([this] {
        try {
            ensure_admin(settings_.ns);
        } catch (const std::exception& e) {
            host_.error(std::string("auth-local: cannot create account admin: ") + e.what());
        }
    });
}

void AuthLocal::stop() {
    if (admin_thread_.joinable()) admin_thread_.join();
    if (subscription_) host_.api()->broker_unsubscribe(host_.ctx(), subscription_);
    subscription_ = 0;
}

bool Caller::has_scope(std::string_view s) const {
    for (const auto& x : scopes)
        if (x == s) return true;
    return false;
}

std::string AuthLocal::csrf(const std::string& session_id) const {
    return hmac_sha256_hex(jwt_.mac_key(), "session:" + session_id);
}

json AuthLocal::identity(const Account& a, const json& credential) const {
    json j = a.public_json();
    j.erase("created");
    j.erase("updated");
    if (!credential.is_null()) j["credential"] = credential;
    return j;
}

std::optional<AuthLocal::Resolved> AuthLocal::resolve(std::string_view credential) {
    const int64_t now = host_.now_ms();
    if (Jwt::looks_like(credential)) {
        auto claims = jwt_.verify(credential);
        if (!claims) return std::nullopt;
        const json& c = *claims;
        if (!c.contains("exp") || !c["exp"].is_number() || !c.contains("sub") ||
            !c["sub"].is_string() || !c.contains("iss") || !c["iss"].is_string() ||
            !c.contains("jti") || !c["jti"].is_string())
            return std::nullopt;
        if (c["exp"].get<double>() * 1000.0 <= static_cast<double>(now))
            return std::nullopt;  // business clock
        const std::string ns = c["iss"], sub = c["sub"], jti = c["jti"];
        const std::string grant = jti.substr(0, jti.find('.'));
        auto account = accounts_.get(ns, sub);
        if (!account || !tokens_.live(ns, sub, grant)) return std::nullopt;
        {  // last_used of the login, at most once a minute
            std::lock_guard<std::mutex> g(touch_m_);
            auto& at = touched_[ns + "/" + sub + "/" + grant];
            if (now - at >= 60000) {
                at = now;
                if (touched_.size() > 10000) touched_.clear();
                if (auto rec = tokens_.by_id(ns, sub, grant)) tokens_.touch(*rec, now);
            }
        }
        return Resolved{
            *account, {{"kind", "access"}, {"id", grant}}, c["exp"].get<double>() * 1000.0, ns, sub,
            grant};
    }
    auto rec = tokens_.find(credential, now);
    if (!rec || rec->kind == "refresh") return std::nullopt;
    auto account = accounts_.get(rec->ns, rec->account);
    if (!account) return std::nullopt;
    tokens_.touch(*rec, now);
    json cred = {{"kind", rec->kind}, {"id", rec->id}};
    if (rec->kind == "session") {
        cred["csrf"] = csrf(rec->id);
    } else {
        cred["services"] = rec->services.is_array() ? rec->services : json::array();
        if (!rec->capabilities.is_null()) cred["capabilities"] = rec->capabilities;
    }
    return Resolved{*account, cred, 0, "", "", ""};
}

AuthLocal::ThreadIdentities& AuthLocal::thread_identities(uint64_t instance) {
    thread_local ThreadIdentities mine;
    if (mine.instance != instance) {
        mine.known.clear();
        mine.instance = instance;
    }
    return mine;
}

// An access token's identity is kept for kIdentityTtl (1 s) after it was resolved: the signature
// is not checked and the account not read and parsed again for each request. Its login is still
// looked up in the store every time, so a revocation through any replica is seen at once (and
// deleting an account revokes its logins). A change through this instance (an account written or
// deleted, a token issued or revoked) makes every kept identity stale at once; an account changed
// through another replica (its scopes, its name) is seen within the TTL. Opaque tokens are
// resolved every time (their use is recorded).
std::optional<std::string> AuthLocal::authenticate(std::string_view credential) {
    if (credential.empty()) return std::string("{}");
    const bool access = credential.size() <= 8192 && Jwt::looks_like(credential);
    const uint64_t changes = changes_.load(std::memory_order_acquire);  // before any read
    const auto at = std::chrono::steady_clock::now();
    ThreadIdentities& mine = thread_identities(instance_);
    if (access) {
        mine.key.assign(credential.data(), credential.size());
        auto it = mine.known.find(mine.key);
        if (it != mine.known.end()) {
            const KnownIdentity& k = it->second;
            if (k.changes == changes && at - k.at < kIdentityTtl &&
                k.expires_ms > static_cast<double>(host_.now_ms())) {
                if (tokens_.live(k.ns, k.account, k.grant)) return k.identity;
                return std::nullopt;
            }
            mine.known.erase(it);
        }
    }
    auto r = resolve(credential);
    if (!r) return std::nullopt;
    std::string id = identity(r->account, r->credential).dump();
    if (access && r->expires_ms > 0) {
        if (mine.known.size() >= kIdentitiesPerThread) mine.known.clear();
        mine.known[std::string(credential)] =
            KnownIdentity{id, r->ns, r->sub, r->grant, r->expires_ms, changes, at};
    }
    return id;
}

}  // namespace auth_local
