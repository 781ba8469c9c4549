// auth-local — accounts per namespace (issuer), their argon2id secrets and the `admin` bootstrap.
#include <sodium.h>

#include <algorithm>
#include <regex>

#include "auth_local.hpp"

namespace auth_local {

namespace {
std::string account_key(const std::string& ns, const std::string& id) {
    return "account/" + ns + "/" + id;
}
std::string name_key(const std::string& ns, const std::string& name) {
    return "accountByName/" + ns + "/" + name;
}
}  // namespace

// ---- Account -------------------------------------------------------------------------------

json Account::public_json() const {
    json md = metadata.is_object() ? metadata : json::object();
    if (!md.contains("timezone")) md["timezone"] = "UTC";
    return {{"id", id},         {"type", type},   {"issuer", ns},       {"name", name},
            {"scopes", scopes}, {"metadata", md}, {"created", created}, {"updated", updated}};
}

json Account::stored() const {
    json j = public_json();
    j["metadata"] = metadata.is_object() ? metadata : json::object();
    j["secret_hash"] = secret_hash;
    return j;
}

Account Account::from_stored(const json& j) {
    Account a;
    a.ns = j.value("issuer", "");
    a.id = j.value("id", "");
    a.type = j.value("type", "user");
    a.name = j.value("name", a.id);
    if (j.contains("scopes") && j["scopes"].is_array())
        for (const auto& s : j["scopes"])
            if (s.is_string()) a.scopes.push_back(s.get<std::string>());
    if (j.contains("metadata") && j["metadata"].is_object()) a.metadata = j["metadata"];
    a.secret_hash = j.value("secret_hash", "");
    a.created = j.value("created", int64_t{0});
    a.updated = j.value("updated", int64_t{0});
    return a;
}

bool Account::has_scope(std::string_view s) const {
    return std::find(scopes.begin(), scopes.end(), s) != scopes.end();
}

bool valid_account_id(std::string_view id) {
    static const std::regex re("^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$");
    return std::regex_match(id.begin(), id.end(), re);
}

bool valid_namespace(std::string_view ns) {
    static const std::regex re("^([a-z0-9][a-z0-9_-]*(\\.[a-z0-9][a-z0-9_-]*)*)?$");
    return ns.size() <= 128 && std::regex_match(ns.begin(), ns.end(), re);
}

// ---- Accounts ------------------------------------------------------------------------------

std::optional<Account> Accounts::get(const std::string& ns, const std::string& id) const {
    if (!valid_account_id(id)) return std::nullopt;
    auto raw = store_.get(account_key(ns, id));
    if (!raw) return std::nullopt;
    json j = json::parse(*raw, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    return Account::from_stored(j);
}

std::optional<Account> Accounts::by_name(const std::string& ns, const std::string& name) const {
    if (name.empty()) return std::nullopt;
    auto id = store_.get(name_key(ns, name));
    return id ? get(ns, *id) : std::nullopt;
}

std::vector<Account> Accounts::list(const std::string& ns) const {
    std::vector<Account> out;
    for (auto& rec : store_.scan({"account/" + ns + "/"})) {
        json j = json::parse(rec.value, nullptr, false);
        if (j.is_object()) out.push_back(Account::from_stored(j));
    }
    return out;
}

std::string Accounts::hash(std::string_view secret) const {
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_alg(out, secret.data(), secret.size(), ops_, static_cast<size_t>(mem_),
                              crypto_pwhash_ALG_ARGON2ID13) != 0)
        throw platform::internal("secret: hashing failed (out of memory?)");
    return out;
}

bool Accounts::verify(const std::string& hash, std::string_view secret) const {
    if (hash.empty()) return false;
    return crypto_pwhash_str_verify(hash.c_str(), secret.data(), secret.size()) == 0;
}

Account Accounts::create(Account a, std::string_view secret) {
    const ChangeCount counted(changes_);
    a.secret_hash = hash(secret);  // outside the lock: slow on purpose
    std::lock_guard<std::mutex> g(m_);
    // Insert-if-absent, so that of two replicas creating the same id or name at once (admin, at
    // start) exactly one succeeds; the name is taken second and the account undone without it.
    if (store_.get(account_key(a.ns, a.id))) throw platform::invalid_argument("id: already exists");
    if (store_.get(name_key(a.ns, a.name)))
        throw platform::invalid_argument("name: already exists");
    const std::string record = a.stored().dump();
    if (!store_.insert_if_absent(account_key(a.ns, a.id), record))
        throw platform::invalid_argument("id: already exists");
    if (!store_.insert_if_absent(name_key(a.ns, a.name), a.id)) {
        store_.compare_and_set(account_key(a.ns, a.id), std::string_view(record), std::nullopt);
        throw platform::invalid_argument("name: already exists");
    }
    return a;
}

void Accounts::update(const Account& a) {
    const ChangeCount counted(changes_);
    store_.put(account_key(a.ns, a.id), a.stored().dump());
}

void Accounts::set_secret(Account& a, std::string_view secret) {
    const ChangeCount counted(changes_);
    a.secret_hash = hash(secret);
    update(a);
}

bool Accounts::erase(const std::string& ns, const std::string& id) {
    const ChangeCount counted(changes_);
    std::lock_guard<std::mutex> g(m_);
    auto raw = store_.get(account_key(ns, id));
    if (!raw) return false;
    json j = json::parse(*raw, nullptr, false);
    if (j.is_object()) {
        std::string name = j.value("name", "");
        auto owner = store_.get(name_key(ns, name));
        if (owner && *owner == id) store_.erase(name_key(ns, name));
    }
    return store_.erase(account_key(ns, id));
}

std::optional<Account> Accounts::login(const std::string& ns, const std::string& id,
                                       const std::string& name, std::string_view secret) const {
    std::optional<Account> a = !id.empty() ? get(ns, id) : by_name(ns, name);
    if (!a) {
        // Spend the same effort as for a real account, so timing does not tell which ids exist.
        {
            std::lock_guard<std::mutex> g(m_);
            if (dummy_hash_.empty()) dummy_hash_ = hash(random_token());
        }
        verify(dummy_hash_, secret);
        return std::nullopt;
    }
    if (!verify(a->secret_hash, secret)) return std::nullopt;
    return a;
}

// ---- the admin bootstrap -------------------------------------------------------------------

void AuthLocal::ensure_admin(const std::string& ns) {
    std::lock_guard<std::mutex> g(admin_m_);
    auto settled = [&](const std::string& n) {
        admin_checked_.insert(n);
        if (n == settings_.ns) admin_settled_.store(true, std::memory_order_release);
    };
    if (admin_checked_.count(ns)) return;
    if (settings_.disable_admin) {
        if (accounts_.get(ns, "admin")) {
            tokens_.revoke_all(ns, "admin");
            accounts_.erase(ns, "admin");
            host_.warn("auth-local: removed account admin (disable_admin is set)");
        }
        settled(ns);
        return;
    }
    if (accounts_.get(ns, "admin")) {
        settled(ns);
        return;
    }
    const int64_t now = host_.now_ms() / 1000;
    Account a;
    a.ns = ns;
    a.id = a.name = "admin";
    a.scopes = {"admin"};
    // Until its secret is changed, the console offers to change it at sign-in.
    a.metadata = json{{"secret_initial", true}};
    a.created = a.updated = now;
    const bool given = !settings_.admin_secret.empty();
    const std::string secret = given ? settings_.admin_secret : random_token().substr(0, 24);
    try {
        accounts_.create(a, secret);
    } catch (const platform::Error&) {
        settled(ns);
        return;  // created meanwhile (a replica)
    }
    if (given)
        host_.info("auth-local: created account admin with the secret from PLATFORM_ADMIN_SECRET");
    else {
        host_.warn("auth-local: created account admin; its secret is shown once on the console");
        host_.tell_operator("created account admin with the secret\n\n    " + secret +
                            "\n\nSign in with `platform login --id admin`. It is shown only this "
                            "once: `platform admin reset-secret`\non this machine sets a new one, "
                            "PLATFORM_ADMIN_SECRET chooses the first one.");
    }
    settled(ns);  // last: a caller that sees it settled sees the notice told too
}

}  // namespace auth_local
