// The contacts catalogue service against the real host (test profile: the bearer token is the
// account id): every method over /api/v1, required arguments, ownership, one tools/call.
#include <gtest/gtest.h>

#include "catalogue_test.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class ContactsApi : public CatalogueTest {
protected:
    ContactsApi() : CatalogueTest("contacts") {}
    json add(const json& body, const std::string& who) { return ok("add", body, who); }
    std::vector<std::string> names(const HttpResult& r) { return listed(r, "contacts", "name"); }
};

TEST_F(ContactsApi, AddUpdatesByNameFindListDelete) {
    const std::string who = "c-alice";
    json ada = add({{"name", "Ada Lovelace"}, {"email", "ada@example.org"}}, who);
    add({{"name", "Charles Babbage"}, {"phone", "+44 20 0000"}}, who);
    json again = add({{"name", "ada lovelace"}, {"note", "analyst"}}, who);
    EXPECT_EQ(again["id"], ada["id"]);
    EXPECT_EQ(again["email"], "ada@example.org");
    EXPECT_EQ(again["note"], "analyst");

    EXPECT_EQ(names(api.get("/api/v1/contacts/list", as(who))),
              (std::vector<std::string>{"ada lovelace", "Charles Babbage"}));
    EXPECT_EQ(names(post("find", {{"query", "babb"}}, who)),
              std::vector<std::string>{"Charles Babbage"});
    EXPECT_EQ(names(post("find", {{"query", "ADA@EXAMPLE.ORG"}}, who)),
              std::vector<std::string>{"ada lovelace"});
    EXPECT_TRUE(names(post("find", {{"query", "turing"}}, who)).empty());

    auto del = post("delete", {{"id", ada["id"]}}, who);
    ASSERT_EQ(del.status, 200) << del.body;
    EXPECT_EQ(del.json()["data"]["deleted"], ada["id"]);
    EXPECT_EQ(post("delete", {{"id", ada["id"]}}, who).status, 404);
    EXPECT_EQ(names(api.get("/api/v1/contacts/list", as(who))),
              std::vector<std::string>{"Charles Babbage"});
}

TEST_F(ContactsApi, RequiredArgumentsAndLimits) {
    expect_400(post("add", {{"email", "x@example.org"}}, "c-limits"), "name");
    expect_400(post("add", {{"name", std::string(201, 'n')}}, "c-limits"), "name");
    expect_400(post("find", json::object(), "c-limits"), "query");
    expect_400(post("delete", json::object(), "c-limits"), "id");
    expect_400(post("add", {{"name", "x"}, {"fax", "1"}}, "c-limits"), "fax");
    EXPECT_EQ(api.get("/api/v1/contacts/find?query=x", as("c-limits")).status,
              405);  // a private search
    EXPECT_EQ(api.get("/api/v1/contacts/list").status, 401);
}

TEST_F(ContactsApi, AnotherAccountsIdsAre404AndOneToolCallMatches) {
    json card = add({{"name", "Secret Friend"}, {"email", "friend@example.org"}}, "c-owner");
    EXPECT_EQ(post("delete", {{"id", card["id"]}}, "c-other").status, 404);
    EXPECT_TRUE(names(post("find", {{"query", "friend"}}, "c-other")).empty());
    EXPECT_TRUE(names(api.get("/api/v1/contacts/list", as("c-other"))).empty());
    EXPECT_EQ(names(post("find", {{"query", "friend"}}, "c-owner")),
              std::vector<std::string>{"Secret Friend"});

    McpClient mcp(host->api_port(), "c-owner");
    mcp.initialize();
    const json tool = mcp.call_tool("contacts_find", {{"query", "friend"}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"],
              post("find", {{"query", "friend"}}, "c-owner").json()["data"]);
}

}  // namespace
