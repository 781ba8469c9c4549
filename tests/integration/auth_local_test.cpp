// auth-local under the real host and the `local` profile (SQLite under a temporary PLATFORM_HOME):
// the admin bootstrap, logins through POST /auth/token, accounts, refresh rotation, revocation,
// personal tokens, a restart keeping accounts, tokens and the signing key, and a store file that
// holds no secret or token in clear.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

#include "command.hpp"
#include "host_process.hpp"
#include "http_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

HostProcess::Options local(const std::string& home, std::map<std::string, std::string> env = {}) {
    HostProcess::Options o;
    o.profile = "local";
    o.home = home;
    o.env = std::move(env);
    if (!o.env.count("PLATFORM_ADMIN_SECRET")) o.env["PLATFORM_ADMIN_SECRET"] = "";
    return o;
}

TEST(AuthLocal, AccountsAndTokensThroughTheGatewayAndARestart) {
    TempDir home;
    const std::string admin_secret = "admin-secret-integration";
    const std::string alice_secret = "alice-secret-integration";
    std::vector<std::string> never_stored = {admin_secret, alice_secret};
    std::string pat, alice_refresh;
    {
        HostProcess host(local(home.path(), {{"PLATFORM_ADMIN_SECRET", admin_secret}}));
        host.start();
        EXPECT_TRUE(
            host.wait_for_log("created account admin with the secret from PLATFORM_ADMIN_SECRET"))
            << host.log();
        HttpClient c("127.0.0.1", host.api_port());

        // Log in as admin (the rpc handler's /<service>/<method> path).
        auto wrong = c.post_json("/auth/token", {{"id", "admin"}, {"secret", "not-the-secret"}});
        EXPECT_EQ(wrong.status, 401) << wrong.body;
        auto none = c.post_json("/auth/token", {{"id", "admin"}});
        EXPECT_EQ(none.status, 400) << none.body;
        auto t = c.post_json("/auth/token", {{"id", "admin"}, {"secret", admin_secret}});
        ASSERT_EQ(t.status, 200) << t.body << host.log();
        const std::string admin = t.json()["access_token"];
        never_stored.push_back(t.json()["refresh_token"]);

        // An account, its login, /auth/me.
        auto made = c.post_json("/auth/createAccount", {{"id", "alice"}, {"secret", alice_secret}},
                                bearer(admin));
        ASSERT_EQ(made.status, 200) << made.body;
        EXPECT_EQ(c.post_json("/auth/createAccount", {{"id", "alice"}}, bearer(admin)).status, 400);
        EXPECT_EQ(c.post_json("/auth/createAccount", {{"id", "mallory"}}).status,
                  401);  // admin only
        auto login = c.post_json("/auth/token", {{"id", "alice"}, {"secret", alice_secret}});
        ASSERT_EQ(login.status, 200) << login.body;
        const std::string alice = login.json()["access_token"];
        never_stored.push_back(login.json()["refresh_token"]);
        auto me = c.get("/auth/me", bearer(alice));
        ASSERT_EQ(me.status, 200) << me.body;
        EXPECT_EQ(me.json()["account"]["id"], "alice");
        EXPECT_EQ(me.json()["account"]["issuer"], "go.core.api");

        // Owner endpoints need the account now; the token opens them.
        EXPECT_EQ(c.get("/api/v1/notes/list").status, 401);
        ASSERT_EQ(c.post_json("/api/v1/notes/add", {{"title", "kept"}, {"text", "across restarts"}},
                              bearer(alice))
                      .status,
                  200);
        EXPECT_EQ(
            c.get("/api/v1/notes/list", {{"Authorization", "Bearer forged.token.here"}}).status,
            401);

        // Refresh rotates; the old refresh token is used up.
        auto refreshed =
            c.post_json("/auth/token", {{"refresh_token", login.json()["refresh_token"]}});
        ASSERT_EQ(refreshed.status, 200) << refreshed.body;
        alice_refresh = refreshed.json()["refresh_token"];
        never_stored.push_back(alice_refresh);
        EXPECT_EQ(
            c.post_json("/auth/token", {{"refresh_token", login.json()["refresh_token"]}}).status,
            401);
        const std::string alice2 = refreshed.json()["access_token"];
        EXPECT_EQ(c.get("/auth/me", bearer(alice2)).status, 200);

        // A personal token, for after the restart.
        auto p = c.post_json("/auth/createToken", {{"name", "integration"}}, bearer(alice2));
        ASSERT_EQ(p.status, 200) << p.body;
        pat = p.json()["token"];
        never_stored.push_back(pat);

        // Revoke (logout): the refresh token and the access tokens of that login stop working.
        auto revoked =
            c.post_json("/auth/revoke", {{"refresh_token", alice_refresh}}, bearer(alice2));
        ASSERT_EQ(revoked.status, 200) << revoked.body;
        EXPECT_EQ(revoked.json()["revoked"], true);
        EXPECT_EQ(c.post_json("/auth/token", {{"refresh_token", alice_refresh}}).status, 401);
        EXPECT_EQ(c.get("/auth/me", bearer(alice2)).status, 401);
        EXPECT_EQ(c.get("/auth/me", bearer(pat)).status, 200);
        EXPECT_EQ(host.stop(), 0) << host.log();
    }

    HostProcess again(local(home.path()));  // no PLATFORM_ADMIN_SECRET now: admin exists already
    again.start();
    EXPECT_EQ(again.log().find("created account admin"), std::string::npos) << again.log();
    HttpClient c("127.0.0.1", again.api_port());
    auto me = c.get("/auth/me", bearer(pat));
    ASSERT_EQ(me.status, 200) << me.body << again.log();
    EXPECT_EQ(me.json()["account"]["id"], "alice");
    auto note = c.get("/api/v1/notes/get?title=kept", bearer(pat));
    ASSERT_EQ(note.status, 200) << note.body;
    EXPECT_EQ(note.json()["data"]["text"], "across restarts");
    auto login = c.post_json("/auth/token", {{"id", "alice"}, {"secret", alice_secret}});
    ASSERT_EQ(login.status, 200) << login.body;
    EXPECT_EQ(c.get("/auth/me", bearer(login.json()["access_token"])).status, 200);
    EXPECT_EQ(c.post_json("/auth/token", {{"id", "admin"}, {"secret", admin_secret}}).status, 200);
    EXPECT_EQ(again.stop(), 0);

    // The SQLite files hold hashes only.
    std::string bytes;
    for (const auto& entry : std::filesystem::directory_iterator(home.path() + "/data"))
        if (entry.path().filename().string().rfind("store.db", 0) == 0)
            bytes += read_file(entry.path().string());
    ASSERT_NE(bytes.find("account/go.core.api/alice"), std::string::npos);  // the right file
    for (const auto& secret : never_stored)
        EXPECT_EQ(bytes.find(secret), std::string::npos) << secret;
    EXPECT_EQ(bytes.find("PRIVATE KEY"), std::string::npos);  // the signing key is sealed
}

