// Ownership in the test profile: the bearer token text is the account id (auth-noop). Two
// accounts cannot see or delete each other's notes; an anonymous caller gets 401.
#include <gtest/gtest.h>

#include "host_process.hpp"
#include "http_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

TEST(Ownership, AccountsAreIsolatedAndAnonymousIsRefused) {
    HostProcess host;
    host.start();
    HttpClient c("127.0.0.1", host.api_port());

    ASSERT_EQ(c.post_json("/api/v1/notes/add", {{"title", "secret"}, {"text", "alice's"}},
                          bearer("alice"))
                  .status,
              200);
    ASSERT_EQ(
        c.post_json("/api/v1/notes/add", {{"title", "mine"}, {"text", "bob's"}}, bearer("bob"))
            .status,
        200);

    // Bob cannot read, list or delete Alice's note: 404, existence not revealed.
    EXPECT_EQ(c.get("/api/v1/notes/get?title=secret", bearer("bob")).status, 404);
    EXPECT_EQ(c.post_json("/api/v1/notes/delete", {{"title", "secret"}}, bearer("bob")).status,
              404);
    auto bobs = c.get("/api/v1/notes/list", bearer("bob")).json()["data"]["notes"];
    ASSERT_EQ(bobs.size(), 1u);
    EXPECT_EQ(bobs[0]["title"], "mine");
    // Bob writing the same title creates his own note; Alice's is untouched.
    ASSERT_EQ(c.post_json("/api/v1/notes/add", {{"title", "secret"}, {"text", "bob's too"}},
                          bearer("bob"))
                  .status,
              200);
    EXPECT_EQ(c.get("/api/v1/notes/get?title=secret", bearer("alice")).json()["data"]["text"],
              "alice's");

    // Anonymous: 401 with the gateway body and WWW-Authenticate, on every surface.
    auto anon = c.get("/api/v1/notes/list");
    EXPECT_EQ(anon.status, 401);
    EXPECT_EQ(anon.json()["error"]["code"], "unauthenticated");
    EXPECT_EQ(anon.header("www-authenticate"), "Bearer");
    auto anon_gw = c.post_json("/v1/notes/list", json::object());
    EXPECT_EQ(anon_gw.status, 401);
    EXPECT_EQ(anon_gw.json()["Code"], 401);
    EXPECT_EQ(anon_gw.json()["Status"], "Unauthorized");
    EXPECT_EQ(anon_gw.json()["Detail"],
              "Unauthorized call made to go.core.api.v1.notes:Notes.List");
    HttpClient proxy("127.0.0.1", host.proxy_port());
    EXPECT_EQ(proxy.post_json("/rpc", {{"service", "notes"}, {"method", "Notes.List"}}).status,
              401);

    // A malformed credential is 401 too; public endpoints stay open without one.
    EXPECT_EQ(
        c.get("/api/v1/notes/list", {{"Authorization", "Bearer bad token with spaces"}}).status,
        401);
    EXPECT_EQ(c.get("/registry/listServices").status, 200);
    EXPECT_EQ(host.stop(), 0);
}

}  // namespace
