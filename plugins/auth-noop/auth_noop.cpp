// auth-noop — configuration and credential resolution.
#include "auth_noop.hpp"

#include <algorithm>
#include <stdexcept>

namespace auth_noop {

namespace {

std::string string_setting(const platform::json& config, const char* key, const char* fallback) {
    auto it = config.find(key);
    if (it == config.end() || it->is_null()) return fallback;
    if (!it->is_string())
        throw std::runtime_error(std::string("auth-noop: config `") + key + "` must be a string");
    return it->get<std::string>();
}

std::vector<std::string> list_setting(const platform::json& config, const char* key) {
    std::vector<std::string> out;
    auto it = config.find(key);
    if (it == config.end() || it->is_null()) return out;
    const std::string what =
        std::string("auth-noop: config `") + key + "` must be an array of strings";
    if (!it->is_array()) throw std::runtime_error(what);
    for (const auto& s : *it) {
        if (!s.is_string()) throw std::runtime_error(what);
        out.push_back(s.get<std::string>());
    }
    return out;
}

}  // namespace

NoopAuth::NoopAuth(const platform::Host& host, const platform::json& config)
    : issuer_(string_setting(config, "issuer", "go.core.api")),
      scopes_(list_setting(config, "scopes")),
      admins_(list_setting(config, "admins")) {
    std::string anon = string_setting(config, "anonymous_account", "");
    if (anon.empty()) {
        anonymous_ = "{}";
        return;
    }
    if (!valid_credential(anon))
        throw std::runtime_error(
            "auth-noop: config `anonymous_account` must be printable ASCII without "
            "spaces, at most 256 bytes");
    auto scopes = scopes_;
    if (std::find(scopes.begin(), scopes.end(), "admin") == scopes.end()) scopes.push_back("admin");
    anonymous_ = account(anon, scopes);
    host.warn("auth-noop: single-user mode, every anonymous caller is the admin account '" + anon +
              "'");
}

bool NoopAuth::valid_credential(std::string_view c) {
    if (c.size() > kMaxCredential) return false;
    return std::all_of(c.begin(), c.end(), [](char ch) { return ch >= 0x21 && ch <= 0x7E; });
}

std::string NoopAuth::account(std::string_view id, const std::vector<std::string>& scopes) const {
    platform::json a = {
        {"id", id}, {"type", "user"}, {"issuer", issuer_}, {"scopes", scopes}, {"name", id}};
    return a.dump();
}

std::optional<std::string> NoopAuth::authenticate(std::string_view credential) const {
    if (credential.empty()) return anonymous_;
    if (!valid_credential(credential)) return std::nullopt;
    if (std::find(admins_.begin(), admins_.end(), credential) != admins_.end()) {
        auto scopes = scopes_;
        if (std::find(scopes.begin(), scopes.end(), "admin") == scopes.end())
            scopes.push_back("admin");
        return account(credential, scopes);
    }
    return account(credential, scopes_);
}

}  // namespace auth_noop
