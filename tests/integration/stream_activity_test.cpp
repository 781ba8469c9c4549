// The stream catalogue service (plugins/stream) against the real host: stream/list — the public
// activity of the instance (blog posts published and updated), newest first — its limit, private
// posts left out, and one MCP call. It runs with an explicit plugin list (blog, stream, clock).
#include <gtest/gtest.h>

#include <fstream>

#include "api_answers.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kBody = " — a post body that is comfortably longer than fifty characters.";

class StreamApi : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        const std::string path = suite_dir() + "/activity.yaml";
        std::ofstream(path)
            << "name: activity\nclock: manual\ntest_plugins: true\n"
               "plugins: [blog, stream, clock]\nprivileged: [clock]\n"
               "providers:\n  store: {plugin: store-memory}\n  broker: {plugin: broker-memory}\n"
               "  events: {plugin: events-memory}\n  auth: {plugin: auth-noop}\n";
        HostProcess::Options o;
        o.profile = path;
        start_host(o);
    }
    json create(const json& body) {
        json created = data_of(api.post_json("/api/v1/blog/create", body, as("st-author")));
        EXPECT_EQ(api.post_json("/clock/advance", {{"ms", 60000}}).status, 200);
        return created;
    }
    // GET /api/v1/stream/list<query> as `who` (anonymous when empty).
    HttpResult list(const std::string& query = "", const std::string& who = "") {
        return api.get("/api/v1/stream/list" + query, who.empty() ? Headers{} : as(who));
    }
    static std::vector<std::string> ids_of(const HttpResult& r) {
        return listed(r, "activities", "id");
    }
};

TEST_F(StreamApi, RecentPublicActivityNewestFirst) {
    EXPECT_TRUE(ids_of(list()).empty());
    const std::string a = create({{"title", "First"}, {"content", "First" + kBody}})["id"];
    create({{"title", "Secret"}, {"content", "Secret" + kBody}, {"private", true}});
    const std::string b = create({{"title", "Second"}, {"content", "Second" + kBody}})["id"];
    ASSERT_EQ(api.post_json("/api/v1/blog/update", {{"id", a}, {"title", "First, edited"}},
                            {{"Authorization", "Bearer st-author"}})
                  .status,
              200);
    EXPECT_EQ(ids_of(list()),
              (std::vector<std::string>{a + "/updated", b + "/published", a + "/published"}));
    EXPECT_EQ(ids_of(list("", "st-author")).size(), 3u);  // private posts never appear
    EXPECT_EQ(ids_of(list("?limit=1")), std::vector<std::string>{a + "/updated"});
    const json top = list("?limit=1").json()["data"]["activities"][0];
    EXPECT_EQ(top["type"], "blog.updated");
    EXPECT_EQ(top["title"], "First, edited");
    EXPECT_EQ(top["actor"], "st-author");
    EXPECT_EQ(top["url"], "/api/v1/blog/read?id=" + a);
}

TEST_F(StreamApi, LimitIsOneToHundred) {
    for (const char* bad : {"?limit=0", "?limit=101"}) {
        auto r = list(bad);
        EXPECT_EQ(r.status, 400) << r.body;
        EXPECT_NE(r.body.find("limit"), std::string::npos) << r.body;
    }
    EXPECT_EQ(list("?limit=100").status, 200);
}

TEST_F(StreamApi, McpCallGivesTheSameAnswer) {
    McpClient mcp(host->api_port(), "st-mcp");
    mcp.initialize();
    const json tool = mcp.call_tool("stream_list", {{"limit", 5}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"], list("?limit=5", "st-mcp").json()["data"]);
}

}  // namespace
