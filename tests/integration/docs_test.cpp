// The docs catalogue service against the real host (test profile: the bearer token is the
// account id; manual business clock): every method over /api/v1, its limits, ownership, and the
// documents as MCP resources.
#include <gtest/gtest.h>

#include "catalogue_test.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class DocsApi : public CatalogueTest {
protected:
    DocsApi() : CatalogueTest("docs") {}
    // A written document's data (asserting success).
    json write(const json& body, const std::string& who) { return ok("write", body, who); }
    std::vector<std::string> titles(const json& body, const std::string& who) {
        return listed(post("list", body, who), "documents", "title");
    }
};

TEST_F(DocsApi, WriteReadReplaceDelete) {
    json doc = write({{"title", "Plan"}, {"content", "# Plan\n\nship it"}}, "d-alice");
    ASSERT_TRUE(doc["id"].is_string());
    EXPECT_EQ(doc["title"], "Plan");
    EXPECT_EQ(doc["content"], "# Plan\n\nship it");
    EXPECT_EQ(doc["public"], false);  // private by default
    EXPECT_FALSE(doc.contains("seq"));
    const std::string id = doc["id"];

    auto by_id = api.get("/api/v1/docs/read?id=" + id, as("d-alice"));
    ASSERT_EQ(by_id.status, 200) << by_id.body;
    EXPECT_EQ(by_id.json()["data"], doc);
    auto by_title = api.get("/api/v1/docs/read?title=Plan", as("d-alice"));
    EXPECT_EQ(by_title.json()["data"], doc);
    EXPECT_EQ(api.get("/api/v1/docs/read?title=plan", as("d-alice")).status, 404);  // exact title

    tick();
    json replaced = write({{"id", id}, {"title", "Plan v2"}, {"content", "new"}}, "d-alice");
    EXPECT_EQ(replaced["id"], id);
    EXPECT_EQ(replaced["content"], "new");
    EXPECT_EQ(replaced["created"], doc["created"]);
    EXPECT_NE(replaced["updated"], doc["updated"]);
    EXPECT_EQ(titles(json::object(), "d-alice"),
              std::vector<std::string>{"Plan v2"});  // replaced, not added

    EXPECT_EQ(post("write", {{"id", "nope"}, {"title", "x"}, {"content", "y"}}, "d-alice").status,
              404);
    auto del = post("delete", {{"id", id}}, "d-alice");
    ASSERT_EQ(del.status, 200) << del.body;
    EXPECT_EQ(del.json()["data"]["deleted"], id);
    EXPECT_EQ(api.get("/api/v1/docs/read?id=" + id, as("d-alice")).status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, "d-alice").status, 404);
}

TEST_F(DocsApi, ListIsMostRecentlyChangedFirstWithQueryAndLimit) {
    const std::string who = "d-lister";
    json a = write({{"title", "alpha"}, {"content", "about apples"}}, who);
    tick();
    write({{"title", "beta"}, {"content", "about bananas"}}, who);
    tick();
    write({{"title", "gamma"}, {"content", "Apples and bananas"}}, who);
    EXPECT_EQ(titles(json::object(), who), (std::vector<std::string>{"gamma", "beta", "alpha"}));
    tick();
    write({{"id", a["id"]}, {"title", "alpha"}, {"content", "about apples, revised"}}, who);
    EXPECT_EQ(titles(json::object(), who), (std::vector<std::string>{"alpha", "gamma", "beta"}));

    EXPECT_EQ(titles({{"query", "APPLES"}}, who), (std::vector<std::string>{"alpha", "gamma"}));
    EXPECT_EQ(titles({{"query", "bananas apples"}}, who), std::vector<std::string>{"gamma"});
    EXPECT_EQ(titles({{"query", "beta"}}, who), std::vector<std::string>{"beta"});  // titles too
    EXPECT_EQ(titles({{"limit", 2}}, who), (std::vector<std::string>{"alpha", "gamma"}));

    auto listed = post("list", json::object(), who).json()["data"]["documents"][0];
    EXPECT_EQ(listed["snippet"], "about apples, revised");
    EXPECT_FALSE(listed.contains("content"));
}

