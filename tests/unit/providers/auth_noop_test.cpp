// auth-noop through its built .so.
#include <gtest/gtest.h>

#include "../support/built_plugin.hpp"

using namespace plugin_test;

namespace {

struct Answer {
    platform_status_t code;
    nlohmann::json account;
};

Answer authenticate(const Instance& auth, const std::string& credential) {
    std::string out;
    auto* t = auth.table<platform_auth_provider_t>();
    auto st = t->authenticate(auth.inst(), platform_str_t{credential.data(), credential.size()},
                              platform::append_sink, &out);
    return {st, st == PLATFORM_OK ? nlohmann::json::parse(out) : nlohmann::json()};
}

}  // namespace

TEST(AuthNoop, DeclaresItsKind) {
    FakeHost host;
    Instance auth(host, "auth-noop");
    EXPECT_EQ(auth.desc()->kind, PLATFORM_KIND_AUTH);
    EXPECT_EQ(platform::view(auth.desc()->id), "auth-noop");
}

TEST(AuthNoop, NoCredentialIsAnonymous) {
    FakeHost host;
    Instance auth(host, "auth-noop");
    auto a = authenticate(auth, "");
    EXPECT_EQ(a.code, PLATFORM_OK);
    EXPECT_EQ(a.account, nlohmann::json::object());
}

TEST(AuthNoop, SingleUserModeAnswersTheAdminAccount) {
    FakeHost host;
    Instance auth(host, "auth-noop", {{"anonymous_account", "owner"}, {"scopes", {"agent"}}});
    auto a = authenticate(auth, "");
    ASSERT_EQ(a.code, PLATFORM_OK);
    EXPECT_EQ(a.account, (nlohmann::json{{"id", "owner"},
                                         {"type", "user"},
                                         {"issuer", "go.core.api"},
                                         {"scopes", {"agent", "admin"}},
                                         {"name", "owner"}}));
    EXPECT_EQ(authenticate(auth, "bob").account["scopes"], nlohmann::json({"agent"}));
}

TEST(AuthNoop, TokenIsTheAccountId) {
    FakeHost host;
    Instance auth(host, "auth-noop", {{"scopes", {"agent", "work"}}, {"issuer", "test.ns"}});
    auto a = authenticate(auth, "alice");
    ASSERT_EQ(a.code, PLATFORM_OK);
    EXPECT_EQ(a.account, (nlohmann::json{{"id", "alice"},
                                         {"type", "user"},
                                         {"issuer", "test.ns"},
                                         {"scopes", {"agent", "work"}},
                                         {"name", "alice"}}));
    auto odd = authenticate(auth, R"(a"b\c{})");
    ASSERT_EQ(odd.code, PLATFORM_OK);
    EXPECT_EQ(odd.account["id"], R"(a"b\c{})");
}

TEST(AuthNoop, DefaultsGiveNoScopes) {
    FakeHost host;
    Instance auth(host, "auth-noop");
    auto a = authenticate(auth, "bob");
    ASSERT_EQ(a.code, PLATFORM_OK);
    EXPECT_EQ(a.account["scopes"], nlohmann::json::array());
    EXPECT_EQ(a.account["issuer"], "go.core.api");
}

TEST(AuthNoop, BadTokensAreUnauthenticated) {
    FakeHost host;
    Instance auth(host, "auth-noop");
    for (const std::string& bad :
         {std::string("has space"), std::string("tab\t"), std::string("nul\0x", 5),
          std::string("caf\xC3\xA9"), std::string("\x7F"), std::string(257, 'a')})
        EXPECT_EQ(authenticate(auth, bad).code, PLATFORM_UNAUTHENTICATED) << bad;
    EXPECT_EQ(authenticate(auth, std::string(256, 'a')).code, PLATFORM_OK);
}

TEST(AuthNoop, BadConfigIsRefused) {
    FakeHost host;
    EXPECT_NE(create_error(host, "auth-noop", {{"scopes", "admin"}}).find("scopes"),
              std::string::npos);
    EXPECT_NE(create_error(host, "auth-noop", {{"issuer", 7}}).find("issuer"), std::string::npos);
    EXPECT_NE(create_error(host, "auth-noop", {{"anonymous_account", "two words"}})
                  .find("anonymous_account"),
              std::string::npos);
}

TEST(AuthNoop, NamedAdminsGetTheAdminScope) {
    FakeHost host;
    Instance auth(host, "auth-noop", {{"admins", {"root"}}, {"scopes", {"agent"}}});
    auto root = authenticate(auth, "root");
    ASSERT_EQ(root.code, PLATFORM_OK);
    EXPECT_EQ(root.account["scopes"], nlohmann::json::array({"agent", "admin"}));
    auto alice = authenticate(auth, "alice");
    EXPECT_EQ(alice.account["scopes"], nlohmann::json::array({"agent"}));
}
