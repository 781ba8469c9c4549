// Admission through the real host (docs/identity.md): micro's lockdown, cookie sessions and CSRF,
// token restrictions swept over every endpoint of the OpenAPI document, expired, forged and
// revoked tokens, and ownership swept over every owner endpoint.
#include <gtest/gtest.h>

#include <set>

#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"
#include "owned_fixtures.hpp"
#include "owner_sweep.hpp"
#include "profiles.hpp"
#include "registry_sweep.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kAdminSecret = "admin-secret-for-tests";

HostProcess::Options local(const std::string& profile = "local") {
    return local_options(kAdminSecret, profile);
}

// Creates a rule as admin; fails the test with the answer when refused.
void create_rule(HttpClient& c, const std::string& admin, const json& rule) {
    auto r = c.post_json("/auth/createRule", rule, bearer(admin));
    ASSERT_EQ(r.status, 200) << r.body;
}

std::string personal_token(HttpClient& c, const std::string& access, const json& request) {
    auto r = c.post_json("/auth/createToken", request, bearer(access));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json().value("token", "");
}

TEST(Access, LockdownLikeMicro) {
    HostProcess host(local());
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    const std::string admin = access_token(c, "admin", kAdminSecret);
    const std::string bob = account_token(c, admin, "bob");

    // The default rule is public: anonymous callers reach public endpoints.
    EXPECT_EQ(c.post_json("/registry/listServices", json::object()).status, 200);

    create_rule(
        c, admin,
        {{"id", "onlyloggedin"}, {"scope", "*"}, {"resource", "*:*:*"}, {"access", "granted"}});
    create_rule(c, admin,
                {{"id", "auth-public"}, {"scope", "<public>"}, {"resource", "service:auth:*"}});
    ASSERT_EQ(c.post_json("/auth/deleteRule", {{"id", "default"}}, bearer(admin)).status, 200);

    // At once on this host: anonymous gets micro's 401 body, a signed-in account gets through.
    auto anon = c.post_json("/registry/listServices", json::object());
    EXPECT_EQ(anon.status, 401);
    EXPECT_EQ(anon.json()["Code"], 401);
    EXPECT_EQ(anon.json()["Status"], "Unauthorized");
    EXPECT_NE(anon.json()["Detail"].get<std::string>().find("Unauthorized call made to"),
              std::string::npos);
    EXPECT_EQ(anon.header("www-authenticate"), "Bearer");
    EXPECT_EQ(c.get("/api/v1/registry/listServices").status,
              404);  // built-ins are not in the catalogue
    EXPECT_EQ(c.post_json("/registry/listServices", json::object(), bearer(bob)).status, 200);
    // The auth service stays public, so one can still log in.
    EXPECT_FALSE(access_token(c, "bob", "bob-secret-1").empty());

    // Lifting the lock: the default rule back, anonymous works again.
    create_rule(c, admin, {{"id", "default"}, {"scope", "<public>"}, {"resource", "*:*:*"}});
    EXPECT_EQ(c.post_json("/registry/listServices", json::object()).status, 200);
}

TEST(Access, DeniedRuleWithHigherPriorityWinsAndNamesTheAccount) {
    HostProcess host(local());
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    const std::string admin = access_token(c, "admin", kAdminSecret);
    const std::string bob = account_token(c, admin, "bob");
    create_rule(c, admin,
                {{"id", "no-registry"},
                 {"scope", "*"},
                 {"resource", "service:registry:*"},
                 {"access", "denied"},
                 {"priority", 10}});
    auto r = c.post_json("/registry/listServices", json::object(), bearer(bob));
    EXPECT_EQ(r.status, 403);
    EXPECT_NE(r.json()["Detail"].get<std::string>().find("by bob"), std::string::npos);
    // Anonymous still matches the public default rule: `*` rules need an account to apply.
    EXPECT_EQ(c.post_json("/registry/listServices", json::object()).status, 200);
}

