// auth-local — the handlers of the `auth` service (descriptors in service.cpp).
//
// Who calls: the host has authenticated the caller (account id and scopes in the call). The
// caller's issuer and credential kind come from re-resolving the request's bearer token or
// session cookie; internal calls without one are taken as the server's namespace. Admin
// endpoints act on the request's namespace (Platform-Namespace, else the server's): admins of
// that namespace, or of the server's own, may. Rules are one set for the server: only admins of
// the server's namespace change them.
#include "auth_local.hpp"
#include "common/time/time.hpp"

namespace auth_local {

namespace {

constexpr int64_t kDayMs = 86400000;

std::vector<std::string> split_csv(const std::string& s) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i <= s.size()) {
        size_t j = s.find(',', i);
        if (j == std::string::npos) j = s.size();
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j + 1;
    }
    return out;
}

using platform::lower;

// The bearer token, else the platform_session cookie; "" when neither.
std::string credential_of(platform::Request& r) {
    std::string auth = r.header("authorization");
    if (lower(auth.substr(0, 7)) == "bearer ") return auth.substr(7);
    std::string cookies = r.header("cookie");
    for (size_t i = 0; i < cookies.size();) {
        size_t j = cookies.find(';', i);
        if (j == std::string::npos) j = cookies.size();
        std::string part = cookies.substr(i, j - i);
        size_t a = part.find_first_not_of(' ');
        if (a != std::string::npos && part.compare(a, 17, "platform_session=") == 0)
            return part.substr(a + 17);
        i = j + 1;
    }
    return "";
}

bool printable(const std::string& s) {
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7F) return false;
    return true;
}

// An IANA name of the system's tz database (/usr/share/zoneinfo).
bool valid_timezone(const std::string& tz) {
    return common::time::TimeZone::load(tz) != nullptr;
}

std::string secret_arg(platform::Request& r, const char* name) {
    std::string s = r.str(name);
    if (s.size() < 8)
        throw platform::invalid_argument(std::string(name) + ": must be at least 8 characters");
    if (s.size() > 1024)
        throw platform::invalid_argument(std::string(name) + ": must be at most 1024 characters");
    return s;
}

std::vector<std::string> string_list(const json& args, const char* name, size_t max_items) {
    std::vector<std::string> out;
    auto it = args.find(name);
    if (it == args.end() || it->is_null()) return out;
    if (!it->is_array() || it->size() > max_items)
        throw platform::invalid_argument(std::string(name) + ": must be an array of at most " +
                                         std::to_string(max_items) + " strings");
    for (const auto& v : *it) {
        if (!v.is_string() || v.get<std::string>().empty() || v.get<std::string>().size() > 128 ||
            !printable(v.get<std::string>()))
            throw platform::invalid_argument(std::string(name) +
                                             ": every item must be a non-empty string");
        out.push_back(v.get<std::string>());
    }
    return out;
}

}  // namespace

// ---- who calls, and where ---------------------------------------------------------------------

std::string AuthLocal::host_namespace(platform::Request& r) const {
    platform_call_info_t info{};
    info.struct_size = sizeof info;
    r.host().api()->call_info(r.call(), &info);
    const std::string service = platform::copy(info.service);
    const std::string suffix = ".auth";
    if (service.size() > suffix.size() &&
        service.compare(service.size() - suffix.size(), suffix.size(), suffix) == 0)
        return service.substr(0, service.size() - suffix.size());
    return settings_.ns;
}

std::string AuthLocal::target_namespace(platform::Request& r) const {
    std::string ns = r.header("platform-namespace");
    if (ns.empty()) return host_namespace(r);
    if (!valid_namespace(ns))
        throw platform::invalid_argument("Platform-Namespace: not a valid namespace");
    return ns;
}

Caller AuthLocal::caller(platform::Request& r) {
    Caller c;
    if (r.anonymous()) return c;
    c.id = r.account();
    c.scopes = split_csv(r.scopes());
    c.ns = host_namespace(r);
    std::string cred = credential_of(r);
    if (!cred.empty())
        if (auto res = resolve(cred); res && res->account.id == c.id) {
            c.ns = res->account.ns;
            c.scopes = res->account.scopes;
            c.credential = res->credential;
        }
    return c;
}

