// The blog catalogue service against the real host (test profile: the bearer token is the
// account id): every method over /api/v1/blog, limits, missing arguments, public and private
// posts (anonymous reads), the author-only update and delete (403 for another's public post,
// 404 for another's private one), ambiguous titles, and one MCP call.
#include <gtest/gtest.h>

#include "catalogue_test.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kBody =
    "A post needs a body of at least fifty characters, and this one has them.";

class BlogApi : public CatalogueTest {
protected:
    BlogApi() : CatalogueTest("blog") {}
    json create(const json& body, const std::string& who) {
        json created = ok("create", body, who);
        tick();
        return created;
    }
};

TEST_F(BlogApi, CreateReadAndLimits) {
    json p = create({{"content", "# Hello there\n" + kBody}, {"tags", "x, y"}}, "bl-alice");
    const std::string id = p["id"];
    EXPECT_EQ(p["title"], "Hello there");
    EXPECT_EQ(p["tags"], "x,y");
    EXPECT_EQ(p["private"], false);
    auto by_id = get("read?id=" + id, "bl-alice");
    ASSERT_EQ(by_id.status, 200) << by_id.body;
    EXPECT_EQ(by_id.json()["data"], p);
    EXPECT_EQ(get("read?title=Hello%20there", "bl-alice").json()["data"], p);

    expect_400(post("create", {{"content", std::string(49, 'x')}}, "bl-alice"), "content");
    EXPECT_EQ(post("create", {{"content", std::string(50, 'x')}}, "bl-alice").status, 200);
    expect_400(post("create", {{"title", "no body"}}, "bl-alice"), "content");
    expect_400(post("create", {{"content", kBody}, {"title", std::string(201, 't')}}, "bl-alice"),
               "title");
    EXPECT_EQ(post("create", {{"content", kBody}}, "").status, 401);
    EXPECT_EQ(get("create?content=x", "bl-alice").status, 405);
    expect_400(get("read", "bl-alice"), "id, title");
    EXPECT_EQ(get("read?id=bp-nothing", "bl-alice").status, 404);
    expect_400(get("list?limit=0", "bl-alice"), "limit");
    expect_400(get("list?limit=101", "bl-alice"), "limit");
    expect_400(get("feed?limit=101", ""), "limit");
}

TEST_F(BlogApi, PublicPostsForEveryonePrivateForTheAuthor) {
    json pub = create({{"content", kBody}, {"title", "Visible"}}, "bl-pub");
    json priv = create({{"content", kBody}, {"title", "Hidden"}, {"private", true}}, "bl-pub");
    EXPECT_EQ(get("read?id=" + pub["id"].get<std::string>(), "").json()["data"], pub);  // anonymous
    EXPECT_EQ(get("read?id=" + pub["id"].get<std::string>(), "bl-other").json()["data"], pub);
    EXPECT_EQ(get("read?id=" + priv["id"].get<std::string>(), "bl-other").status, 404);
    EXPECT_EQ(get("read?id=" + priv["id"].get<std::string>(), "").status, 404);
    EXPECT_EQ(get("read?id=" + priv["id"].get<std::string>(), "bl-pub").status, 200);

    auto mine = get("list?limit=2", "bl-pub");
    ASSERT_EQ(mine.status, 200) << mine.body;
    const json cards = mine.json()["data"]["posts"];
    ASSERT_EQ(cards.size(), 2u);
    EXPECT_EQ(cards[0]["id"], priv["id"]);  // newest first
    EXPECT_EQ(cards[1]["id"], pub["id"]);
    EXPECT_EQ(cards[1]["snippet"], kBody);
    EXPECT_FALSE(cards[1].contains("content"));
    const json anonymous = get("list", "").json();
    for (const auto& c : anonymous["data"]["posts"]) EXPECT_NE(c["id"], priv["id"]);
    const json feed = get("feed?limit=1", "").json()["data"];
    EXPECT_EQ(feed["posts"][0]["content"], kBody);
}

TEST_F(BlogApi, OnlyTheAuthorUpdatesAndDeletes) {
    json pub = create({{"content", kBody}, {"title", "Mine"}, {"tags", "t"}}, "bl-author");
    json priv = create({{"content", kBody}, {"private", true}}, "bl-author");
    const std::string id = pub["id"];
    EXPECT_EQ(post("update", {{"id", id}, {"title", "Stolen"}}, "bl-intruder").status, 403);
    EXPECT_EQ(post("update", {{"id", priv["id"]}, {"title", "Stolen"}}, "bl-intruder").status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, "bl-intruder").status, 403);
    EXPECT_EQ(post("delete", {{"id", priv["id"]}}, "bl-intruder").status, 404);
    expect_400(post("update", {{"title", "x"}}, "bl-author"), "id");
    expect_400(post("update", {{"id", id}, {"content", "too short"}}, "bl-author"), "content");
    EXPECT_EQ(post("update", {{"id", "bp-nothing"}, {"title", "x"}}, "bl-author").status, 404);

    auto u = post("update", {{"id", id}, {"title", "Renamed"}}, "bl-author");
    ASSERT_EQ(u.status, 200) << u.body;
    EXPECT_EQ(u.json()["data"]["title"], "Renamed");
    EXPECT_EQ(u.json()["data"]["content"], kBody);  // omitted: kept
    EXPECT_EQ(u.json()["data"]["tags"], "t");

    auto d = post("delete", {{"title", "Renamed"}}, "bl-author");
    ASSERT_EQ(d.status, 200) << d.body;
    EXPECT_EQ(d.json()["data"]["deleted"], id);
    EXPECT_EQ(get("read?id=" + id, "bl-author").status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, "bl-author").status, 404);
    expect_400(post("delete", json::object(), "bl-author"), "id, title");
    EXPECT_EQ(get("delete?id=" + id, "bl-author").status, 405);
}

TEST_F(BlogApi, AmbiguousTitleIsRefused) {
    json a = create({{"content", kBody}, {"title", "Twice"}}, "bl-twice");
    json b = create({{"content", kBody}, {"title", "Twice"}}, "bl-twice");
    expect_400(post("delete", {{"title", "Twice"}}, "bl-twice"), "title");
    EXPECT_EQ(get("read?id=" + a["id"].get<std::string>(), "bl-twice").status,
              200);  // nothing deleted
    EXPECT_EQ(post("delete", {{"id", b["id"]}}, "bl-twice").status, 200);
    EXPECT_EQ(post("delete", {{"title", "Twice"}}, "bl-twice").json()["data"]["deleted"], a["id"]);
}

TEST_F(BlogApi, McpCallGivesTheSameAnswer) {
    json p = create({{"content", kBody}, {"title", "Over MCP"}}, "bl-mcp");
    McpClient mcp(host->api_port(), "bl-mcp");
    mcp.initialize();
    const json tool = mcp.call_tool("blog_read", {{"id", p["id"]}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"], p);
}

}  // namespace