TEST_F(DocsApi, LimitsAndRequiredArguments) {
    expect_400(post("list", {{"limit", 0}}, "d-limits"), "limit");
    expect_400(post("list", {{"limit", 101}}, "d-limits"), "limit");
    EXPECT_EQ(post("list", {{"limit", 100}}, "d-limits").status, 200);
    expect_400(post("write", {{"content", "no title"}}, "d-limits"), "title");
    expect_400(post("write", {{"title", "no content"}}, "d-limits"), "content");
    expect_400(post("write", {{"title", std::string(201, 'x')}, {"content", "c"}}, "d-limits"),
               "title");
    expect_400(post("delete", json::object(), "d-limits"), "id");
    expect_400(api.get("/api/v1/docs/read", as("d-limits")), "id or title");
    // Changes and private searches need a POST.
    EXPECT_EQ(api.get("/api/v1/docs/list", as("d-limits")).status, 405);
    EXPECT_EQ(api.get("/api/v1/docs/list").status, 405);
    EXPECT_EQ(api.post_json("/api/v1/docs/list", json::object()).status, 401);
}

TEST_F(DocsApi, AnotherAccountGets404UnlessTheDocumentIsPublic) {
    json secret = write({{"title", "diary"}, {"content", "private"}}, "d-owner");
    const std::string id = secret["id"];
    EXPECT_EQ(api.get("/api/v1/docs/read?id=" + id, as("d-other")).status, 404);
    EXPECT_EQ(api.get("/api/v1/docs/read?title=diary", as("d-other")).status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, "d-other").status, 404);
    EXPECT_EQ(post("write", {{"id", id}, {"title", "hijack"}, {"content", "x"}}, "d-other").status,
              404);
    EXPECT_TRUE(titles(json::object(), "d-other").empty());

    // Made public: readable by id by another account, still not changeable by it.
    json shared = write(
        {{"id", id}, {"title", "diary"}, {"content", "now shared"}, {"public", true}}, "d-owner");
    EXPECT_EQ(shared["public"], true);
    auto read = api.get("/api/v1/docs/read?id=" + id, as("d-other"));
    ASSERT_EQ(read.status, 200) << read.body;
    EXPECT_EQ(read.json()["data"]["content"], "now shared");
    EXPECT_EQ(post("delete", {{"id", id}}, "d-other").status, 404);
    // A replace without `public` keeps it; public false withdraws it.
    EXPECT_EQ(write({{"id", id}, {"title", "diary"}, {"content", "v3"}}, "d-owner")["public"],
              true);
    write({{"id", id}, {"title", "diary"}, {"content", "v4"}, {"public", false}}, "d-owner");
    EXPECT_EQ(api.get("/api/v1/docs/read?id=" + id, as("d-other")).status, 404);
}

TEST_F(DocsApi, DocumentsAreMcpResourcesAndToolsAnswerAsHttp) {
    McpClient mcp(host->api_port(), "d-mcp");
    mcp.initialize();
    const json tool =
        mcp.call_tool("docs_write", {{"title", "Notes"}, {"content", "first line\nsecond"}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    const std::string id = tool["structuredContent"]["id"];
    auto http = api.get("/api/v1/docs/read?id=" + id, as("d-mcp"));
    const json read_tool = mcp.call_tool("docs_read", {{"id", id}});
    EXPECT_EQ(read_tool["structuredContent"], http.json()["data"]);

    const json list = mcp.request("resources/list");
    bool found = false;
    for (const auto& res : list["result"]["resources"])
        if (res["uri"] == "docs://" + id) {
            found = true;
            EXPECT_EQ(res["name"], "Notes");
            EXPECT_EQ(res["description"], "first line");
            EXPECT_EQ(res["mimeType"], "text/markdown");
        }
    EXPECT_TRUE(found) << list;
    const json read = mcp.request("resources/read", {{"uri", "docs://" + id}});
    EXPECT_EQ(read["result"]["contents"][0]["text"], "first line\nsecond") << read;
    McpClient other(host->api_port(), "d-mcp-other");
    other.initialize();
    EXPECT_TRUE(other.request("resources/read", {{"uri", "docs://" + id}}).contains("error"));

    // A subscriber hears of a write and of a delete.
    EXPECT_EQ(mcp.request("resources/subscribe", {{"uri", "docs://" + id}})["result"],
              json::object());
    EventStream events(host->api_port(), mcp.headers());
    ASSERT_EQ(events.status(), 200) << events.received();
    const std::string updated =
        R"("method":"notifications/resources/updated","params":{"uri":"docs://)" + id + R"("})";
    write({{"id", id}, {"title", "Notes"}, {"content", "changed"}}, "d-mcp");
    EXPECT_TRUE(events.wait_for(updated, 10000)) << events.received();
    ASSERT_EQ(post("delete", {{"id", id}}, "d-mcp").status, 200);
    EXPECT_TRUE(events.wait_for(updated, 10000, 2)) << events.received();
}

}  // namespace
