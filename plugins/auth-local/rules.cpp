// auth-local — access rules (micro's model: id, scope, resource, access, priority) and their
// version. The host evaluates them (docs/identity.md "Admission"); this keeps and lends them.
//
// Stored as rule/<id> with scope "" for public (shown as "<public>" by the service). When no rule
// exists the default one is created: {default, "", *:*:*, GRANTED, 0}. meta/rules_version grows
// with every change (a compare-and-set, so replicas sharing the store never write the same
// number for two changes); rules_version() answers from memory and re-reads the stored number at
// most every 5 s, or at its next call after a message on the broker topic kRulesTopic, which
// every change publishes: a change made through one replica reaches the others at once, and
// within 5 s if the message is lost. The message carries nothing that is trusted (any account may
// publish on a topic): it only makes the next call read the store.
#include <cctype>
#include <chrono>
#include <cstdlib>

#include "auth_local.hpp"

namespace auth_local {

namespace {
constexpr const char* kVersionKey = "meta/rules_version";
constexpr const char* kPrefix = "rule/";
constexpr int64_t kRereadMs = 5000;

int64_t steady_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
}  // namespace

json Rules::default_rule() {
    return {{"id", "default"},
            {"scope", ""},
            {"resource", "*:*:*"},
            {"access", "GRANTED"},
            {"priority", 0}};
}

json Rules::shown(json rule) {
    if (rule.value("scope", "") == "") rule["scope"] = "<public>";
    return rule;
}

void Rules::ensure_default() {
    std::lock_guard<std::mutex> g(m_);
    if (!store_.scan({kPrefix, false, 1}).empty()) return;
    // Insert-if-absent: of replicas starting together, one writes it (the same bytes anyway).
    if (store_.insert_if_absent(std::string(kPrefix) + "default", default_rule().dump())) bump();
}

std::vector<json> Rules::list() {
    std::vector<json> out;
    for (int attempt = 0; attempt < 2; ++attempt) {
        for (auto& rec : store_.scan({kPrefix})) {
            json j = json::parse(rec.value, nullptr, false);
            if (j.is_object()) out.push_back(std::move(j));
        }
        if (!out.empty()) break;
        ensure_default();
    }
    return out;
}

json Rules::create(const json& rule) {
    std::lock_guard<std::mutex> g(m_);
    const std::string key = kPrefix + rule.at("id").get<std::string>();
    if (!store_.insert_if_absent(key, rule.dump()))
        throw platform::invalid_argument("id: already exists");
    bump();
    return rule;
}

bool Rules::erase(const std::string& id) {
    std::lock_guard<std::mutex> g(m_);
    if (!store_.erase(kPrefix + id)) return false;
    bump();
    return true;
}

// Under m_: the stored version + 1 (compare-and-set), kept in memory at once and announced.
void Rules::bump() {
    uint64_t v = 0;
    for (int attempt = 0;; ++attempt) {
        const auto raw = store_.get(kVersionKey);
        const uint64_t stored = raw ? std::strtoull(raw->c_str(), nullptr, 10) : 0;
        v = std::max(stored, version_.load()) + 1;
        const std::string next = std::to_string(v);
        if (store_.compare_and_set(kVersionKey,
                                   raw ? std::optional<std::string_view>(*raw) : std::nullopt,
                                   std::string_view(next)))
            break;
        if (attempt == 32) throw platform::conflict("rules: the version kept changing; try again");
    }
    version_ = v;
    read_at_ = steady_ms();
    if (announce_) announce_();
}

void Rules::reread() {
    read_at_ = -1;
}

uint64_t Rules::version() {
    const int64_t now = steady_ms();
    int64_t at = read_at_.load();
    if (at >= 0 && now - at < kRereadMs) return version_.load();  // -1: reread() asked
    if (read_at_.compare_exchange_strong(at, now)) {              // one reader refreshes
        if (auto raw = store_.get(kVersionKey)) {
            uint64_t stored = std::strtoull(raw->c_str(), nullptr, 10);
            if (stored > version_.load()) version_ = stored;
        }
    }
    return version_.load();
}

std::string Rules::lend() {
    json out = json::array();
    for (auto& r : list()) {
        out.push_back({{"id", r.value("id", "")},
                       {"scope", r.value("scope", "")},
                       {"resource", r.value("resource", "*:*:*")},
                       {"access", r.value("access", "GRANTED")},
                       {"priority", r.value("priority", 0)}});
    }
    return out.dump();
}

}  // namespace auth_local

