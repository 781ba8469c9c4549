// The inbox (plugins/inbox) and recall (plugins/recall) services on the real host, test profile,
// with the offline model-builtin: conversations made by agent/ask on two channels show in the
// inbox (unread counts, newest first), reading changes nothing, mark_read/mark_unread do, GET
// /inbox/<id> answers the conversation, another account gets 404 on every method, limits are
// 400 naming `limit`, recall lists by client and keeps the most recent messages. Both read the
// agent's conversations through its internal endpoints, which are 404 from outside and never
// listed (MCP tools/list, OpenAPI).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "catalogue_test.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

constexpr const char* kInternal[] = {"run", "post", "threads", "messages", "mark"};

class InboxRecall : public platform::test::CatalogueTest {
protected:
    InboxRecall() : CatalogueTest("inbox") {}

    // agent/ask as `who` (from `client` when given: X-Platform-Client); answers the thread.
    std::string ask(const std::string& prompt, const std::string& who,
                    const std::string& client = "", const std::string& thread = "") {
        auto headers = as(who);
        if (!client.empty()) headers["X-Platform-Client"] = client;
        json body = {{"prompt", prompt}};
        if (!thread.empty()) body["thread"] = thread;
        auto r = api.post_json("/api/v1/agent/ask", body, headers);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"]["thread"].get<std::string>() : "";
    }
    HttpResult call(const std::string& service, const std::string& method, const json& body,
                    const std::string& who) {
        return api.post_json("/api/v1/" + service + "/" + method, body, as(who));
    }
    HttpResult read(const std::string& service, const std::string& method_and_query,
                    const std::string& who) {
        return api.get("/api/v1/" + service + "/" + method_and_query, as(who));
    }
    // inbox/list's items as `who`.
    json items(const std::string& who) {
        auto r = get("list", who);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"]["items"] : json::array();
    }
    static json item(const json& items, const std::string& id) {
        for (const auto& i : items)
            if (i["id"] == id) return i;
        return nullptr;
    }
};

TEST_F(InboxRecall, TheInboxListsReadsAndMarksConversations) {
    const std::string web = ask("what are my notes", "ann");
    tick();
    const std::string cli = ask("hello from the terminal", "ann", "cli");
    ASSERT_FALSE(web.empty());
    ASSERT_FALSE(cli.empty());

    json list = items("ann");
    ASSERT_EQ(list.size(), 2u) << list;
    EXPECT_EQ(list[0]["id"], cli);  // newest first
    EXPECT_EQ(list[1]["id"], web);
    EXPECT_EQ(list[0]["channel"], "cli");
    EXPECT_EQ(list[1]["channel"], "web");
    EXPECT_EQ(list[0]["unread"], 1);
    EXPECT_EQ(list[1]["unread"], 1);
    EXPECT_EQ(list[0]["last"]["role"], "assistant") << list;
    EXPECT_EQ(list[0]["title"], "hello from the terminal");

    auto r = get("read?id=" + cli, "ann");
    ASSERT_EQ(r.status, 200) << r.body;
    const json conversation = r.json()["data"];
    EXPECT_EQ(conversation["id"], cli);
    ASSERT_EQ(conversation["messages"].size(), 2u) << r.body;
    EXPECT_EQ(conversation["messages"][0]["role"], "user");
    EXPECT_EQ(conversation["messages"][0]["text"], "hello from the terminal");
    EXPECT_EQ(conversation["messages"][1]["role"], "assistant");
    auto latest = get("read?id=" + cli + "&limit=1", "ann");
    ASSERT_EQ(latest.status, 200) << latest.body;
    ASSERT_EQ(latest.json()["data"]["messages"].size(), 1u);
    EXPECT_EQ(latest.json()["data"]["messages"][0], conversation["messages"][1]);  // the latest
    EXPECT_EQ(item(items("ann"), cli)["unread"], 1);  // reading changes nothing

    auto marked = post("mark_read", {{"id", cli}}, "ann");
    ASSERT_EQ(marked.status, 200) << marked.body;
    EXPECT_EQ(marked.json()["data"]["unread"], 0);
    EXPECT_EQ(item(items("ann"), cli)["unread"], 0);
    EXPECT_EQ(item(items("ann"), web)["unread"], 1);
    EXPECT_EQ(post("mark_unread", {{"id", cli}}, "ann").json()["data"]["unread"], 1);
    EXPECT_EQ(item(items("ann"), cli)["unread"], 1);

    // Surface A: the conversation, bare.
    auto a = api.get("/inbox/" + cli, as("ann"));
    ASSERT_EQ(a.status, 200) << a.body;
    EXPECT_EQ(a.json(), conversation);
    EXPECT_EQ(api.get("/inbox/" + cli).status, 401);

    // MCP and HTTP give the same payload.
    McpClient mcp(host->api_port(), "ann");
    mcp.initialize();
    const json tool = mcp.call_tool("inbox_read", {{"id", cli}});
    EXPECT_FALSE(tool.value("isError", false)) << tool;
    if (tool.contains("structuredContent")) {
        EXPECT_EQ(tool["structuredContent"], conversation);
    }
}

TEST_F(InboxRecall, AnotherAccountGets404ForEveryId) {
    const std::string mine = ask("a private matter", "erin");
    ASSERT_FALSE(mine.empty());
    for (const auto& r :
         {get("read?id=" + mine, "bob"), post("mark_read", {{"id", mine}}, "bob"),
          post("mark_unread", {{"id", mine}}, "bob"), api.get("/inbox/" + mine, as("bob")),
          read("recall", "conversation?id=" + mine, "bob")}) {
        EXPECT_EQ(r.status, 404) << r.body;
        EXPECT_NE(r.body.find("no such conversation"), std::string::npos) << r.body;
    }
    EXPECT_TRUE(item(items("bob"), mine).is_null());
    auto recalled = read("recall", "list", "bob");
    ASSERT_EQ(recalled.status, 200) << recalled.body;
    EXPECT_EQ(recalled.body.find(mine), std::string::npos) << recalled.body;
    EXPECT_EQ(get("read?id=th-000000000000-000000", "erin").status, 404);
    EXPECT_EQ(item(items("erin"), mine)["unread"], 1);  // bob's attempts changed nothing
}