// auth-local keeps an access token's identity for a second (decision 76); a change made through
// this host is seen at the next request all the same: a deleted account's token is refused at
// once.
TEST(AuthLocal, AKeptIdentityGivesWayToAChangeAtOnce) {
    TempDir home;
    const std::string admin_secret = "admin-secret-kept-identity";
    HostProcess host(local(home.path(), {{"PLATFORM_ADMIN_SECRET", admin_secret}}));
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    auto t = c.post_json("/auth/token", {{"id", "admin"}, {"secret", admin_secret}});
    ASSERT_EQ(t.status, 200) << t.body << host.log();
    const std::string admin = t.json()["access_token"];
    auto made = c.post_json("/auth/createAccount", {{"id", "bob"}}, bearer(admin));
    ASSERT_EQ(made.status, 200) << made.body;
    auto login = c.post_json("/auth/token", {{"id", "bob"}, {"secret", made.json()["secret"]}});
    ASSERT_EQ(login.status, 200) << login.body;
    const std::string bob = login.json()["access_token"];
    for (int i = 0; i < 3; ++i) ASSERT_EQ(c.get("/api/v1/notes/list", bearer(bob)).status, 200);
    auto gone = c.post_json("/auth/deleteAccount", {{"id", "bob"}}, bearer(admin));
    ASSERT_EQ(gone.status, 200) << gone.body;
    EXPECT_EQ(c.get("/api/v1/notes/list", bearer(bob)).status, 401);
    EXPECT_EQ(c.get("/auth/me", bearer(bob)).status, 401);
    EXPECT_EQ(c.get("/auth/me", bearer(admin)).status, 200);
    EXPECT_EQ(host.stop(), 0) << host.log();
}

