// auth-local as replicas sharing one store (plugin_test::Replicas: instances on one fake host,
// joined by a broker): two starting at the same moment on an empty store agree on the signing key,
// the admin account (one generated secret, told once) and the default rule; a rule change made
// through one reaches the other at once through the broker (within 5 s without it); a revoked
// login or personal token is refused by the other at once; a refresh token rotates once.
#include "../support/replicas.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "auth_local_fixture.hpp"

namespace {

using namespace plugin_test;
using auth_local_test::cheap_config;

// One replica: its instance, for the provider table, and its endpoints.
struct Replica {
    FakePlugin* plugin = nullptr;
    void* inst = nullptr;

    const platform_auth_provider_t* table() const {
        return static_cast<const platform_auth_provider_t*>(plugin->descriptor()->provider);
    }
    platform_status_t authenticate(const std::string& credential) const {
        std::string out;
        return table()->authenticate(inst, platform_str_t{credential.data(), credential.size()},
                                     platform::append_sink, &out);
    }
    std::string account_of(const std::string& credential) const {
        std::string out;
        if (table()->authenticate(inst, platform_str_t{credential.data(), credential.size()},
                                  platform::append_sink, &out) != PLATFORM_OK)
            return "";
        return json::parse(out).value("id", "");
    }
    uint64_t rules_version() const { return table()->rules_version(inst); }
    json rules() const {
        std::string out;
        EXPECT_EQ(table()->rules(inst, platform::append_sink, &out), PLATFORM_OK);
        return json::parse(out);
    }
    Reply call(const std::string& endpoint, const json& args, const std::string& token = "") {
        std::map<std::string, std::string> headers;
        if (!token.empty()) headers["Authorization"] = "Bearer " + token;
        return plugin->call(endpoint, args, token.empty() ? "" : account_of(token), headers);
    }
    json login(const std::string& id, const std::string& secret) {
        Reply r = plugin->call("token", {{"id", id}, {"secret", secret}});
        EXPECT_EQ(r.code, PLATFORM_OK) << r.body;
        return r.code == PLATFORM_OK ? r.json() : json::object();
    }
};

class AuthReplicasTest : public ::testing::Test {
protected:
    void SetUp() override {
        unsetenv("PLATFORM_ADMIN_SECRET");
        unsetenv("PLATFORM_AUTH_PRIVATE_KEY");
        unsetenv("PLATFORM_NAMESPACE");
    }
    Replica load(const json& config = cheap_config()) {
        Replica r;
        r.inst = replicas.create(platform_plugin_entry, config, "");
        EXPECT_EQ(replicas.descriptor()->on_start(r.inst), PLATFORM_OK);
        r.plugin = &replicas.adopt(r.inst);
        r.plugin->call("me");  // waits for `admin`, settled on a thread of its own (decision 80)
        return r;
    }

