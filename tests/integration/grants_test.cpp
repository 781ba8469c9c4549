// Grants and internal endpoints (abi.h 1.6, docs/decisions.md 31) through the real host, with the
// test plugin grantprobe (tests/plugins/grantprobe): a grant acts later for the account that
// made it, with its token's restrictions, survives a restart (SQLite store), and is refused once
// revoked; an internal endpoint is reachable from another plugin only — 404 over HTTP, /rpc and
// MCP, and absent from every listing. Each case runs with grantprobe in process and in a worker.
#include <gtest/gtest.h>

#include <fstream>

#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kAdminSecret = "admin-secret-for-grant-tests";

class Grants : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override {
        const std::string profile = dir.path() + "/grants.yaml";
        std::ofstream(profile)
            << "name: grants\n"
               "clock: real\n"
               "plugins: all\n"
               "test_plugins: true\n"
               "privileged: [registry, clock, config, store, broker, network, auth-local]\n"
               "providers:\n"
               "  store: {plugin: store-sqlite, config: {path: \"${PLATFORM_HOME}/store.db\"}}\n"
               "  broker: {plugin: broker-memory}\n"
               "  events: {plugin: events-memory}\n"
               "  auth: {plugin: auth-local, config: {admin_secret: "
               "\"${PLATFORM_ADMIN_SECRET}\"}}\n"
            << (GetParam() ? "isolation: {grantprobe: process}\n" : "");
        options.profile = profile;
        options.home = home.path();
        options.env["PLATFORM_ADMIN_SECRET"] = kAdminSecret;
        launch();
        const std::string admin = login("admin", kAdminSecret);
        for (const char* id : {"ann", "bob"}) {
            auto made = api->post_json("/auth/createAccount",
                                       {{"id", id}, {"secret", std::string(id) + "-secret-1"}},
                                       bearer(admin));
            ASSERT_EQ(made.status, 200) << made.body;
        }
        ann = login("ann", "ann-secret-1");
        bob = login("bob", "bob-secret-1");
    }
    void launch() {
        host = std::make_unique<HostProcess>(options);
        host->start();
        api = std::make_unique<HttpClient>("127.0.0.1", host->api_port());
    }
    std::string login(const std::string& id, const std::string& secret) {
        auto r = api->post_json("/auth/token", {{"id", id}, {"secret", secret}});
        EXPECT_EQ(r.status, 200) << r.body;
        return r.json().value("access_token", "");
    }
    std::string hold(const std::string& token) {
        auto r = api->post_json("/api/v1/grantprobe/hold", json::object(), bearer(token));
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"]["grant"].get<std::string>() : "";
    }
    // Acts through `grant` with no credential at all: only the grant says who.
    json act(const std::string& grant, const std::string& service, const std::string& method,
             const json& request) {
        auto r = api->post_json(
            "/api/v1/grantprobe/act",
            {{"grant", grant}, {"service", service}, {"method", method}, {"request", request}});
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"] : json::object();
    }

    TempDir dir, home;
    HostProcess::Options options;
    std::unique_ptr<HostProcess> host;
    std::unique_ptr<HttpClient> api;
    std::string ann, bob;
};

TEST_P(Grants, AGrantActsLaterForItsAccountAndNoOneElse) {
    const std::string grant = hold(ann);
    ASSERT_FALSE(grant.empty());
    auto added =
        act(grant, "notes", "Notes.Add", {{"title", "later"}, {"text", "written through a grant"}});
    ASSERT_EQ(added["code"], 0) << added.dump();
    auto mine = api->get("/api/v1/notes/get?title=later", bearer(ann));
    ASSERT_EQ(mine.status, 200) << mine.body;
    EXPECT_EQ(mine.json()["data"]["text"], "written through a grant");
    EXPECT_EQ(api->get("/api/v1/notes/get?title=later", bearer(bob)).status, 404);

    // Unknown and made-up grants are NOT_FOUND (5), never someone's identity.
    for (const std::string& other :
         {std::string("g-00000000000000000000000000000000"), std::string("nonsense")})
        EXPECT_EQ(act(other, "notes", "Notes.List", json::object())["code"], 5) << other;
    // Anonymous callers get no grant.
    EXPECT_EQ(api->post_json("/api/v1/grantprobe/hold", json::object()).status, 401);
}

