// auth-local — the token and session endpoints: personal and services tokens, browser sessions
// (with their CSRF token), listing and revoking them, and logout by refresh token.
#include <algorithm>

#include "auth_local.hpp"

namespace auth_local {

namespace {
constexpr int64_t kDayMs = 86400000;

// A caller whose own token is restricted must not mint a broader one.
bool restricted(const json& credential) {
    if (!credential.is_object()) return false;
    const std::string kind = credential.value("kind", "");
    if (kind == "services") return true;
    if (kind != "personal") return false;
    return (credential.contains("services") && !credential["services"].empty()) ||
           credential.contains("capabilities");
}

json names(const json& args, const char* key, const std::vector<std::string>* allowed,
           size_t max_items) {
    auto it = args.find(key);
    if (it == args.end() || it->is_null()) return json();
    if (!it->is_array() || it->size() > max_items)
        throw platform::invalid_argument(std::string(key) + ": must be an array of at most " +
                                         std::to_string(max_items) + " strings");
    for (const auto& v : *it) {
        if (!v.is_string() || v.get<std::string>().empty() || v.get<std::string>().size() > 128 ||
            v.get<std::string>().find_first_of(" \t\r\n/") != std::string::npos)
            throw platform::invalid_argument(std::string(key) +
                                             ": every item must be a name without spaces or '/'");
        if (allowed &&
            std::find(allowed->begin(), allowed->end(), v.get<std::string>()) == allowed->end())
            throw platform::invalid_argument(std::string(key) + ": '" + v.get<std::string>() +
                                             "' is not one of agent, work, inbox, actions");
    }
    return *it;
}

int64_t days_arg(const json& args, const char* key, int64_t lo, int64_t hi) {
    auto it = args.find(key);
    if (it == args.end() || it->is_null()) return 0;
    if (!it->is_number_integer() || it->get<int64_t>() < lo || it->get<int64_t>() > hi)
        throw platform::invalid_argument(std::string(key) + ": must be an integer from " +
                                         std::to_string(lo) + " to " + std::to_string(hi));
    return it->get<int64_t>();
}
}  // namespace

json AuthLocal::create_token(platform::Request& r) {
    Caller c = require_account(r);
    if (restricted(c.credential))
        throw platform::permission_denied(
            "createToken: a token restricted to services or capabilities cannot create tokens");
    const Account a = own_account(c);
    static const std::vector<std::string> kCapabilities = {"agent", "work", "inbox", "actions"};
    TokenRecord rec;
    rec.kind = r.str("kind", "personal");
    if (rec.kind != "personal" && rec.kind != "services")
        throw platform::invalid_argument("kind: must be personal or services");
    rec.ns = a.ns;
    rec.account = a.id;
    rec.name = r.str("name");
    if (rec.name.size() > 100)
        throw platform::invalid_argument("name: must be at most 100 characters");
    rec.services = names(r.args(), "services", nullptr, 50);
    rec.capabilities = names(r.args(), "capabilities", &kCapabilities, 4);
    const int64_t now = host_.now_ms();
    if (int64_t days = days_arg(r.args(), "expiry_days", 1, 3650))
        rec.expires = now + days * kDayMs;
    auto issued = tokens_.issue(rec, now);
    json out = issued.record.public_json();
    out["token"] = issued.token;
    return out;
}

json AuthLocal::list_tokens(platform::Request& r) {
    Caller c = require_account(r);
    const int64_t now = host_.now_ms();
    json out = json::array();
    for (const auto& t : tokens_.list(c.ns, c.id))
        if (!t.expires || t.expires > now) out.push_back(t.public_json());
    return {{"tokens", out}};
}

json AuthLocal::delete_token(platform::Request& r) {
    Caller c = require_account(r);
    const std::string id = r.str("id");
    auto rec = tokens_.by_id(c.ns, c.id, id);
    if (!rec) throw platform::not_found("id: no token " + id);
    tokens_.revoke(*rec);
    return {{"deleted", id}};
}

json AuthLocal::create_session(platform::Request& r) {
    const std::string ns = target_namespace(r);
    if (ns == host_namespace(r)) ensure_admin(ns);
    const std::string id = r.str("id"), name = r.str("name"), secret = r.str("secret");
    if ((id.empty() && name.empty()) || secret.empty())
        throw platform::invalid_argument("Credentials required: id or name, and secret");
    const int64_t days = days_arg(r.args(), "expiry_days", 1, 365);
    auto a = accounts_.login(ns, id, name, secret);
    if (!a) throw platform::unauthenticated("invalid credentials");
    const int64_t now = host_.now_ms();
    TokenRecord rec;
    rec.kind = "session";
    rec.ns = a->ns;
    rec.account = a->id;
    rec.name = "session";
    rec.expires = now + (days ? days : settings_.session_days) * kDayMs;
    auto issued = tokens_.issue(rec, now);
    return {{"token", issued.token},
            {"id", issued.record.id},
            {"csrf_token", csrf(issued.record.id)},
            {"expiry", issued.record.expires / 1000},
            {"account", a->public_json()}};
}

json AuthLocal::delete_session(platform::Request& r) {
    Caller c = require_account(r);
    std::optional<TokenRecord> rec;
    if (std::string token = r.str("token"); !token.empty())
        rec = tokens_.find(token, host_.now_ms());
    else if (std::string id = r.str("id"); !id.empty())
        rec = tokens_.by_id(c.ns, c.id, id);
    else if (c.credential.is_object() && c.credential.value("kind", "") == "session")
        rec = tokens_.by_id(c.ns, c.id, c.credential.value("id", ""));
    else
        throw platform::invalid_argument(
            "token or id: one is required (or call with the session cookie)");
    const bool mine = rec && rec->kind == "session" && rec->account == c.id && rec->ns == c.ns;
    return {{"deleted", mine && tokens_.revoke(*rec)}};
}

json AuthLocal::revoke(platform::Request& r) {
    Caller c = require_account(r);
    auto rec = tokens_.find(r.str("refresh_token"), host_.now_ms());
    const bool mine = rec && rec->kind == "refresh" && rec->account == c.id && rec->ns == c.ns;
    return {{"revoked", mine && tokens_.revoke(*rec)}};
}

}  // namespace auth_local