// The generated secret is shown once, boxed, after the `listening` line and in no log line;
// `platform admin reset-secret` on the server's machine sets a new one and prints it once.
TEST(AuthLocal, TheFirstStartShowsAGeneratedAdminSecretOnceAndResetSecretSetsANewOne) {
    TempDir home;
    auto host = std::make_unique<HostProcess>(local(home.path()));
    host->start();
    const std::regex boxed("\\|\\s{5}([A-Za-z0-9_-]{24})\\s+\\|");
    std::smatch m;
    ASSERT_TRUE(host->wait_for_log("platform admin reset-secret")) << host->log();
    std::string log = host->log();
    ASSERT_TRUE(std::regex_search(log, m, boxed)) << log;
    const std::string secret = m[1];
    EXPECT_LT(log.find("listening api="), log.find(secret)) << log;
    EXPECT_EQ(log.find(secret), log.rfind(secret)) << "shown more than once:\n" << log;
    EXPECT_NE(
        log.find("auth-local: created account admin; its secret is shown once on the console"),
        std::string::npos)
        << log;
    HttpClient c("127.0.0.1", host->api_port());
    auto t = c.post_json("/auth/token", {{"id", "admin"}, {"secret", secret}});
    ASSERT_EQ(t.status, 200) << t.body;
    auto rules = c.get("/auth/listRules", bearer(t.json()["access_token"]));
    ASSERT_EQ(rules.status, 200) << rules.body;
    EXPECT_EQ(rules.json()["rules"][0]["id"], "default");
    EXPECT_EQ(rules.json()["rules"][0]["scope"], "<public>");
    EXPECT_EQ(c.get("/registry/listServices").status, 200);  // the default rule is public
    // Until its secret changes, admin is marked: the console offers to change it at sign-in.
    auto first_me = c.get("/auth/me", bearer(t.json()["access_token"]));
    EXPECT_EQ(first_me.json()["account"]["metadata"].value("secret_initial", false), true)
        << first_me.body;

    // The operator credential is the server user's alone.
    struct stat st {};
    ASSERT_EQ(::stat((home.path() + "/keys/operator.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    auto cli = [&](std::vector<std::string> args) {
        args.insert(args.begin(), HostProcess::binary());
        return run_command(args, {{"PLATFORM_HOME", home.path()}, {"PLATFORM_TOKEN", ""}}, 60);
    };
    auto reset = cli({"admin", "reset-secret"});
    ASSERT_EQ(reset.code, 0) << reset.err;
    ASSERT_TRUE(std::regex_search(reset.out, m, std::regex("\n    ([A-Za-z0-9_-]{24})\n")))
        << reset.out;
    const std::string fresh = m[1];
    EXPECT_NE(fresh, secret);
    EXPECT_EQ(c.post_json("/auth/token", {{"id", "admin"}, {"secret", secret}}).status, 401);
    auto after = c.post_json("/auth/token", {{"id", "admin"}, {"secret", fresh}});
    ASSERT_EQ(after.status, 200);
    auto changed_me = c.get("/auth/me", bearer(after.json()["access_token"]));
    EXPECT_FALSE(changed_me.json()["account"]["metadata"].contains("secret_initial"))
        << changed_me.body;
    EXPECT_EQ(host->log().find(fresh), std::string::npos);  // nor is it logged by the server
    EXPECT_EQ(cli({"admin", "reset-secret", "--account", "nobody"}).code, 5);
    EXPECT_EQ(cli({"admin", "reset-secret", "--bogus"}).code, 2);
    // A token that is not the operator's is refused (the file's token is the only way in).
    auto forged = HttpClient("127.0.0.1", host->proxy_port())
                      .post_json("/rpc",
                                 {{"service", "auth"},
                                  {"method", "Auth.ChangeSecret"},
                                  {"request", {{"id", "admin"}, {"new_secret", "forged-secret"}}}},
                                 bearer(std::string(43, 'A')));
    EXPECT_EQ(forged.status, 401) << forged.body;
    EXPECT_EQ(host->stop(), 0);

    // Stopped: the credential is gone and the command says why it cannot work.
    EXPECT_FALSE(std::filesystem::exists(home.path() + "/keys/operator.json"));
    auto stopped = cli({"admin", "reset-secret"});
    EXPECT_EQ(stopped.code, 1);
    EXPECT_NE(stopped.err.find("no server is running with PLATFORM_HOME=" + home.path()),
              std::string::npos)
        << stopped.err;

    // A restart shows nothing: the secret exists already.
    host = std::make_unique<HostProcess>(local(home.path()));
    host->start();
    log = host->log();
    EXPECT_FALSE(std::regex_search(log, m, boxed)) << log;
    EXPECT_EQ(log.find("created account admin"), std::string::npos) << log;
    EXPECT_EQ(HttpClient("127.0.0.1", host->api_port())
                  .post_json("/auth/token", {{"id", "admin"}, {"secret", fresh}})
                  .status,
              200);
    EXPECT_EQ(host->stop(), 0);
}

// A first start creates `admin` (its secret hashed with argon2id) on auth-local's own thread while
// the host goes on starting (decision 80): a login sent the moment the server listens waits for
// it and succeeds, and so does the operator's reset-secret; a wrong secret is still refused.
TEST(AuthLocal, ALoginRightAfterAFirstStartWaitsForTheAdminAccount) {
    for (const bool wrong_first : {false, true}) {
        SCOPED_TRACE(wrong_first ? "a wrong secret first" : "the right secret first");
        TempDir home;
        const std::string secret = "admin-secret-right-away";
        HostProcess host(local(home.path(), {{"PLATFORM_ADMIN_SECRET", secret}}));
        host.start();  // returns at the `listening` line, not at the account's creation
        HttpClient c("127.0.0.1", host.api_port());
        if (wrong_first) {
            EXPECT_EQ(c.post_json("/auth/token", {{"id", "admin"}, {"secret", "not-it"}}).status,
                      401);
        }
        auto t = c.post_json("/auth/token", {{"id", "admin"}, {"secret", secret}});
        ASSERT_EQ(t.status, 200) << t.body << host.log();
        auto me = c.get("/auth/me", bearer(t.json()["access_token"]));
        ASSERT_EQ(me.status, 200) << me.body;
        EXPECT_EQ(me.json()["account"]["id"], "admin");
        EXPECT_EQ(host.stop(), 0);
        std::string log = host.log();
        EXPECT_EQ(log.find("cannot create account admin"), std::string::npos) << log;
    }
}

}  // namespace
