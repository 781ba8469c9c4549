#include "credentials.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <platform/sdk/text.hpp>

#include "environments.hpp"
#include "rpc_client.hpp"
#include "state_files.hpp"

namespace platform::cli {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kRefreshMargin = 60;  // seconds before expiry at which a token is renewed

int64_t now() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

json read_file() {
    return read_state(tokens_path());
}
void write_file(const json& all) {
    write_state(tokens_path(), all);
}

// An exclusive lock held while one process refreshes, so parallel invocations do not spend the
// same refresh token twice.
class RefreshLock {
public:
    RefreshLock() {
        std::error_code ec;
        fs::create_directories(fs::path(tokens_path()).parent_path(), ec);
        fd_ = ::open((tokens_path() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd_ >= 0) ::flock(fd_, LOCK_EX);
    }
    ~RefreshLock() {
        if (fd_ >= 0) ::close(fd_);  // releases the lock
    }
    RefreshLock(const RefreshLock&) = delete;
    RefreshLock& operator=(const RefreshLock&) = delete;

private:
    int fd_ = -1;
};

bool needs_refresh(const StoredToken& t) {
    return t.expiry > 0 && !t.refresh_token.empty() && t.expiry - now() <= kRefreshMargin;
}

}  // namespace

std::string environment_name() {
    return selected_environment();
}

std::optional<StoredToken> load_token(const std::string& env) {
    json all = read_file();
    if (!all.contains(env) || !all[env].is_object()) return std::nullopt;
    const json& e = all[env];
    StoredToken t;
    t.access_token = e.value("access_token", "");
    t.refresh_token = e.value("refresh_token", "");
    t.account = e.value("account", "");
    if (e.contains("expiry") && e["expiry"].is_number()) t.expiry = e["expiry"].get<int64_t>();
    if (t.access_token.empty() && t.refresh_token.empty()) return std::nullopt;
    return t;
}

void store_token(const StoredToken& t, const std::string& env) {
    json all = read_file();
    all[env] = {{"access_token", t.access_token},
                {"refresh_token", t.refresh_token},
                {"expiry", t.expiry},
                {"account", t.account}};
    write_file(all);
}

bool forget_token(const std::string& env) {
    json all = read_file();
    if (!all.contains(env)) return false;
    all.erase(env);
    write_file(all);
    return true;
}

std::optional<json> jwt_claim(const std::string& token, const std::string& claim) {
    auto first = token.find('.');
    auto second = first == std::string::npos ? first : token.find('.', first + 1);
    if (second == std::string::npos) return std::nullopt;
    json payload = json::parse(
        platform::base64_decode(token.substr(first + 1, second - first - 1)).value_or(""), nullptr,
        false);
    if (!payload.is_object() || !payload.contains(claim)) return std::nullopt;
    return payload[claim];
}

StoredToken token_from_response(const json& r) {
    StoredToken t;
    t.access_token = r.value("access_token", "");
    t.refresh_token = r.value("refresh_token", "");
    if (r.contains("expiry")) {
        const json& e = r["expiry"];
        if (e.is_number())
            t.expiry = e.get<int64_t>();
        else if (e.is_string())
            t.expiry = std::strtoll(e.get<std::string>().c_str(), nullptr, 10);
    }
    if (t.expiry == 0)
        if (auto exp = jwt_claim(t.access_token, "exp"); exp && exp->is_number())
            t.expiry = exp->get<int64_t>();
    if (r.contains("account")) {
        const json& a = r["account"];
        if (a.is_string())
            t.account = a;
        else if (a.is_object())
            t.account = a.value("id", "");
    }
    if (t.account.empty())
        if (auto sub = jwt_claim(t.access_token, "sub"); sub && sub->is_string()) t.account = *sub;
    return t;
}

std::optional<StoredToken> current_login() {
    auto t = load_token();
    if (!t || !needs_refresh(*t)) return t;
    RefreshLock lock;
    t = load_token();  // another process may have refreshed while we waited
    if (!t || !needs_refresh(*t)) return t;
    RpcClient anonymous(default_address(), "");
    auto r = anonymous.call("auth", "token", {{"refresh_token", t->refresh_token}});
    if (r.ok()) {
        StoredToken fresh = token_from_response(r.body);
        if (!fresh.access_token.empty()) {
            if (fresh.refresh_token.empty()) fresh.refresh_token = t->refresh_token;
            if (fresh.account.empty()) fresh.account = t->account;
            store_token(fresh);
            return fresh;
        }
    }
    if (r.http_status >= 500) {
        // The server failed, not the session: keep it and send the current token.
        std::cerr << "warning: could not refresh the access token: " << r.detail() << "\n";
        return t;
    }
    forget_token();
    std::cerr << "session expired, run `platform login`\n";
    return std::nullopt;
}

std::string bearer_token() {
    if (const char* v = std::getenv("PLATFORM_TOKEN"); v && *v) return v;
    auto t = current_login();
    return t ? t->access_token : "";
}

void install_token_provider() {
    // Asked before every call: the file is small, and a long command keeps a fresh token.
    set_token_provider(bearer_token);
}

}  // namespace platform::cli