TEST_P(Grants, AGrantKeepsItsTokensRestrictions) {
    auto made = api->post_json(
        "/auth/createToken", {{"services", {"tasks", "grantprobe"}}, {"capabilities", {"actions"}}},
        bearer(ann));
    ASSERT_EQ(made.status, 200) << made.body;
    const std::string grant = hold(made.json()["token"].get<std::string>());
    auto refused = act(grant, "notes", "Notes.Add", {{"title", "x"}, {"text", "y"}});
    EXPECT_EQ(refused["code"], 4) << refused.dump();  // PLATFORM_PERMISSION_DENIED
    EXPECT_NE(refused["body"].get<std::string>().find("scoped to"), std::string::npos)
        << refused.dump();
    auto allowed = act(grant, "tasks", "Tasks.List", json::object());
    EXPECT_EQ(allowed["code"], 0) << allowed.dump();
}

TEST_P(Grants, GrantsOutliveARestartUntilRevoked) {
    const std::string grant = hold(ann);
    ASSERT_EQ(host->stop(9), 128 + 9);
    launch();
    auto after =
        act(grant, "notes", "Notes.Add", {{"title", "after restart"}, {"text", "still ann"}});
    ASSERT_EQ(after["code"], 0) << after.dump() << host->log();
    EXPECT_EQ(
        api->get("/api/v1/notes/get?title=after%20restart", bearer(login("ann", "ann-secret-1")))
            .status,
        200);

    auto revoked = api->post_json("/api/v1/grantprobe/revoke", {{"grant", grant}});
    ASSERT_EQ(revoked.status, 200) << revoked.body;
    EXPECT_EQ(revoked.json()["data"]["revoked"], true);
    EXPECT_EQ(act(grant, "notes", "Notes.List", json::object())["code"], 5);
    EXPECT_EQ(
        api->post_json("/api/v1/grantprobe/revoke", {{"grant", grant}}).json()["data"]["revoked"],
        false);
}

TEST_P(Grants, InternalEndpointsAnswerOtherPluginsOnly) {
    // From a plugin, as the caller: reachable.
    auto relayed = api->post_json("/api/v1/grantprobe/relay", json::object(), bearer(ann));
    ASSERT_EQ(relayed.status, 200) << relayed.body;
    EXPECT_EQ(relayed.json()["data"]["account"], "ann");
    // Through a grant too.
    auto granted = act(hold(ann), "grantprobe", "whoami", json::object());
    EXPECT_EQ(granted["code"], 0) << granted.dump();
    EXPECT_NE(granted["body"].get<std::string>().find("\"ann\""), std::string::npos)
        << granted.dump();

    // From outside: as if it did not exist.
    EXPECT_EQ(api->post_json("/api/v1/grantprobe/whoami", json::object(), bearer(ann)).status, 404);
    EXPECT_EQ(api->post_json("/rpc",
                             {{"service", "grantprobe"},
                              {"method", "GrantProbe.Whoami"},
                              {"request", json::object()}},
                             bearer(ann))
                  .status,
              404);
    McpClient mcp(host->api_port(), ann);
    mcp.initialize();
    const json tools = mcp.request("tools/list")["result"]["tools"];
    bool relay_listed = false;
    for (const auto& t : tools) {
        EXPECT_NE(t["name"], "grantprobe_whoami");
        relay_listed = relay_listed || t["name"] == "grantprobe_relay";
    }
    EXPECT_TRUE(relay_listed) << tools.dump();
    auto called =
        mcp.request("tools/call", {{"name", "grantprobe_whoami"}, {"arguments", json::object()}});
    EXPECT_TRUE(called.contains("error") || called["result"].value("isError", false))
        << called.dump();
    auto openapi = api->get("/api/v1/openapi.json");
    ASSERT_EQ(openapi.status, 200);
    const json paths = openapi.json()["paths"];
    EXPECT_FALSE(paths.contains("/api/v1/grantprobe/whoami"));
    EXPECT_TRUE(paths.contains("/api/v1/grantprobe/relay")) << paths.dump().substr(0, 400);
    auto registry = api->get("/registry/getService?service=go.core.api.v1.grantprobe",
                             bearer(login("admin", kAdminSecret)));
    ASSERT_EQ(registry.status, 200) << registry.body;
    EXPECT_EQ(registry.body.find("Whoami"), std::string::npos) << registry.body;
    EXPECT_NE(registry.body.find("Relay"), std::string::npos) << registry.body;
}

INSTANTIATE_TEST_SUITE_P(InProcessAndInAWorker, Grants, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Worker" : "InProcess"; });

}  // namespace
