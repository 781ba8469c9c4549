// auth-local — opaque tokens: refresh, personal, services and session tokens are 32 random bytes
// (base64url) that the store knows only by their sha256. Each has an id (listing, revocation);
// the index tokens/<ns>/<account>/<id> points at the record.
#include "auth_local.hpp"

namespace auth_local {

namespace {
std::string record_key(const std::string& hash) {
    return "token/" + hash;
}
std::string index_prefix(const std::string& ns, const std::string& account) {
    return "tokens/" + ns + "/" + account + "/";
}
std::string index_key(const std::string& ns, const std::string& account, const std::string& id) {
    return index_prefix(ns, account) + id;
}
constexpr int64_t kTouchEveryMs = 60 * 1000;
int64_t seconds(int64_t ms) {
    return ms / 1000;
}
}  // namespace

json TokenRecord::stored() const {
    json j = {{"id", id},     {"kind", kind},       {"ns", ns},           {"account", account},
              {"name", name}, {"created", created}, {"expires", expires}, {"last_used", last_used}};
    if (!services.is_null()) j["services"] = services;
    if (!capabilities.is_null()) j["capabilities"] = capabilities;
    return j;
}

TokenRecord TokenRecord::from_stored(const std::string& hash, const json& j) {
    TokenRecord r;
    r.hash = hash;
    r.id = j.value("id", "");
    r.kind = j.value("kind", "");
    r.ns = j.value("ns", "");
    r.account = j.value("account", "");
    r.name = j.value("name", "");
    r.services = j.contains("services") ? j["services"] : json();
    r.capabilities = j.contains("capabilities") ? j["capabilities"] : json();
    r.created = j.value("created", int64_t{0});
    r.expires = j.value("expires", int64_t{0});
    r.last_used = j.value("last_used", int64_t{0});
    return r;
}

json TokenRecord::public_json() const {
    json j = {{"id", id},
              {"kind", kind},
              {"name", name},
              {"created", seconds(created)},
              {"expiry", expires ? json(seconds(expires)) : json(nullptr)},
              {"last_used", last_used ? json(seconds(last_used)) : json(nullptr)}};
    if (!services.is_null()) j["services"] = services;
    if (!capabilities.is_null()) j["capabilities"] = capabilities;
    return j;
}

Tokens::Issued Tokens::issue(TokenRecord r, int64_t now_ms) {
    const ChangeCount counted(changes_);
    Issued out;
    out.token = random_token();
    if (r.id.empty()) r.id = random_id();
    r.hash = sha256_hex(out.token);
    r.created = now_ms;
    r.last_used = 0;
    const int64_t ttl = r.expires ? std::max<int64_t>(1, r.expires - now_ms) : 0;
    store_.put(record_key(r.hash), r.stored().dump(), ttl);
    store_.put(index_key(r.ns, r.account, r.id), r.hash, ttl);
    out.record = std::move(r);
    return out;
}

std::optional<TokenRecord> Tokens::find(std::string_view token, int64_t now_ms) const {
    if (!opaque_token_shape(token)) return std::nullopt;
    const std::string hash = sha256_hex(token);
    auto raw = store_.get(record_key(hash));
    if (!raw) return std::nullopt;
    json j = json::parse(*raw, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    TokenRecord r = TokenRecord::from_stored(hash, j);
    if (r.expires && r.expires <= now_ms) return std::nullopt;  // business clock
    return r;
}

void Tokens::touch(TokenRecord& r, int64_t now_ms) {
    if (r.last_used && now_ms - r.last_used < kTouchEveryMs) return;
    r.last_used = now_ms;
    const int64_t ttl = r.expires ? std::max<int64_t>(1, r.expires - now_ms) : 0;
    if (store_.get(record_key(r.hash)))  // not revoked meanwhile
        store_.put(record_key(r.hash), r.stored().dump(), ttl);
}

std::optional<Tokens::Issued> Tokens::rotate(std::string_view refresh_token, int64_t now_ms,
                                             int64_t expires_ms) {
    std::lock_guard<std::mutex> g(rotate_m_);
    const ChangeCount counted(changes_);
    auto old = find(refresh_token, now_ms);
    if (!old || old->kind != "refresh") return std::nullopt;
    // Used up by a compare-and-set of the record as read: of two replicas rotating the same token
    // at once, one wins.
    auto raw = store_.get(record_key(old->hash));
    if (!raw ||
        !store_.compare_and_set(record_key(old->hash), std::string_view(*raw), std::nullopt))
        return std::nullopt;
    TokenRecord next = *old;
    next.expires = expires_ms;
    return issue(std::move(next), now_ms);
}

bool Tokens::live(const std::string& ns, const std::string& account, const std::string& id) const {
    return store_.get(index_key(ns, account, id)).has_value();
}

std::optional<TokenRecord> Tokens::by_id(const std::string& ns, const std::string& account,
                                         const std::string& id) const {
    if (id.empty() || id.find('/') != std::string::npos) return std::nullopt;
    auto hash = store_.get(index_key(ns, account, id));
    if (!hash) return std::nullopt;
    auto raw = store_.get(record_key(*hash));
    if (!raw) return std::nullopt;
    json j = json::parse(*raw, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    return TokenRecord::from_stored(*hash, j);
}

bool Tokens::revoke(const TokenRecord& r) {
    const ChangeCount counted(changes_);
    bool had = store_.erase(record_key(r.hash));
    auto current = store_.get(index_key(r.ns, r.account, r.id));
    if (current && *current == r.hash) had = store_.erase(index_key(r.ns, r.account, r.id)) || had;
    return had;
}

std::vector<TokenRecord> Tokens::list(const std::string& ns, const std::string& account) const {
    std::vector<TokenRecord> out;
    for (auto& rec : store_.scan({index_prefix(ns, account)})) {
        auto raw = store_.get(record_key(rec.value));
        if (!raw) continue;
        json j = json::parse(*raw, nullptr, false);
        if (j.is_object()) out.push_back(TokenRecord::from_stored(rec.value, j));
    }
    return out;
}

void Tokens::revoke_all(const std::string& ns, const std::string& account) {
    const ChangeCount counted(changes_);
    for (auto& rec : store_.scan({index_prefix(ns, account)})) {
        store_.erase(record_key(rec.value));
        store_.erase(rec.key);
    }
}

}  // namespace auth_local