    FakeHost host;
    Replicas replicas{host};
};

// The secret in the operator notice of a generated admin secret ("...the secret\n\n    <s>\n").
std::string told_secret(const std::vector<std::string>& logs, int* notices) {
    std::string secret;
    for (const auto& line : logs) {
        const std::string mark = "created account admin with the secret\n\n    ";
        if (line.rfind(mark, 0) != 0) continue;
        ++*notices;
        secret = line.substr(mark.size(), line.find('\n', mark.size()) - mark.size());
    }
    return secret;
}

TEST(AuthReplicasRace, TwoReplicasStartingTogetherAgreeOnKeyAdminAndDefaultRule) {
    unsetenv("PLATFORM_ADMIN_SECRET");
    unsetenv("PLATFORM_AUTH_PRIVATE_KEY");
    json config = cheap_config();
    config.erase("admin_secret");  // generated: each replica would make its own
    for (int round = 0; round < 8; ++round) {
        FakeHost host;
        Replicas replicas(host);
        Replica one, two;
        one.inst = replicas.create(platform_plugin_entry, config, "node-a");
        two.inst = replicas.create(platform_plugin_entry, config, "node-b");
        platform_status_t started[2] = {PLATFORM_INTERNAL, PLATFORM_INTERNAL};
        {
            std::thread a([&] { started[0] = replicas.descriptor()->on_start(one.inst); });
            std::thread b([&] { started[1] = replicas.descriptor()->on_start(two.inst); });
            a.join();
            b.join();
        }
        one.plugin = &replicas.adopt(one.inst);
        two.plugin = &replicas.adopt(two.inst);
        ASSERT_EQ(started[0], PLATFORM_OK);
        ASSERT_EQ(started[1], PLATFORM_OK);
        // Each settles `admin` on a thread of its own; a call waits for it (decision 80).
        one.plugin->call("me");
        two.plugin->call("me");

        int notices = 0;
        const std::string secret = told_secret(replicas.logs(), &notices);
        EXPECT_EQ(notices, 1) << "round " << round;  // one admin, its secret told once
        ASSERT_FALSE(secret.empty());
        // Logged in through one, the token is good on the other: the same signing key.
        const std::string access = one.login("admin", secret).value("access_token", "");
        EXPECT_EQ(two.authenticate(access), PLATFORM_OK) << "round " << round;
        const std::string back = two.login("admin", secret).value("access_token", "");
        EXPECT_EQ(one.authenticate(back), PLATFORM_OK) << "round " << round;
        EXPECT_EQ(one.rules(), two.rules());
        EXPECT_EQ(one.rules().size(), 1u);
        size_t accounts = 0;
        {
            std::lock_guard<std::mutex> g(host.store_mutex);
            for (auto& [k, e] : host.store) accounts += k.rfind("account/", 0) == 0;
        }
        EXPECT_EQ(accounts, 1u);
    }
}

TEST_F(AuthReplicasTest, ARuleChangeThroughOneReachesTheOtherAtOnce) {
    Replica one = load(), two = load();
    const std::string admin = one.login("admin", "admin-secret-1").value("access_token", "");
    const uint64_t before = two.rules_version();  // read now: the next re-read is 5 s away
    ASSERT_EQ(one.call("createRule",
                       {{"id", "closed"},
                        {"scope", "<public>"},
                        {"resource", "service:notes:*"},
                        {"access", "DENIED"},
                        {"priority", 5}},
                       admin)
                  .code,
              PLATFORM_OK);
    EXPECT_GT(two.rules_version(), before);  // the broker's message: read again at once
    EXPECT_EQ(two.rules().size(), 2u);
    EXPECT_EQ(two.rules_version(), one.rules_version());

    const uint64_t now = two.rules_version();
    ASSERT_EQ(two.call("deleteRule", {{"id", "closed"}}, admin).code, PLATFORM_OK);
    EXPECT_GT(one.rules_version(), now);  // the other way too
    EXPECT_EQ(one.rules().size(), 1u);
}

TEST_F(AuthReplicasTest, WithoutABrokerTheOtherKeepsItsVersionUntilTheReRead) {
    replicas.broker_up = false;
    Replica one = load(), two = load();
    const std::string admin = one.login("admin", "admin-secret-1").value("access_token", "");
    const uint64_t before = two.rules_version();
    ASSERT_EQ(
        one.call("createRule", {{"id", "x"}, {"scope", "*"}, {"resource", "*:*:*"}}, admin).code,
        PLATFORM_OK);
    EXPECT_EQ(two.rules_version(), before);  // until its 5 s re-read (rules.cpp)
    EXPECT_GT(one.rules_version(), before);
}

TEST_F(AuthReplicasTest, ARevokedTokenIsRefusedByTheOtherAtOnce) {
    Replica one = load(), two = load();
    json login = one.login("admin", "admin-secret-1");
    const std::string access = login.value("access_token", "");
    ASSERT_EQ(two.authenticate(access), PLATFORM_OK);
    ASSERT_EQ(
        one.call("revoke", {{"refresh_token", login.value("refresh_token", "")}}, access).code,
        PLATFORM_OK);
    EXPECT_EQ(two.authenticate(access), PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(one.authenticate(access), PLATFORM_UNAUTHENTICATED);

    const std::string admin = two.login("admin", "admin-secret-1").value("access_token", "");
    Reply made = two.call("createToken", {{"name", "script"}}, admin);
    ASSERT_EQ(made.code, PLATFORM_OK) << made.body;
    const std::string personal = made.json().value("token", "");
    ASSERT_EQ(one.authenticate(personal), PLATFORM_OK);
    ASSERT_EQ(two.call("deleteToken", {{"id", made.json().value("id", "")}}, admin).code,
              PLATFORM_OK);
    EXPECT_EQ(one.authenticate(personal), PLATFORM_UNAUTHENTICATED);
}

TEST_F(AuthReplicasTest, ARefreshTokenRotatesOnceAcrossReplicas) {
    Replica one = load(), two = load();
    const std::string refresh = one.login("admin", "admin-secret-1").value("refresh_token", "");
    for (int round = 0; round < 5; ++round) {
        Reply got[2];
        std::thread a([&] { got[0] = one.plugin->call("token", {{"refresh_token", refresh}}); });
        std::thread b([&] { got[1] = two.plugin->call("token", {{"refresh_token", refresh}}); });
        a.join();
        b.join();
        if (round == 0) {
            EXPECT_NE(got[0].code == PLATFORM_OK, got[1].code == PLATFORM_OK)
                << got[0].body << " / " << got[1].body;  // exactly one
        } else {
            EXPECT_NE(got[0].code, PLATFORM_OK);  // used up
            EXPECT_NE(got[1].code, PLATFORM_OK);
        }
    }
}

}  // namespace