Caller AuthLocal::require_account(platform::Request& r) {
    Caller c = caller(r);
    if (c.anonymous()) throw platform::unauthenticated("this method needs an account");
    return c;
}

std::string AuthLocal::admin_namespace(platform::Request& r, const Caller& c) {
    if (c.anonymous()) throw platform::unauthenticated("this method needs an account");
    const std::string ns = target_namespace(r);
    if (ns == c.ns) return ns;
    if (c.ns == host_namespace(r) && (c.has_scope("admin") || c.has_scope("service"))) return ns;
    throw platform::permission_denied("Platform-Namespace: access denied to namespace " + ns);
}

Account AuthLocal::own_account(const Caller& c) {
    auto a = accounts_.get(c.ns, c.id);
    if (!a) throw platform::not_found("account: " + c.id + " has no account record in " + c.ns);
    return *a;
}

// ---- login ------------------------------------------------------------------------------------

json AuthLocal::issue_tokens(const Account& a, int64_t expiry_s, const Tokens::Issued& refresh) {
    const int64_t iat = host_.now_ms() / 1000, exp = iat + expiry_s;
    json claims = {{"sub", a.id},    {"iss", a.ns},
                   {"type", a.type}, {"scopes", a.scopes},
                   {"name", a.name}, {"iat", iat},
                   {"exp", exp},     {"jti", refresh.record.id + "." + random_id()}};
    return {{"access_token", jwt_.sign(claims)},
            {"refresh_token", refresh.token},
            {"created", iat},
            {"expiry", exp},
            {"account", a.public_json()}};
}

json AuthLocal::token(platform::Request& r) {
    const std::string ns = target_namespace(r);
    if (ns == host_namespace(r)) ensure_admin(ns);
    const int64_t expiry = r.args().value("token_expiry", settings_.token_expiry);
    if (expiry < 60 || expiry > 86400)
        throw platform::invalid_argument("token_expiry: must be from 60 to 86400");
    const int64_t now = host_.now_ms();
    const std::string refresh = r.str("refresh_token");
    if (!refresh.empty()) {
        auto issued = tokens_.rotate(refresh, now, now + settings_.refresh_days * kDayMs);
        if (!issued) throw platform::unauthenticated("refresh_token: invalid, expired or revoked");
        auto a = accounts_.get(issued->record.ns, issued->record.account);
        if (!a) {
            tokens_.revoke(issued->record);
            throw platform::unauthenticated("invalid credentials");
        }
        return issue_tokens(*a, expiry, *issued);
    }
    const std::string id = r.str("id"), name = r.str("name"), secret = r.str("secret");
    if ((id.empty() && name.empty()) || secret.empty())
        throw platform::invalid_argument("Credentials or a refresh token required");
    auto a = accounts_.login(ns, id, name, secret);
    if (!a) throw platform::unauthenticated("invalid credentials");
    TokenRecord grant;
    grant.kind = "refresh";
    grant.ns = a->ns;
    grant.account = a->id;
    grant.name = "login";
    grant.expires = now + settings_.refresh_days * kDayMs;
    return issue_tokens(*a, expiry, tokens_.issue(grant, now));
}

json AuthLocal::inspect(platform::Request& r) {
    auto res = resolve(r.str("token"));
    if (!res) throw platform::invalid_argument("token: invalid, expired or revoked");
    return identity(res->account, res->credential);
}

// ---- accounts ---------------------------------------------------------------------------------

