// The archive catalogue service against the real host (test profile): list (counts per kind, and
// the items of one kind), search and get over the public blog posts, the social posts and the
// caller's reminders (the `events` service), limits, missing arguments, another account's
// reminder (404), an item id saved as a bookmark's `ref`, and one MCP call.
#include <gtest/gtest.h>

#include "api_answers.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kBody =
    " is the first line; the rest makes this post longer than fifty characters.";

class ArchiveApi : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        start_host();
        HttpClient c("127.0.0.1", host->api_port());
        ASSERT_EQ(c.post_json("/clock/set", {{"unix_ms", 1803859200000LL}}).status,
                  200);  // 2027-03-01
        const Headers alice = bearer("ar-alice");
        auto p = c.post_json("/api/v1/blog/create",
                             {{"title", "Tomato harvest"}, {"content", "Tomatoes" + kBody}}, alice);
        ASSERT_EQ(p.status, 200) << p.body;
        post = p.json()["data"]["id"];
        ASSERT_EQ(c.post_json("/api/v1/blog/create",
                              {{"content", "Private tomatoes" + kBody}, {"private", true}}, alice)
                      .status,
                  200);
        auto e = c.post_json("/api/v1/events/create",
                             {{"title", "Water the tomatoes"},
                              {"when", "2027-03-02T09:00:00+01:00"},
                              {"note", "back garden"}},
                             alice);
        ASSERT_EQ(e.status, 200) << e.body;
        reminder = e.json()["data"]["id"];
    }
    // GET /api/v1/archive/<target> as `who` (anonymous when empty).
    HttpResult get(const std::string& target, const std::string& who = "") {
        return api.get("/api/v1/archive/" + target, who.empty() ? Headers{} : as(who));
    }
    static std::vector<std::string> ids_of(const HttpResult& r) { return listed(r, "items", "id"); }

    static std::string post, reminder;
};
std::string ArchiveApi::post, ArchiveApi::reminder;

TEST_F(ArchiveApi, ListCountsKindsOrListsOneKind) {
    auto kinds = get("list", "ar-alice");
    ASSERT_EQ(kinds.status, 200) << kinds.body;
    EXPECT_EQ(
        kinds.json()["data"]["kinds"],
        json::parse(
            R"([{"kind":"post","count":1},{"kind":"social","count":1},{"kind":"reminder","count":1}])"));
    EXPECT_EQ(get("list").json()["data"]["kinds"],  // anonymous: no reminders
              json::parse(R"([{"kind":"post","count":1},{"kind":"social","count":1}])"));
    EXPECT_EQ(get("list", "ar-bob").json()["data"]["kinds"].size(), 2u);  // not alice's reminder

    EXPECT_EQ(ids_of(get("list?kind=post")), std::vector<std::string>{"post:" + post});
    EXPECT_EQ(ids_of(get("list?kind=social")), std::vector<std::string>{"social:" + post});
    EXPECT_EQ(ids_of(get("list?kind=reminder", "ar-alice")),
              std::vector<std::string>{"reminder:" + reminder});
    EXPECT_TRUE(ids_of(get("list?kind=news")).empty());
    expect_400(get("list?kind=weather"), "kind");
    expect_400(get("list?kind=post&limit=0"), "limit");
    expect_400(get("list?kind=post&limit=101"), "limit");
}

TEST_F(ArchiveApi, SearchEverythingCollected) {
    EXPECT_EQ(ids_of(get("search?query=tomatoes", "ar-alice")),
              (std::vector<std::string>{"reminder:" + reminder, "post:" + post, "social:" + post}));
    EXPECT_EQ(ids_of(get("search?query=tomatoes")),
              (std::vector<std::string>{"post:" + post, "social:" + post}));
    EXPECT_EQ(ids_of(get("search?query=garden&kind=reminder", "ar-alice")),
              std::vector<std::string>{"reminder:" + reminder});
    EXPECT_EQ(ids_of(get("search?query=tomatoes&limit=1", "ar-alice")).size(), 1u);
    EXPECT_TRUE(ids_of(get("search?query=private")).empty());  // the private post is not collected
    expect_400(get("search"), "query");
    expect_400(get("search?query=x&limit=0"), "limit");
    expect_400(get("search?query=x&limit=101"), "limit");
    expect_400(get("search?query=x&kind=weather"), "kind");
}

TEST_F(ArchiveApi, GetOneItemForBookmarks) {
    auto item = get("get?id=post:" + post);
    ASSERT_EQ(item.status, 200) << item.body;
    const json data = item.json()["data"];
    EXPECT_EQ(data["id"], "post:" + post);
    EXPECT_EQ(data["kind"], "post");
    EXPECT_EQ(data["title"], "Tomato harvest");
    EXPECT_EQ(data["url"], "/api/v1/blog/read?id=" + post);
    EXPECT_EQ(data["text"], "Tomatoes" + kBody);
    EXPECT_EQ(get("get?id=social:" + post).json()["data"]["kind"], "social");
    auto mine = get("get?id=reminder:" + reminder, "ar-alice");
    ASSERT_EQ(mine.status, 200) << mine.body;
    EXPECT_EQ(mine.json()["data"]["title"], "Water the tomatoes");
    EXPECT_EQ(mine.json()["data"]["text"], "back garden");
    EXPECT_EQ(get("get?id=reminder:" + reminder, "ar-bob").status, 404);  // another account's
    EXPECT_EQ(get("get?id=reminder:" + reminder).status, 404);
    EXPECT_EQ(get("get?id=post:bp-nothing").status, 404);
    expect_400(get("get"), "id");
}

TEST_F(ArchiveApi, ItemIdsAreBookmarkRefs) {
    const std::map<std::string, std::string> carol = {{"Authorization", "Bearer ar-carol"}};
    auto added = api.post_json("/api/v1/bookmarks/add", {{"ref", "post:" + post}}, carol);
    ASSERT_EQ(added.status, 200) << added.body;
    const json bookmark = added.json()["data"];
    EXPECT_EQ(bookmark["ref"], "post:" + post);
    EXPECT_EQ(bookmark["title"], "Tomato harvest");
    EXPECT_EQ(bookmark["kind"], "post");
    auto got = api.get("/api/v1/bookmarks/get?id=" + bookmark["id"].get<std::string>(), carol);
    ASSERT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(got.json()["data"]["archived"], "Tomatoes" + kBody);
}

TEST_F(ArchiveApi, McpCallGivesTheSameAnswer) {
    McpClient mcp(host->api_port(), "ar-alice");
    mcp.initialize();
    const json tool = mcp.call_tool("archive_search", {{"query", "tomatoes"}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"], get("search?query=tomatoes", "ar-alice").json()["data"]);
}

}  // namespace