// ---- the rule endpoints ----------------------------------------------------------------------

namespace auth_local {

namespace {
bool valid_rule_id(const std::string& id) {
    if (id.empty() || id.size() > 64 || !std::isalnum(static_cast<unsigned char>(id[0])))
        return false;
    for (char c : id)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
            return false;
    return true;
}

// type:name:endpoint, three non-empty parts without spaces (the endpoint may hold colons).
bool valid_resource(const std::string& r) {
    if (r.empty() || r.size() > 256 || r.find_first_of(" \t\r\n") != std::string::npos)
        return false;
    size_t a = r.find(':');
    if (a == std::string::npos || a == 0) return false;
    size_t b = r.find(':', a + 1);
    return b != std::string::npos && b > a + 1 && b + 1 < r.size();
}

// Rules are one set for the server: only its own admins (and service accounts) change them.
void require_server_admin(const Caller& c, const std::string& host_ns) {
    if (c.anonymous()) throw platform::unauthenticated("this method needs an account");
    if (c.ns != host_ns || !(c.has_scope("admin") || c.has_scope("service")))
        throw platform::permission_denied("rules: only admins of namespace " + host_ns +
                                          " manage rules");
}
}  // namespace

json AuthLocal::create_rule(platform::Request& r) {
    require_server_admin(caller(r), host_namespace(r));
    json rule;
    rule["id"] = r.str("id");
    if (!valid_rule_id(rule["id"]))
        throw platform::invalid_argument(
            "id: must be 1 to 64 letters, digits and . _ - (starting with a letter or digit)");
    std::string scope = r.str("scope");
    if (scope == "<public>") scope = "";
    if (scope.size() > 64 || scope.find_first_of(" \t\r\n") != std::string::npos)
        throw platform::invalid_argument(
            "scope: must be <public>, *, + or a scope name of at most 64 characters");
    rule["scope"] = scope;
    rule["resource"] = r.str("resource");
    if (!valid_resource(rule["resource"]))
        throw platform::invalid_argument(
            "resource: must be type:name:endpoint, e.g. service:notes:* or *:*:*");
    std::string access = r.str("access", "GRANTED");  // micro's CLI spells it `granted`
    for (auto& ch : access) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (access != "GRANTED" && access != "DENIED")
        throw platform::invalid_argument("access: must be GRANTED or DENIED (any case)");
    rule["access"] = access;
    auto p = r.args().find("priority");
    if (p != r.args().end() && !p->is_null() &&
        (!p->is_number_integer() || std::abs(p->get<int64_t>()) > 1000000))
        throw platform::invalid_argument("priority: must be an integer from -1000000 to 1000000");
    rule["priority"] = p != r.args().end() && p->is_number_integer() ? p->get<int64_t>() : 0;
    return {{"rule", Rules::shown(rules_.create(rule))}};
}

json AuthLocal::list_rules(platform::Request& r) {
    if (caller(r).anonymous()) throw platform::unauthenticated("this method needs an account");
    json out = json::array();
    for (auto& rule : rules_.list()) out.push_back(Rules::shown(rule));
    return {{"rules", out}};
}

json AuthLocal::delete_rule(platform::Request& r) {
    require_server_admin(caller(r), host_namespace(r));
    const std::string id = r.str("id");
    if (!rules_.erase(id)) throw platform::not_found("id: no rule " + id);
    return {{"deleted", id}};
}

}  // namespace auth_local