TEST_F(InboxRecall, LimitsAreCheckedAndNamed) {
    const std::string id = ask("hello", "fay");
    for (const std::string& q :
         std::vector<std::string>{"list?limit=0", "list?limit=101", "read?id=" + id + "&limit=0",
                                  "read?id=" + id + "&limit=101"})
        expect_400(get(q, "fay"), "limit");
    for (const std::string& q : std::vector<std::string>{"list?limit=0", "list?limit=101",
                                                         "conversation?id=" + id + "&limit=0",
                                                         "conversation?id=" + id + "&limit=1001"})
        expect_400(read("recall", q, "fay"), "limit");
    expect_400(read("recall", "list?client=fax", "fay"), "client");
    EXPECT_EQ(get("list?limit=100", "fay").status, 200);
    EXPECT_EQ(read("recall", "conversation?id=" + id + "&limit=1000", "fay").status, 200);
    expect_400(get("read", "fay"), "id");
}

TEST_F(InboxRecall, RecallListsByClientAndKeepsTheMostRecentMessages) {
    const std::string web = ask("what are my notes", "cora");
    tick();
    const std::string cli = ask("first from the terminal", "cora", "cli");
    for (int i = 2; i <= 3; ++i) {
        tick();
        ASSERT_EQ(ask("message " + std::to_string(i), "cora", "cli", cli), cli);
    }

    auto only = read("recall", "list?client=cli", "cora");
    ASSERT_EQ(only.status, 200) << only.body;
    const json conversations = only.json()["data"]["conversations"];
    ASSERT_EQ(conversations.size(), 1u) << only.body;
    EXPECT_EQ(conversations[0]["id"], cli);
    EXPECT_EQ(conversations[0]["channel"], "cli");
    EXPECT_EQ(conversations[0]["messages"], 6);
    auto every = read("recall", "list", "cora").json()["data"]["conversations"];
    ASSERT_EQ(every.size(), 2u);
    EXPECT_EQ(every[0]["id"], cli);  // most recently active first
    EXPECT_EQ(every[1]["id"], web);
    EXPECT_TRUE(read("recall", "list?client=mail", "cora").json()["data"]["conversations"].empty());

    auto whole = read("recall", "conversation?id=" + cli, "cora");
    ASSERT_EQ(whole.status, 200) << whole.body;
    const json all = whole.json()["data"]["messages"];
    ASSERT_EQ(all.size(), 6u) << whole.body;
    EXPECT_EQ(all[0]["text"], "first from the terminal");
    EXPECT_EQ(whole.json()["data"]["conversation"]["id"], cli);
    auto cut = read("recall", "conversation?id=" + cli + "&limit=3", "cora");
    ASSERT_EQ(cut.status, 200) << cut.body;
    const json kept = cut.json()["data"]["messages"];
    ASSERT_EQ(kept.size(), 3u) << cut.body;
    EXPECT_EQ(kept[0], all[3]);  // the most recent three, in order
    EXPECT_EQ(kept[2], all[5]);
    EXPECT_EQ(kept[1]["text"], "message 3");
}

// Every verb and surface: a GET of an internal POST endpoint must not answer 405 (that would
// tell an outsider the method exists).
TEST_F(InboxRecall, TheAgentsInternalEndpointsAre404FromOutside) {
    for (const char* method : kInternal) {
        auto r = call("agent", method,
                      {{"prompt", "hi"}, {"text", "hi"}, {"id", "x"}, {"unread", true}}, "dan");
        EXPECT_EQ(r.status, 404) << method << ": " << r.body;
        EXPECT_EQ(read("agent", method, "dan").status, 404) << method;
    }
    auto rpc = api.post_json(
        "/rpc", {{"service", "agent"}, {"method", "Agent.Run"}, {"request", {{"prompt", "hi"}}}},
        as("dan"));
    EXPECT_EQ(rpc.status, 404) << rpc.body;
}

TEST_F(InboxRecall, TheAgentsInternalEndpointsAreNeverListed) {
    McpClient mcp(host->api_port(), "dan");
    mcp.initialize();
    std::set<std::string> names;
    json params = json::object();
    for (int page = 0; page < 50; ++page) {
        const json r = mcp.request("tools/list", params);
        for (const auto& t : r["result"]["tools"]) names.insert(t["name"]);
        if (!r["result"].contains("nextCursor")) break;
        params["cursor"] = r["result"]["nextCursor"];
    }
    for (const char* tool : {"inbox_list", "inbox_read", "inbox_mark_read", "inbox_mark_unread",
                             "recall_conversation", "recall_list", "agent_ask"})
        EXPECT_TRUE(names.count(tool)) << tool;
    for (const char* method : kInternal)
        EXPECT_FALSE(names.count(std::string("agent_") + method)) << method;

    auto doc = api.get("/api/v1/openapi.json");
    ASSERT_EQ(doc.status, 200);
    const json paths = doc.json()["paths"];
    EXPECT_TRUE(paths.contains("/api/v1/inbox/list"));
    EXPECT_TRUE(paths.contains("/api/v1/recall/conversation"));
    for (const char* method : kInternal)
        EXPECT_FALSE(paths.contains(std::string("/api/v1/agent/") + method)) << method;
}

}  // namespace