TEST(Access, CookieSessionNeedsCsrfForWrites) {
    HostProcess host(local());
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    const std::string admin = access_token(c, "admin", kAdminSecret);
    account_token(c, admin, "carol");

    auto bad = c.post_json("/auth/login", {{"id", "carol"}, {"secret", "wrong"}});
    EXPECT_EQ(bad.status, 401);
    EXPECT_EQ(bad.header("set-cookie"), "");

    auto in = c.post_json("/auth/login", {{"id", "carol"}, {"secret", "carol-secret-1"}});
    ASSERT_EQ(in.status, 200) << in.body;
    const std::string set_cookie = in.header("set-cookie");
    EXPECT_NE(set_cookie.find("HttpOnly"), std::string::npos);
    EXPECT_NE(set_cookie.find("SameSite=Lax"), std::string::npos);
    const std::string csrf = in.json()["csrf_token"];
    ASSERT_FALSE(csrf.empty());
    // Both cookies arrive, as two Set-Cookie headers: the session's and the CSRF token's (readable
    // by the page's script, so not HttpOnly).
    const auto cookies = in.header_values("set-cookie");
    ASSERT_EQ(cookies.size(), 2u) << in.body;
    EXPECT_EQ(cookies[1].rfind("platform_csrf=" + csrf + ";", 0), 0u) << cookies[1];
    EXPECT_EQ(cookies[1].find("HttpOnly"), std::string::npos) << cookies[1];
    const std::string session = set_cookie.substr(0, set_cookie.find(';'));  // platform_session=...
    ASSERT_EQ(session.rfind("platform_session=", 0), 0u);
    Headers cookie{{"Cookie", "theme=dark; " + session}, {"Content-Type", "application/json"}};

    // Reads work with the cookie alone.
    EXPECT_EQ(c.get("/api/v1/notes/list", cookie).status, 200);
    // A write relying on the cookie needs X-CSRF-Token.
    const std::string note = json{{"title", "t"}, {"text", "x"}}.dump();
    auto no_csrf = c.post("/api/v1/notes/add", note, cookie);
    EXPECT_EQ(no_csrf.status, 403);
    EXPECT_NE(no_csrf.body.find("X-CSRF-Token"), std::string::npos);
    Headers wrong = cookie;
    wrong["X-CSRF-Token"] = std::string(csrf.size(), 'a');
    EXPECT_EQ(c.post("/api/v1/notes/add", note, wrong).status, 403);
    Headers with = cookie;
    with["X-CSRF-Token"] = csrf;
    EXPECT_EQ(c.post("/api/v1/notes/add", note, with).status, 200);
    EXPECT_EQ(c.get("/api/v1/notes/get?title=t", cookie).json()["data"]["text"], "x");

    // Logout revokes the session and clears the cookies.
    auto out = c.post("/auth/logout", "{}", with);
    EXPECT_EQ(out.status, 200) << out.body;
    const auto cleared = out.header_values("set-cookie");
    ASSERT_EQ(cleared.size(), 2u);
    for (const auto& line : cleared) EXPECT_NE(line.find("Max-Age=0"), std::string::npos) << line;
    EXPECT_EQ(c.get("/api/v1/notes/list", cookie).status, 401);
}

TEST(Access, ProtectedResourceMetadata) {
    HostProcess host(local());
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    auto r = c.get("/.well-known/oauth-protected-resource");
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.json()["resource"], "http://127.0.0.1:" + std::to_string(host.api_port()));
    EXPECT_EQ(r.json()["bearer_methods_supported"], json::array({"header"}));
}

TEST(Access, TokenScopedToNotesIsRefusedEverywhereElse) {
    HostProcess host(local());
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    const std::string admin = access_token(c, "admin", kAdminSecret);
    const std::string dave = account_token(c, admin, "dave");
    const std::string notes_only =
        personal_token(c, dave, {{"services", {"notes"}}, {"capabilities", {"actions"}}});
    ASSERT_FALSE(notes_only.empty());

    int refused = 0, allowed = 0;
    for (const auto& op : registry_operations(c)) {
        auto r = c.post_json(op.path, json::object(), bearer(notes_only));
        if (op.service == "notes") {
            EXPECT_NE(r.status, 403) << op.path << " " << r.body;
            ++allowed;
        } else {
            EXPECT_EQ(r.status, 403) << op.path << " " << r.body;
            ++refused;
        }
    }
    EXPECT_GT(refused, 10);
    EXPECT_GE(allowed, 4);
    // And it works where it is scoped.
    EXPECT_EQ(c.post_json("/api/v1/notes/add", {{"title", "a"}, {"text", "b"}}, bearer(notes_only))
                  .status,
              200);
}

TEST(Access, TokenWithoutActionsIsRefusedOnEveryActionEndpoint) {
    HostProcess host(local());
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    const std::string admin = access_token(c, "admin", kAdminSecret);
    const std::string erin = account_token(c, admin, "erin");
    const std::string no_actions =
        personal_token(c, erin, {{"capabilities", {"agent", "work", "inbox"}}});
    // The assistant services need their own capability besides `actions` (decision 30).
    const std::string with_actions =
        personal_token(c, erin, {{"capabilities", {"actions", "agent", "work", "inbox"}}});

    int actions = 0;
    for (const auto& op : registry_operations(c)) {
        if (!op.flags.count("action")) continue;
        ++actions;
        auto r = c.post_json(op.path, json::object(), bearer(no_actions));
        EXPECT_EQ(r.status, 403) << op.path << " " << r.body;
        EXPECT_NE(r.body.find("actions"), std::string::npos) << r.body;
        EXPECT_NE(c.post_json(op.path, json::object(), bearer(with_actions)).status, 403)
            << op.path;
    }
    EXPECT_GE(actions, 1);
}

