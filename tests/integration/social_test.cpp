// The social catalogue service against the real host (test profile): list and search of this
// instance's own posts — the announcements of its public blog posts — anonymous and with an
// account, limits, the missing query, private posts left out, and one MCP call.
#include <gtest/gtest.h>

#include "api_answers.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kBody = " — a post body that is comfortably longer than fifty characters.";

class SocialApi : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        start_host();
        HttpClient c("127.0.0.1", host->api_port());
        // Oldest first: "Garden tomatoes", "Rust notes" (private), "Kernel news".
        for (const auto& [title, priv] : {std::pair<const char*, bool>{"Garden tomatoes", false},
                                          {"Rust notes", true},
                                          {"Kernel news", false}}) {
            auto r = c.post_json(
                "/api/v1/blog/create",
                {{"title", title}, {"content", std::string(title) + kBody}, {"private", priv}},
                {{"Authorization", "Bearer so-author"}});
            ASSERT_EQ(r.status, 200) << r.body;
            ids.push_back(r.json()["data"]["id"]);
            ASSERT_EQ(c.post_json("/clock/advance", {{"ms", 1000}}).status, 200);
        }
    }
    // GET /api/v1/social/<target> as `who` (anonymous when empty).
    HttpResult get(const std::string& target, const std::string& who = "") {
        return api.get("/api/v1/social/" + target, who.empty() ? Headers{} : as(who));
    }
    static std::vector<std::string> ids_of(const HttpResult& r) { return listed(r, "posts", "id"); }

    static std::vector<std::string> ids;
};
std::vector<std::string> SocialApi::ids;

TEST_F(SocialApi, ListAnnouncesPublicPostsNewestFirst) {
    EXPECT_EQ(ids_of(get("list")), (std::vector<std::string>{ids[2], ids[0]}));
    EXPECT_EQ(ids_of(get("list", "so-author")),
              (std::vector<std::string>{ids[2], ids[0]}));  // private never
    EXPECT_EQ(ids_of(get("list?limit=1")), std::vector<std::string>{ids[2]});
    const json first = get("list?limit=1").json()["data"]["posts"][0];
    EXPECT_EQ(first["title"], "Kernel news");
    EXPECT_EQ(first["text"], "Kernel news — Kernel news" + kBody);
    EXPECT_EQ(first["author"], "so-author");
    EXPECT_EQ(first["url"], "/api/v1/blog/read?id=" + ids[2]);
    expect_400(get("list?limit=0"), "limit");
    expect_400(get("list?limit=101"), "limit");
}

TEST_F(SocialApi, SearchFindsEveryWord) {
    EXPECT_EQ(ids_of(get("search?query=TOMATOES%20garden")), std::vector<std::string>{ids[0]});
    EXPECT_EQ(ids_of(get("search?query=post%20body")), (std::vector<std::string>{ids[2], ids[0]}));
    EXPECT_EQ(ids_of(get("search?query=post&limit=1")), std::vector<std::string>{ids[2]});
    EXPECT_TRUE(ids_of(get("search?query=rust", "so-author")).empty());  // the private post
    expect_400(get("search"), "query");
    expect_400(get("search?query=x&limit=0"), "limit");
    expect_400(get("search?query=x&limit=101"), "limit");
}

TEST_F(SocialApi, McpCallGivesTheSameAnswer) {
    McpClient mcp(host->api_port(), "so-mcp");
    mcp.initialize();
    const json tool = mcp.call_tool("social_search", {{"query", "kernel"}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"], get("search?query=kernel", "so-mcp").json()["data"]);
}

}  // namespace
