// auth-local: accounts, the admin bootstrap, logins and refresh rotation, personal and services
// tokens, sessions, namespaces and time zones — through the fake host.
#include <openssl/evp.h>

#include "auth_local_fixture.hpp"

using namespace auth_local_test;

namespace {

std::string sha256_hex(const std::string& s) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_Digest(s.data(), s.size(), md, &n, EVP_sha256(), nullptr);
    static const char* d = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < n; ++i) out += d[md[i] >> 4], out += d[md[i] & 15];
    return out;
}

bool logged(const FakeHost& h, const std::string& text) {
    for (const auto& l : h.logs)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

TEST_F(AuthLocalTest, IsAnAuthProviderThatServesAuth) {
    const auto* d = plugin->descriptor();
    EXPECT_EQ(d->kind, PLATFORM_KIND_AUTH);
    EXPECT_EQ(platform::view(d->service), "auth");
    EXPECT_GT(d->endpoint_count, 15u);
    ASSERT_NE(table(), nullptr);
    EXPECT_NE(table()->rules_version, nullptr);
    EXPECT_NE(table()->rules, nullptr);
    EXPECT_EQ(authenticate("").identity, json::object());
}

TEST_F(AuthLocalTest, AdminIsCreatedOnceWithTheGivenSecret) {
    EXPECT_TRUE(logged(host, "created account admin with the secret from PLATFORM_ADMIN_SECRET"));
    json t = login("admin", "admin-secret-1");
    EXPECT_EQ(t["account"]["scopes"], json::array({"admin"}));
    host.logs.clear();
    ASSERT_TRUE(start());  // a restart on the same store: nothing new
    EXPECT_FALSE(logged(host, "created account admin"));
}

// The namespace comes from the host's config table (platform.namespace), not the environment.
TEST_F(AuthLocalTest, AdminIsCreatedInTheHostsNamespace) {
    host.store.clear();
    host.platform_namespace = "acme.prod";
    setenv("PLATFORM_NAMESPACE", "from.the.environment", 1);  // no longer read
    json config = cheap_config();
    config.erase("namespace");  // the plugin's own setting would win
    const bool started = start(config);
    unsetenv("PLATFORM_NAMESPACE");
    ASSERT_TRUE(started);
    EXPECT_TRUE(host.store.count("account/acme.prod/admin"));
    EXPECT_FALSE(host.store.count("account/from.the.environment/admin"));
    EXPECT_FALSE(host.store.count("account/go.core.api/admin"));
}

// A generated secret goes to the operator (PLATFORM_LOG_OPERATOR), never to a log line.
TEST_F(AuthLocalTest, AGeneratedAdminSecretIsToldToTheOperatorOnceAndNeverLogged) {
    host.store.clear();
    host.logs.clear();
    json cfg = cheap_config();
    cfg.erase("admin_secret");
    ASSERT_TRUE(start(cfg));
    ASSERT_EQ(host.operator_notices.size(), 1u);
    const std::string& notice = host.operator_notices[0];
    const std::string lead = "created account admin with the secret\n\n    ";
    ASSERT_EQ(notice.rfind(lead, 0), 0u) << notice;
    const std::string secret =
        notice.substr(lead.size(), notice.find('\n', lead.size()) - lead.size());
    EXPECT_EQ(secret.size(), 24u) << notice;
    EXPECT_NE(notice.find("platform admin reset-secret"), std::string::npos) << notice;
    for (const auto& l : host.logs) EXPECT_EQ(l.find(secret), std::string::npos) << l;
    EXPECT_TRUE(logged(host, "its secret is shown once on the console"));
    login("admin", secret);
    host.logs.clear();
    host.operator_notices.clear();
    ASSERT_TRUE(start(cfg));
    EXPECT_FALSE(logged(host, "created account admin"));
    EXPECT_TRUE(host.operator_notices.empty());
}

TEST_F(AuthLocalTest, DisableAdminRemovesTheAdminAccount) {
    json cfg = cheap_config();
    cfg["disable_admin"] = true;
    ASSERT_TRUE(start(cfg));
    Reply r = plugin->call("token", {{"id", "admin"}, {"secret", "admin-secret-1"}});
    EXPECT_EQ(r.code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(AuthLocalTest, AccountsCreateDuplicateAndDelete) {
    std::string admin = admin_token();
    Reply made = call("createAccount",
                      {{"id", "alice"}, {"secret", "alice-secret"}, {"scopes", {"reader"}}}, admin);
    ASSERT_EQ(made.code, PLATFORM_OK) << made.body;
    EXPECT_EQ(made.json()["secret"], "alice-secret");
    EXPECT_EQ(made.json()["account"]["issuer"], "go.core.api");
    EXPECT_EQ(made.json()["account"]["metadata"]["timezone"], "UTC");

    Reply dup = call("createAccount", {{"id", "alice"}}, admin);
    EXPECT_EQ(dup.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(dup.body, "id: already exists");
    Reply dup_name = call("createAccount", {{"id", "alice2"}, {"name", "alice"}}, admin);
    EXPECT_EQ(dup_name.body, "name: already exists");
    Reply generated = call("createAccount", {{"id", "bob"}}, admin);
    ASSERT_EQ(generated.code, PLATFORM_OK);
    EXPECT_GE(generated.json()["secret"].get<std::string>().size(), 16u);

    Reply list = call("listAccounts", json::object(), admin);
    ASSERT_EQ(list.code, PLATFORM_OK);
    EXPECT_EQ(list.json()["accounts"].size(), 3u);  // admin, alice, bob
    EXPECT_FALSE(list.json()["accounts"][0].contains("secret_hash"));

    Reply own = call("deleteAccount", {{"id", "admin"}}, admin);
    EXPECT_EQ(own.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(own.body, "id: can't delete your own account");

    std::string alice = login("alice", "alice-secret")["access_token"];
    ASSERT_EQ(authenticate(alice).code, PLATFORM_OK);
    ASSERT_EQ(call("deleteAccount", {{"id", "alice"}}, admin).code, PLATFORM_OK);
    EXPECT_EQ(authenticate(alice).code, PLATFORM_UNAUTHENTICATED);  // deleted account
    EXPECT_EQ(call("deleteAccount", {{"id", "alice"}}, admin).code, PLATFORM_NOT_FOUND);
}

TEST_F(AuthLocalTest, SecretsAreStoredAsArgon2idHashesOnly) {
    std::string admin = admin_token();
    ASSERT_EQ(call("createAccount", {{"id", "carol"}, {"secret", "carol-secret-xyz"}}, admin).code,
              PLATFORM_OK);
    auto it = host.store.find("account/go.core.api/carol");
    ASSERT_NE(it, host.store.end());
    json stored = json::parse(it->second.value);
    EXPECT_EQ(stored["secret_hash"].get<std::string>().rfind("$argon2id$", 0), 0u) << stored.dump();
    json t = login("carol", "carol-secret-xyz");
    Reply pat = call("createToken", {{"name", "ci"}}, t["access_token"]);
    ASSERT_EQ(pat.code, PLATFORM_OK);
    const std::string all = store_dump();
    for (const std::string& secret :
         {std::string("carol-secret-xyz"), std::string("admin-secret-1"),
          t["refresh_token"].get<std::string>(), pat.json()["token"].get<std::string>()})
        EXPECT_EQ(all.find(secret), std::string::npos) << "found in the store: " << secret;
}

TEST_F(AuthLocalTest, TokenErrors) {
    Reply neither = plugin->call("token", {{"id", "admin"}});
    EXPECT_EQ(neither.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(neither.body, "Credentials or a refresh token required");
    Reply wrong = plugin->call("token", {{"id", "admin"}, {"secret", "nope-nope"}});
    EXPECT_EQ(wrong.code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(wrong.body, "invalid credentials");
    Reply unknown = plugin->call("token", {{"id", "nobody"}, {"secret", "nope-nope"}});
    EXPECT_EQ(unknown.code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(unknown.body, "invalid credentials");
    Reply by_name = plugin->call("token", {{"name", "admin"}, {"secret", "admin-secret-1"}});
    EXPECT_EQ(by_name.code, PLATFORM_OK);
}

TEST_F(AuthLocalTest, RefreshTokensRotate) {
    json first = login("admin", "admin-secret-1");
    EXPECT_EQ(first["expiry"].get<int64_t>() - first["created"].get<int64_t>(), 900);
    Reply next =
        plugin->call("token", {{"refresh_token", first["refresh_token"]}, {"token_expiry", 120}});
    ASSERT_EQ(next.code, PLATFORM_OK) << next.body;
    json second = next.json();
    EXPECT_NE(second["refresh_token"], first["refresh_token"]);
    EXPECT_EQ(second["expiry"].get<int64_t>() - second["created"].get<int64_t>(), 120);
    EXPECT_EQ(authenticate(second["access_token"]).code, PLATFORM_OK);
    Reply reused = plugin->call("token", {{"refresh_token", first["refresh_token"]}});
    EXPECT_EQ(reused.code, PLATFORM_UNAUTHENTICATED);  // the old one was used up
    EXPECT_EQ(authenticate(first["refresh_token"]).code,
              PLATFORM_UNAUTHENTICATED);  // not a bearer credential
}

TEST_F(AuthLocalTest, RevokeEndsTheLoginAndItsAccessTokens) {
    json t = login("admin", "admin-secret-1");
    std::string access = t["access_token"];
    Reply r = call("revoke", {{"refresh_token", t["refresh_token"]}}, access);
    ASSERT_EQ(r.code, PLATFORM_OK);
    EXPECT_EQ(r.json()["revoked"], true);
    EXPECT_EQ(authenticate(access).code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(plugin->call("token", {{"refresh_token", t["refresh_token"]}}).code,
              PLATFORM_UNAUTHENTICATED);
}

TEST_F(AuthLocalTest, PersonalTokensAreFoundBySha256AndRevoked) {
    std::string admin = admin_token();
    Reply made = call("createToken", {{"name", "laptop"}, {"capabilities", {"agent"}}}, admin);
    ASSERT_EQ(made.code, PLATFORM_OK) << made.body;
    const std::string pat = made.json()["token"];
    EXPECT_EQ(pat.size(), 43u);
    EXPECT_NE(host.store.find("token/" + sha256_hex(pat)), host.store.end());

    Answer a = authenticate(pat);
    ASSERT_EQ(a.code, PLATFORM_OK);
    EXPECT_EQ(a.identity["id"], "admin");
    EXPECT_EQ(a.identity["credential"]["kind"], "personal");
    EXPECT_EQ(a.identity["credential"]["id"], made.json()["id"]);
    EXPECT_EQ(a.identity["credential"]["capabilities"], json::array({"agent"}));
    EXPECT_EQ(a.identity["credential"]["services"], json::array());

    // last_used: recorded, then not again within a minute.
    auto last_used = [&] {
        json l = call("listTokens", json::object(), admin).json();
        for (auto& t : l["tokens"])
            if (t["id"] == made.json()["id"]) return t["last_used"];
        return json();
    };
    json first = last_used();
    ASSERT_TRUE(first.is_number());
    host.now_ms += 30000;
    authenticate(pat);
    EXPECT_EQ(last_used(), first);
    host.now_ms += 31000;
    authenticate(pat);
    EXPECT_EQ(last_used().get<int64_t>(), first.get<int64_t>() + 61);

    // A restricted token cannot mint another one.
    EXPECT_EQ(call("createToken", json::object(), pat).code, PLATFORM_PERMISSION_DENIED);
    ASSERT_EQ(call("deleteToken", {{"id", made.json()["id"]}}, admin).code, PLATFORM_OK);
    EXPECT_EQ(authenticate(pat).code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(call("deleteToken", {{"id", made.json()["id"]}}, admin).code, PLATFORM_NOT_FOUND);
}

TEST_F(AuthLocalTest, ServicesTokensAndExpiryOnTheBusinessClock) {
    std::string admin = admin_token();
    Reply made = call("createToken",
                      {{"kind", "services"}, {"services", {"notes"}}, {"expiry_days", 1}}, admin);
    ASSERT_EQ(made.code, PLATFORM_OK) << made.body;
    Answer a = authenticate(made.json()["token"]);
    ASSERT_EQ(a.code, PLATFORM_OK);
    EXPECT_EQ(a.identity["credential"]["kind"], "services");
    EXPECT_EQ(a.identity["credential"]["services"], json::array({"notes"}));
    host.now_ms += 86400000;
    EXPECT_EQ(authenticate(made.json()["token"]).code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(AuthLocalTest, SessionsCarryTheirCsrfToken) {
    Reply s = plugin->call("createSession", {{"id", "admin"}, {"secret", "admin-secret-1"}});
    ASSERT_EQ(s.code, PLATFORM_OK) << s.body;
    const std::string token = s.json()["token"], csrf = s.json()["csrf_token"];
    EXPECT_EQ(csrf.size(), 64u);  // hex HMAC-SHA256
    Answer a = authenticate(token);
    ASSERT_EQ(a.code, PLATFORM_OK);
    EXPECT_EQ(a.identity["credential"]["kind"], "session");
    EXPECT_EQ(a.identity["credential"]["id"], s.json()["id"]);
    EXPECT_EQ(a.identity["credential"]["csrf"], csrf);
    EXPECT_FALSE(a.identity["credential"].contains("services"));
    EXPECT_EQ(plugin->call("createSession", {{"id", "admin"}, {"secret", "wrong-wrong"}}).code,
              PLATFORM_UNAUTHENTICATED);

    // Logout with the cookie: deleteSession without arguments ends the calling session.
    Reply out = plugin->call("deleteSession", json::object(), "admin",
                             {{"Cookie", "a=b; platform_session=" + token}});
    ASSERT_EQ(out.code, PLATFORM_OK) << out.body;
    EXPECT_EQ(out.json()["deleted"], true);
    EXPECT_EQ(authenticate(token).code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(AuthLocalTest, ChangeSecretMeAndTimezone) {
    std::string admin = admin_token();
    ASSERT_EQ(call("createAccount", {{"id", "dave"}, {"secret", "dave-secret"}}, admin).code,
              PLATFORM_OK);
    std::string dave = login("dave", "dave-secret")["access_token"];
    EXPECT_EQ(call("changeSecret", {{"new_secret", "dave-secret-2"}}, dave).body,
              "old_secret: is required to change your own secret");
    EXPECT_EQ(
        call("changeSecret", {{"old_secret", "bad-bad-bad"}, {"new_secret", "dave-secret-2"}}, dave)
            .body,
        "old_secret: not correct");
    EXPECT_EQ(call("changeSecret", {{"id", "admin"}, {"new_secret", "dave-secret-2"}}, dave).code,
              PLATFORM_PERMISSION_DENIED);
    ASSERT_EQ(
        call("changeSecret", {{"old_secret", "dave-secret"}, {"new_secret", "dave-secret-2"}}, dave)
            .code,
        PLATFORM_OK);
    login("dave", "dave-secret-2");
    ASSERT_EQ(call("changeSecret", {{"id", "dave"}, {"new_secret", "dave-secret-3"}}, admin).code,
              PLATFORM_OK);
    login("dave", "dave-secret-3");

    Reply tz = call("setTimezone", {{"timezone", "Europe/London"}}, dave);
    ASSERT_EQ(tz.code, PLATFORM_OK) << tz.body;
    EXPECT_EQ(call("me", json::object(), dave).json()["account"]["metadata"]["timezone"],
              "Europe/London");
    for (const char* bad : {"Mars/Base", "../../etc/passwd", "/etc/localtime", "Europe", ""})
        EXPECT_EQ(call("setTimezone", {{"timezone", bad}}, dave).code, PLATFORM_INVALID_ARGUMENT)
            << bad;
    EXPECT_EQ(authenticate(dave).identity["metadata"]["timezone"], "Europe/London");
}

TEST_F(AuthLocalTest, AccountsLiveInTheRequestNamespace) {
    std::string admin = admin_token();
    std::map<std::string, std::string> other = {{"Platform-Namespace", "other.ns"}};
    Reply made = call("createAccount", {{"id", "erin"}, {"secret", "erin-secret"}}, admin, other);
    ASSERT_EQ(made.code, PLATFORM_OK) << made.body;
    EXPECT_EQ(made.json()["account"]["issuer"], "other.ns");
    EXPECT_EQ(plugin->call("token", {{"id", "erin"}, {"secret", "erin-secret"}}).code,
              PLATFORM_UNAUTHENTICATED);
    json t = login("erin", "erin-secret", other);
    Answer a = authenticate(t["access_token"]);
    ASSERT_EQ(a.code, PLATFORM_OK);
    EXPECT_EQ(a.identity["issuer"], "other.ns");
    EXPECT_EQ(call("me", json::object(), t["access_token"]).json()["account"]["issuer"],
              "other.ns");
    // erin administers nothing, and an account of other.ns cannot reach the server's namespace.
    EXPECT_EQ(call("listAccounts", json::object(), t["access_token"],
                   {{"Platform-Namespace", "go.core.api"}})
                  .code,
              PLATFORM_PERMISSION_DENIED);
    EXPECT_EQ(call("createAccount", {{"id", "x"}}, admin, {{"Platform-Namespace", "Bad/NS"}}).code,
              PLATFORM_INVALID_ARGUMENT);
}

TEST_F(AuthLocalTest, InspectAnswersTheIdentity) {
    json t = login("admin", "admin-secret-1");
    Reply r = plugin->call("inspect", {{"token", t["access_token"]}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json()["id"], "admin");
    EXPECT_EQ(r.json()["type"], "user");
    EXPECT_EQ(r.json()["issuer"], "go.core.api");
    EXPECT_EQ(r.json()["name"], "admin");
    EXPECT_EQ(r.json()["scopes"], json::array({"admin"}));
    EXPECT_EQ(r.json()["credential"]["kind"], "access");
    EXPECT_EQ(plugin->call("inspect", {{"token", "garbage"}}).code, PLATFORM_INVALID_ARGUMENT);
}

}  // namespace