json AuthLocal::create_account(platform::Request& r) {
    Caller c = caller(r);
    const std::string ns = admin_namespace(r, c);
    Account a;
    a.ns = ns;
    a.id = r.str("id");
    if (!valid_account_id(a.id))
        throw platform::invalid_argument(
            "id: must be 1 to 128 letters, digits and . _ @ + - (starting with a letter or digit)");
    if (a.id == "admin" && settings_.disable_admin)
        throw platform::invalid_argument("id: the admin account is disabled (disable_admin)");
    const bool generated = !r.args().contains("secret");
    const std::string secret = generated ? random_token().substr(0, 24) : secret_arg(r, "secret");
    a.name = r.str("name", a.id);
    if (a.name.empty() || a.name.size() > 128 || !printable(a.name))
        throw platform::invalid_argument("name: must be 1 to 128 printable characters");
    a.type = r.str("type", "user");
    if (a.type != "user" && a.type != "service")
        throw platform::invalid_argument("type: must be user or service");
    a.scopes = string_list(r.args(), "scopes", 32);
    if (auto md = r.args().find("metadata"); md != r.args().end() && !md->is_null()) {
        if (!md->is_object() || md->size() > 32)
            throw platform::invalid_argument("metadata: must be an object of at most 32 strings");
        for (auto it = md->begin(); it != md->end(); ++it)
            if (!it->is_string() || it->get<std::string>().size() > 1024)
                throw platform::invalid_argument("metadata." + it.key() +
                                                 ": must be a string of at most 1024 characters");
        if (md->contains("timezone") && !valid_timezone((*md)["timezone"].get<std::string>()))
            throw platform::invalid_argument("metadata.timezone: not an IANA time zone name");
        a.metadata = *md;
    }
    a.created = a.updated = host_.now_ms() / 1000;
    a = accounts_.create(a, secret);
    return {{"account", a.public_json()}, {"secret", secret}};
}

json AuthLocal::list_accounts(platform::Request& r) {
    const std::string ns = admin_namespace(r, caller(r));
    json out = json::array();
    for (const auto& a : accounts_.list(ns)) out.push_back(a.public_json());
    return {{"accounts", out}};
}

json AuthLocal::delete_account(platform::Request& r) {
    Caller c = caller(r);
    const std::string ns = admin_namespace(r, c);
    const std::string id = r.str("id");
    if (id == c.id && ns == c.ns)
        throw platform::invalid_argument("id: can't delete your own account");
    if (!accounts_.get(ns, id)) throw platform::not_found("id: no account " + id);
    tokens_.revoke_all(ns, id);
    accounts_.erase(ns, id);
    return {{"deleted", id}};
}

json AuthLocal::change_secret(platform::Request& r) {
    Caller c = require_account(r);
    const std::string target = r.str("id", c.id);
    const std::string fresh = secret_arg(r, "new_secret");
    Account a;
    if (target == c.id) {
        a = own_account(c);
        const std::string old = r.str("old_secret");
        if (old.empty())
            throw platform::invalid_argument("old_secret: is required to change your own secret");
        if (!accounts_.verify(a.secret_hash, old))
            throw platform::invalid_argument("old_secret: not correct");
    } else {
        if (!c.has_scope("admin") && !c.has_scope("service"))
            throw platform::permission_denied("id: only admins change another account's secret");
        const std::string ns = admin_namespace(r, c);
        auto found = accounts_.get(ns, target);
        if (!found) throw platform::not_found("id: no account " + target);
        a = *found;
    }
    a.updated = host_.now_ms() / 1000;
    if (a.metadata.is_object()) a.metadata.erase("secret_initial");
    accounts_.set_secret(a, fresh);
    return {{"account", a.public_json()}};
}

json AuthLocal::me(platform::Request& r) {
    return {{"account", own_account(require_account(r)).public_json()}};
}

json AuthLocal::set_timezone(platform::Request& r) {
    Account a = own_account(require_account(r));
    const std::string tz = r.str("timezone");
    if (!valid_timezone(tz))
        throw platform::invalid_argument("timezone: '" + tz +
                                         "' is not an IANA time zone name (e.g. Europe/London)");
    a.metadata["timezone"] = tz;
    a.updated = host_.now_ms() / 1000;
    accounts_.update(a);
    return {{"account", a.public_json()}};
}

}  // namespace auth_local
