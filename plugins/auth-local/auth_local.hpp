// auth-local — store-backed accounts, rules, tokens and sessions (docs/identity.md).
//
// One plugin of kind `auth` that also serves the built-in service `auth`. Pieces, one file each:
//   crypto.cpp    random tokens, sha256, HMAC, constant-time compare (base64url: the SDK's)
//   accounts.cpp  accounts per namespace, argon2id secrets (libsodium), the `admin` bootstrap
//   tokens.cpp    opaque tokens (refresh, personal, services, session) stored as their sha256
//   jwt.cpp       ES256 access tokens (OpenSSL) and the signing key, sealed in the store
//   rules.cpp     access rules, the default rule, rules_version
//   provider.cpp  authenticate(): a credential to the identity JSON
//   service.cpp   the `auth` endpoints (descriptors) and handlers.cpp their handlers
//   plugin.cpp    the exported descriptor: provider table + endpoints on one instance
//
// Store keys (the plugin's own table) never hold a secret or a token in clear:
//   account/<ns>/<id>             account JSON with the argon2id hash of its secret
//   accountByName/<ns>/<name>     the id
//   token/<sha256 hex>            an opaque token's record (id, kind, ns, account, expiry...)
//   tokens/<ns>/<account>/<id>    the sha256 hex of a token, to list and revoke by id
//   rule/<id>, meta/rules_version  (a change is announced on the broker topic kRulesTopic)
//   key/es256                     the signing key's PEM, sealed by the host's secrets sub-table
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <platform/sdk.hpp>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace auth_local {

using platform::json;

// ---- crypto.cpp ----------------------------------------------------------------------------

std::string random_bytes(size_t n);
std::string random_token();        // 32 random bytes, base64url without padding (43 characters)
std::string random_id();           // 12 random bytes, base64url (16 characters)
using platform::base64url_decode;  // strict (platform/sdk/text.hpp); nullopt when invalid
using platform::base64url_encode;  // without padding
std::string sha256(std::string_view data);  // 32 raw bytes
std::string sha256_hex(std::string_view data);
std::string hmac_sha256_hex(std::string_view key, std::string_view data);
bool same(std::string_view a, std::string_view b);  // constant time for equal lengths
bool opaque_token_shape(std::string_view text);     // 43 base64url characters
std::string hex(std::string_view bytes);

// ---- settings (plugin config) ----------------------------------------------------------------

struct Settings {
    std::string ns;            // namespace the admin is created in at start
    std::string admin_secret;  // "" = generated and logged once
    bool disable_admin = false;
    std::string private_key;     // PEM; "" = generated and kept sealed in the store
    uint64_t argon2_ops = 0;     // crypto_pwhash opslimit
    uint64_t argon2_mem = 0;     // crypto_pwhash memlimit, bytes
    int64_t token_expiry = 900;  // seconds, default of auth/token
    int64_t refresh_days = 30;
    int64_t session_days = 7;

    // Reads the plugin config; environment fallbacks PLATFORM_ADMIN_SECRET,
    // PLATFORM_AUTH_PRIVATE_KEY, PLATFORM_NAMESPACE. Throws std::runtime_error naming the key.
    // `host_namespace`: the host's (config platform.namespace), unless config names one.
    static Settings from(const json& config, const std::string& host_namespace);
};

// ---- accounts.cpp --------------------------------------------------------------------------

struct Account {
    std::string ns, id, type = "user", name;
    std::vector<std::string> scopes;
    json metadata = json::object();
    std::string secret_hash;           // argon2id, crypto_pwhash_str format
    int64_t created = 0, updated = 0;  // unix seconds

    json public_json() const;  // without the hash; metadata.timezone defaults to UTC
    json stored() const;
    static Account from_stored(const json& j);
    bool has_scope(std::string_view s) const;
};

// Adds one to *count when it goes out of scope (nothing for nullptr): what a write through Accounts
// or Tokens leaves behind, so that identities kept before it are not used after it (provider.cpp).
struct ChangeCount {
    std::atomic<uint64_t>* count;
    explicit ChangeCount(std::atomic<uint64_t>* c) : count(c) {}
    ChangeCount(const ChangeCount&) = delete;
    ChangeCount& operator=(const ChangeCount&) = delete;
    ~ChangeCount() {
        if (count) count->fetch_add(1, std::memory_order_release);
    }
};

bool valid_account_id(std::string_view id);
bool valid_namespace(std::string_view ns);

class Accounts {
public:
    Accounts(platform::Store store, uint64_t ops, uint64_t mem)
        : store_(store), ops_(ops), mem_(mem) {}

    std::optional<Account> get(const std::string& ns, const std::string& id) const;
    std::optional<Account> by_name(const std::string& ns, const std::string& name) const;
    std::vector<Account> list(const std::string& ns) const;
    // Adds a new account; INVALID_ARGUMENT "id: already exists" / "name: already exists".
    Account create(Account a, std::string_view secret);
    void update(const Account& a);  // same id and name
    bool erase(const std::string& ns, const std::string& id);
    void set_secret(Account& a, std::string_view secret);

    // The account for {id|name, secret}, or nullopt (unknown account and wrong secret alike, in
    // about the same time).
    std::optional<Account> login(const std::string& ns, const std::string& id,
                                 const std::string& name, std::string_view secret) const;
    std::string hash(std::string_view secret) const;
    bool verify(const std::string& hash, std::string_view secret) const;
    // Every write through this object (on return, thrown or not) adds one to *c.
    void count_changes_in(std::atomic<uint64_t>* c) { changes_ = c; }

private:
    platform::Store store_;
    std::atomic<uint64_t>* changes_ = nullptr;
    uint64_t ops_, mem_;
    mutable std::mutex m_;  // uniqueness of ids and names on create
    mutable std::string dummy_hash_;
};

// ---- tokens.cpp ----------------------------------------------------------------------------

struct TokenRecord {
    std::string hash;  // sha256 hex of the token text (the store key)
    std::string id, kind, ns, account, name;
    json services;                                    // null = absent
    json capabilities;                                // null = absent (every capability)
    int64_t created = 0, expires = 0, last_used = 0;  // unix ms; expires 0 = never

    json stored() const;
    static TokenRecord from_stored(const std::string& hash, const json& j);
    json public_json() const;  // for listTokens: times in unix seconds
};

class Tokens {
public:
    explicit Tokens(platform::Store store) : store_(store) {}

    struct Issued {
        std::string token;  // the text, shown once
        TokenRecord record;
    };
    // A new opaque token; `id` empty = a new id.
    Issued issue(TokenRecord r, int64_t now_ms);
    // The live record of a token text (any kind), or nullopt (unknown, malformed or expired).
    std::optional<TokenRecord> find(std::string_view token, int64_t now_ms) const;
    // Records a use, at most once a minute per token.
    void touch(TokenRecord& r, int64_t now_ms);
    // Refresh rotation: the old token is revoked, a new one with the same id issued. nullopt when
    // the token is not a live refresh token.
    std::optional<Issued> rotate(std::string_view refresh_token, int64_t now_ms,
                                 int64_t expires_ms);
    bool live(const std::string& ns, const std::string& account, const std::string& id) const;
    std::optional<TokenRecord> by_id(const std::string& ns, const std::string& account,
                                     const std::string& id) const;
    bool revoke(const TokenRecord& r);
    std::vector<TokenRecord> list(const std::string& ns, const std::string& account) const;
    void revoke_all(const std::string& ns, const std::string& account);
    // Every write through this object but touch() (on return, thrown or not) adds one to *c.
    void count_changes_in(std::atomic<uint64_t>* c) { changes_ = c; }

private:
    platform::Store store_;
    std::atomic<uint64_t>* changes_ = nullptr;
    std::mutex rotate_m_;
};

// ---- jwt.cpp -------------------------------------------------------------------------------

class Jwt {
public:
    Jwt();
    ~Jwt();
    Jwt(const Jwt&) = delete;
    Jwt& operator=(const Jwt&) = delete;

    // The key: `pem` when given, else the one sealed in the store, else a new one sealed there.
    void load(const platform::Host& host, const std::string& pem);
    void use_pem(const std::string& pem);  // throws std::runtime_error for anything but EC P-256
    std::string generate_pem();            // a new P-256 key, made current; returns its PEM

    std::string sign(const json& claims) const;
    // The claims of a token signed by this key with alg ES256; nullopt otherwise.
    std::optional<json> verify(std::string_view token) const;
    static bool looks_like(std::string_view token);  // three dot-separated parts
    // A key for HMACs (CSRF), derived from the signing key.
    const std::string& mac_key() const { return mac_key_; }

private:
    std::optional<json> verify_signature(std::string_view token) const;

    void* key_ = nullptr;  // EVP_PKEY*
    std::string mac_key_;
    // Tokens whose signature checked out, with their claims: an ES256 verification costs ~60 µs,
    // and a signature's validity never changes for one key (expiry and revocation are checked
    // by the caller on every use). In 16 shards by the token's hash, each with its own lock, so
    // requests with different tokens do not queue on one; each shard bounded, cleared when full,
    // all cleared when the key changes.
    struct alignas(64) VerifiedShard {
        std::mutex m;
        std::unordered_map<std::string, json> claims;
    };
    static constexpr size_t kVerifiedShards = 16;
    static constexpr size_t kVerifiedMax = 8192 / kVerifiedShards;  // per shard
    VerifiedShard& verified(std::string_view token) const {
        return verified_[std::hash<std::string_view>{}(token) % kVerifiedShards];
    }
    mutable std::array<VerifiedShard, kVerifiedShards> verified_;
};

// ---- rules.cpp -----------------------------------------------------------------------------

class Rules {
public:
    explicit Rules(platform::Store store) : store_(store) {}

    void ensure_default();
    std::vector<json>
    list();  // stored form (scope "" = public), ordered by id; the default when empty
    json create(
        const json& rule);  // validated by the caller; INVALID_ARGUMENT "id: already exists"
    bool erase(const std::string& id);
    uint64_t version();
    // Makes the next version() read the stored number (a replica changed the rules).
    void reread();
    // Called after each change (publishes kRulesTopic); set before the rules are used.
    void on_change(std::function<void()> announce) { announce_ = std::move(announce); }
    std::string lend();  // JSON array for the provider table

    static json shown(json rule);  // scope "" shown as "<public>"
    static json default_rule();

private:
    void bump();
    platform::Store store_;
    std::mutex m_;
    std::atomic<uint64_t> version_{0};
    std::atomic<int64_t> read_at_{-1};  // steady ms of the last store read of the version
    std::function<void()> announce_;
};

// The broker topic every change of the rules is announced on (the body is the new version; it
// is not trusted: the message only makes each replica read the stored version again).
inline constexpr const char* kRulesTopic = "platform.auth.rules";

// ---- the plugin ----------------------------------------------------------------------------

// The caller of an `auth` endpoint: its account (in its issuer's namespace) and credential.
struct Caller {
    std::string id, ns;
    std::vector<std::string> scopes;
    json credential;  // null when unknown (internal calls)
    bool anonymous() const { return id.empty(); }
    bool has_scope(std::string_view s) const;
};

class AuthLocal {
public:
    AuthLocal(const platform::Host& host, const json& config);
    ~AuthLocal();
    void start();
    void stop();  // ends the broker subscription

    // ---- provider (provider.cpp) ----
    std::optional<std::string> authenticate(std::string_view credential);
    uint64_t rules_version() { return rules_.version(); }
    std::string rules() { return rules_.lend(); }

    struct Resolved {
        Account account;
        json credential;
        double expires_ms = 0;  // an access token's exp (business clock, unix ms); 0 = other kinds
        // An access token's login: its issuer, subject and grant (the jti's first part).
        std::string ns, sub, grant;
    };
    std::optional<Resolved> resolve(std::string_view credential);
    json identity(const Account& a, const json& credential) const;
    std::string csrf(const std::string& session_id) const;

    // ---- service (service.cpp, handlers.cpp) ----
    static void describe(platform::ServiceSpec<AuthLocal>& s);
    json token(platform::Request& r);
    json inspect(platform::Request& r);
    json create_account(platform::Request& r);
    json list_accounts(platform::Request& r);
    json delete_account(platform::Request& r);
    json change_secret(platform::Request& r);
    json me(platform::Request& r);
    json set_timezone(platform::Request& r);
    json create_rule(platform::Request& r);
    json list_rules(platform::Request& r);
    json delete_rule(platform::Request& r);
    json create_token(platform::Request& r);
    json list_tokens(platform::Request& r);
    json delete_token(platform::Request& r);
    json create_session(platform::Request& r);
    json delete_session(platform::Request& r);
    json revoke(platform::Request& r);

    const platform::Host& host() const { return host_; }
    const Settings& settings() const { return settings_; }
    Accounts& accounts() { return accounts_; }
    Tokens& tokens() { return tokens_; }
    Jwt& jwt() { return jwt_; }

    // Creates `admin` in ns unless it exists (or removes it when disable_admin). Once per ns (a
    // failure is tried again by the next caller). Every path that signs in calls it first, and it
    // holds admin_m_ while it works, so a login waits for a creation under way.
    void ensure_admin(const std::string& ns);
    // Returns once the host namespace's `admin` is settled (created, found or removed): every
    // call of the service passes here first, so none sees the store before start()'s creation
    // on its own thread finished. A failed creation is tried again here (and throws).
    void await_admin() {
        if (!admin_settled_.load(std::memory_order_acquire)) ensure_admin(settings_.ns);
    }

private:
    std::string host_namespace(platform::Request& r) const;
    std::string target_namespace(platform::Request& r) const;
    Caller caller(platform::Request& r);
    Caller require_account(platform::Request& r);
    std::string admin_namespace(platform::Request& r, const Caller& c);
    Account own_account(const Caller& c);
    json issue_tokens(const Account& a, int64_t expiry_s, const Tokens::Issued& refresh);

    platform::Host host_;
    Settings settings_;
    Accounts accounts_;
    Tokens tokens_;
    Jwt jwt_;
    Rules rules_;
    std::mutex admin_m_;
    std::set<std::string> admin_checked_;
    std::atomic<bool> admin_settled_{false};  // ensure_admin(settings_.ns) succeeded
    std::thread admin_thread_;  // start()'s ensure_admin, off the start-up path; joined by stop()
    std::mutex touch_m_;
    std::map<std::string, int64_t> touched_;  // access-token grants: last recorded use (ms)
    // Identities of access tokens lately verified (provider.cpp, decision 76): an entry is used
    // only while no account or token changed through this instance since it was made, for at
    // most kIdentityTtl, before the token's exp, and while its login is live in the store. Each
    // thread keeps its own (kIdentitiesPerThread at most, for this instance only: `instance_`),
    // so a request takes no lock another thread's request takes, even with the same token; a
    // thread verifies a token again at most once per kIdentityTtl.
    std::atomic<uint64_t> changes_{0};
    struct KnownIdentity {
        std::string identity;
        std::string ns, account, grant;  // the login, still looked up on every use
        double expires_ms = 0;
        uint64_t changes = 0;
        std::chrono::steady_clock::time_point at;
    };
    struct ThreadIdentities {
        uint64_t instance = 0;
        std::string key;  // the credential looked up, its capacity reused
        std::unordered_map<std::string, KnownIdentity> known;
    };
    // The calling thread's identities for `instance` (emptied when it last served another).
    static ThreadIdentities& thread_identities(uint64_t instance);
    static constexpr size_t kIdentitiesPerThread = 64;
    static constexpr std::chrono::milliseconds kIdentityTtl{1000};
    const uint64_t instance_;    // never reused in the process: a thread's identities name it
    uint64_t subscription_ = 0;  // kRulesTopic; 0 = none (no broker)
};

}  // namespace auth_local
