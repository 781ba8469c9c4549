// The bookmarks catalogue service against the real host (test profile: the bearer token is the
// account id): every method over /api/v1, limits, ownership, the acceptance (search finds
// words in private notes; re-adding keeps the note), a ref without an archive item, one tools/call.
#include <gtest/gtest.h>

#include "catalogue_test.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class BookmarksApi : public CatalogueTest {
protected:
    BookmarksApi() : CatalogueTest("bookmarks") {}
    json add(const json& body, const std::string& who) { return ok("add", body, who); }
    std::vector<std::string> titles(const json& body, const std::string& who) {
        return listed(post("list", body, who), "bookmarks", "title");
    }
};

TEST_F(BookmarksApi, AddAnnotateGetDelete) {
    const std::string who = "b-alice";
    json b = add(
        {{"url", "https://example.org/essay"}, {"title", "An essay"}, {"note", "cite this"}}, who);
    EXPECT_EQ(b["kind"], "link");
    EXPECT_EQ(b["note"], "cite this");
    const std::string id = b["id"];

    auto annotated = post("annotate", {{"id", id}, {"note", "cite chapter 2"}}, who);
    ASSERT_EQ(annotated.status, 200) << annotated.body;
    EXPECT_EQ(annotated.json()["data"]["note"], "cite chapter 2");
    auto got = api.get("/api/v1/bookmarks/get?id=" + id, as(who));
    ASSERT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(got.json()["data"]["note"], "cite chapter 2");
    EXPECT_EQ(got.json()["data"]["url"], "https://example.org/essay");
    EXPECT_EQ(got.json()["data"]["archived"], nullptr);  // a plain link has no archived text
    EXPECT_EQ(post("annotate", {{"id", id}, {"note", ""}}, who).json()["data"]["note"],
              "");  // empty clears

    auto del = post("delete", {{"id", id}}, who);
    ASSERT_EQ(del.status, 200) << del.body;
    EXPECT_EQ(del.json()["data"]["deleted"], id);
    EXPECT_EQ(api.get("/api/v1/bookmarks/get?id=" + id, as(who)).status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, who).status, 404);
}

TEST_F(BookmarksApi, ListSearchFindsWordsInPrivateNotesAndReAddingKeepsTheNote) {
    const std::string who = "b-reader";
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 1000}}).status, 200);
    json first = add({{"url", "https://example.org/a"},
                      {"title", "Plain title"},
                      {"note", "remember the zeppelin"}},
                     who);
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 1000}}).status, 200);
    add({{"url", "https://www.youtube.com/watch?v=abc"}, {"title", "A video"}}, who);
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 1000}}).status, 200);
    add({{"url", "https://example.org/c"}, {"title", "Third"}}, who);

    EXPECT_EQ(titles(json::object(), who),
              (std::vector<std::string>{"Third", "A video", "Plain title"}));
    EXPECT_EQ(titles({{"query", "Zeppelin"}}, who),
              std::vector<std::string>{"Plain title"});  // only in the note
    EXPECT_EQ(titles({{"kind", "video"}}, who), std::vector<std::string>{"A video"});
    EXPECT_EQ(titles({{"offset", 1}, {"limit", 1}}, who), std::vector<std::string>{"A video"});
    EXPECT_EQ(post("list", {{"limit", 1}}, who).json()["data"]["total"], 3);
    EXPECT_TRUE(titles({{"query", "zeppelin"}}, "b-stranger").empty());

    json again = add({{"url", "https://example.org/a"}}, who);  // re-saved without a note
    EXPECT_EQ(again["id"], first["id"]);
    EXPECT_EQ(again["note"], "remember the zeppelin");
    EXPECT_EQ(titles({{"query", "zeppelin"}}, who), std::vector<std::string>{"Plain title"});
    EXPECT_EQ(titles(json::object(), who).size(), 3u);
}

TEST_F(BookmarksApi, LimitsRequiredArgumentsAndUnresolvableRefs) {
    const std::string who = "b-limits";
    expect_400(post("list", {{"limit", 0}}, who), "limit");
    expect_400(post("list", {{"limit", 101}}, who), "limit");
    expect_400(post("list", {{"offset", -1}}, who), "offset");
    expect_400(post("list", {{"kind", "podcast"}}, who), "kind");
    EXPECT_EQ(post("list", {{"limit", 100}, {"kind", ""}}, who).status, 200);
    expect_400(post("annotate", {{"note", "x"}}, who), "id");
    expect_400(post("delete", json::object(), who), "id");
    expect_400(api.get("/api/v1/bookmarks/get", as(who)), "id");
    expect_400(post("add", {{"title", "nothing to save"}}, who), "ref or url");
    expect_400(post("add", {{"url", "file:///etc/passwd"}}, who), "url");
    EXPECT_EQ(api.get("/api/v1/bookmarks/list", as(who)).status,
              405);  // list is a POST (private search)
    EXPECT_EQ(api.post_json("/api/v1/bookmarks/list", json::object()).status, 401);

    auto ref = post("add", {{"ref", "no-such-archive-item"}}, who);
    EXPECT_EQ(ref.status, 404) << ref.body;
    EXPECT_NE(ref.body.find("ref"), std::string::npos) << ref.body;
}

TEST_F(BookmarksApi, AnotherAccountsIdsAre404AndOneToolCallMatches) {
    json b = add({{"url", "https://example.org/mine"}, {"note", "private"}}, "b-owner");
    const std::string id = b["id"];
    EXPECT_EQ(api.get("/api/v1/bookmarks/get?id=" + id, as("b-other")).status, 404);
    EXPECT_EQ(post("annotate", {{"id", id}, {"note", "mine now"}}, "b-other").status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, "b-other").status, 404);
    EXPECT_EQ(api.get("/api/v1/bookmarks/get?id=" + id, as("b-owner")).json()["data"]["note"],
              "private");

    McpClient mcp(host->api_port(), "b-owner");
    mcp.initialize();
    const json tool = mcp.call_tool("bookmarks_get", {{"id", id}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"],
              api.get("/api/v1/bookmarks/get?id=" + id, as("b-owner")).json()["data"]);
}

}  // namespace