TEST(Access, ServicesTokenCallsTheCatalogueOnly) {
    HostProcess host(local());
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    const std::string admin = access_token(c, "admin", kAdminSecret);
    const std::string fay = account_token(c, admin, "fay");
    const std::string services = personal_token(c, fay, {{"kind", "services"}});
    EXPECT_EQ(c.post_json("/api/v1/notes/list", json::object(), bearer(services)).status, 200);
    auto r = c.post_json("/registry/listServices", json::object(), bearer(services));
    EXPECT_EQ(r.status, 403);
    EXPECT_NE(r.body.find("catalogue services only"), std::string::npos);
}

TEST(Access, ForgedRevokedAndExpiredTokensAre401) {
    TempDir dir;
    // The local profile on a manual business clock, so expiry can be reached without waiting.
    HostProcess host(local(manual_clock_local_profile(dir.path())));
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    const std::string admin = access_token(c, "admin", kAdminSecret);
    const std::string gus = account_token(c, admin, "gus");
    ASSERT_EQ(c.post_json("/auth/me", json::object(), bearer(gus)).status, 200);

    // Forged: one signature character changed.
    std::string forged = gus;
    forged.back() = forged.back() == 'A' ? 'B' : 'A';
    EXPECT_EQ(c.post_json("/auth/me", json::object(), bearer(forged)).status, 401);
    EXPECT_EQ(c.post_json("/api/v1/notes/list", json::object(), bearer("not-a-token")).status, 401);

    // Revoked: a personal token deleted by its owner.
    auto created = c.post_json("/auth/createToken", {{"name", "ci"}}, bearer(gus)).json();
    ASSERT_EQ(c.post_json("/api/v1/notes/list", json::object(), bearer(created["token"])).status,
              200);
    ASSERT_EQ(c.post_json("/auth/deleteToken", {{"id", created["id"]}}, bearer(gus)).status, 200);
    EXPECT_EQ(c.post_json("/api/v1/notes/list", json::object(), bearer(created["token"])).status,
              401);

    // Expired: the access token's lifetime passes on the business clock.
    ASSERT_EQ(c.post_json("/clock/advance", {{"ms", 3600 * 1000}}, bearer(admin)).status, 200);
    auto expired = c.post_json("/auth/me", json::object(), bearer(gus));
    EXPECT_EQ(expired.status, 401);
    EXPECT_EQ(expired.header("www-authenticate"), "Bearer");
}

TEST(Access, RateLimitPerAccount) {
    TempDir dir;
    HostProcess::Options o;
    o.profile =
        test_profile_with(dir.path() + "/limited.yaml",
                          "http:\n  account_rate_limit: {requests_per_second: 0.01, burst: 2}");
    HostProcess host(o);
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    EXPECT_EQ(c.post_json("/api/v1/notes/list", json::object(), bearer("alice")).status, 200);
    EXPECT_EQ(c.post_json("/api/v1/notes/list", json::object(), bearer("alice")).status, 200);
    auto limited = c.post_json("/api/v1/notes/list", json::object(), bearer("alice"));
    EXPECT_EQ(limited.status, 429) << limited.body;
    EXPECT_GE(
        std::stoi(limited.header("retry-after").empty() ? "0" : limited.header("retry-after")), 1);
    EXPECT_NE(limited.body.find("alice"), std::string::npos);
    // Another account has its own budget; anonymous callers are limited per address, not here.
    EXPECT_EQ(c.post_json("/api/v1/notes/list", json::object(), bearer("bob")).status, 200);
    EXPECT_EQ(c.post_json("/registry/listServices", json::object()).status, 200);
}

TEST(Access, EveryOwnerEndpointAnswers404ToAnotherAccount) {
    HostProcess host;  // test profile: the bearer text is the account id
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    const auto ops = registry_operations(c);
    const int swept = owner_sweep_http(c, ops, [](const SweptOperation&, int i) {
        return OwnerPair{"owner-a-" + std::to_string(i), "owner-b-" + std::to_string(i)};
    });
    // Every fixture is swept, but the examples' (served by `platform run` in the languages area).
    std::set<std::string> served;
    for (const auto& op : ops) served.insert(op.path);
    int unserved = 0;
    for (const auto& [path, _] : owned_fixtures())
        if (!served.count(path)) {
            EXPECT_EQ(path.rfind("/api/v1/hello-", 0), 0u) << path << ": a fixture nothing serves";
            ++unserved;
        }
    EXPECT_EQ(swept, static_cast<int>(owned_fixtures().size()) - unserved);
}

}  // namespace
