// The auth-local plugin (plugins/auth-local) linked in and driven through the SDK's fake host:
// its endpoints through FakePlugin::call, its provider table directly. Cheap argon2id settings.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "../support/plugin_under_test.hpp"

namespace auth_local_test {

using namespace plugin_test;

inline json cheap_config() {
    return {{"argon2_ops", 1},
            {"argon2_mem_kib", 8},
            {"admin_secret", "admin-secret-1"},
            {"namespace", "go.core.api"}};
}

struct Answer {
    platform_status_t code;
    json identity;
};

class AuthLocalTest : public ::testing::Test {
protected:
    void SetUp() override {
        unsetenv("PLATFORM_ADMIN_SECRET");
        unsetenv("PLATFORM_AUTH_PRIVATE_KEY");
        unsetenv("PLATFORM_NAMESPACE");
        ASSERT_TRUE(start());
    }
    // Loads the plugin as FakeHost::load does, keeping the instance for the provider table.
    // Returns false (and the reason) when on_create or on_start fails.
    bool start(json config = cheap_config(), std::string* why = nullptr) {
        plugin.reset();
        inst_ = nullptr;
        char err[512] = {0};
        platform_entry_args_t args = plugin_test::entry_args(host.api(), err);
        const platform_plugin_desc_t* desc = platform_plugin_entry(&args);
        if (!desc) return false;
        host.config = config;
        std::string cfg = config.dump();
        void* inst = desc->on_create(host.api(), host.ctx(), platform::view(cfg), err, sizeof err);
        if (!inst) {
            if (why) *why = err;
            return false;
        }
        if (desc->on_start(inst) != PLATFORM_OK) {
            if (why) *why = host.logs.empty() ? "" : host.logs.back();
            desc->on_destroy(inst);
            return false;
        }
        inst_ = inst;
        plugin = std::make_unique<FakePlugin>(&host, desc, inst);
        // on_start settles `admin` on a thread of its own (decision 80); every call of the
        // service waits for it, so one call (any: `me` is refused without a token) makes the
        // tests see the store as a started plugin's callers do.
        plugin->call("me", json::object(), "");
        return true;
    }

    const platform_auth_provider_t* table() const {
        return static_cast<const platform_auth_provider_t*>(plugin->descriptor()->provider);
    }
    void* inst() const { return inst_; }

    Answer authenticate(const std::string& credential) const {
        std::string out;
        auto st =
            table()->authenticate(inst(), platform_str_t{credential.data(), credential.size()},
                                  platform::append_sink, &out);
        return {st, st == PLATFORM_OK ? json::parse(out) : json()};
    }
    uint64_t rules_version() const { return table()->rules_version(inst()); }
    json lent_rules() const {
        std::string out;
        EXPECT_EQ(table()->rules(inst(), platform::append_sink, &out), PLATFORM_OK);
        return json::parse(out);
    }

    // Calls an endpoint as the holder of `token` (its account, with the bearer header), or
    // anonymously when token is empty.
    Reply call(const std::string& endpoint, const json& args, const std::string& token = "",
               std::map<std::string, std::string> headers = {}) {
        std::string account;
        if (!token.empty()) {
            auto a = authenticate(token);
            if (a.code == PLATFORM_OK) account = a.identity.value("id", "");
            headers["Authorization"] = "Bearer " + token;
        }
        return plugin->call(endpoint, args, account, std::move(headers));
    }

    json login(const std::string& id, const std::string& secret,
               std::map<std::string, std::string> headers = {}) {
        Reply r = plugin->call("token", {{"id", id}, {"secret", secret}}, "", std::move(headers));
        EXPECT_EQ(r.code, PLATFORM_OK) << r.body;
        return r.code == PLATFORM_OK ? r.json() : json::object();
    }
    std::string admin_token() { return login("admin", "admin-secret-1").value("access_token", ""); }

    // Every key and value of the plugin's store table, concatenated.
    std::string store_dump() {
        std::string all;
        for (auto& [k, e] : host.store) all += k + "\n" + e.value + "\n";
        return all;
    }

    FakeHost host;
    std::unique_ptr<FakePlugin> plugin;
    void* inst_ = nullptr;
};

}  // namespace auth_local_test
