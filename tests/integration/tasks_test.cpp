// The tasks catalogue service against the real host (test profile: the bearer token is the
// account id; manual business clock): every method over /api/v1, limits, ownership, the orders
// of list and next, and one tools/call answering as /api/v1 does; then `due` read in the owner's
// time zone on the local profile (auth-local keeps the account's zone) put on a manual clock.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "catalogue_test.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"
#include "mcp_client.hpp"
#include "profiles.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class TasksApi : public CatalogueTest {
protected:
    TasksApi() : CatalogueTest("tasks") {}
    json create(const json& body, const std::string& who) { return ok("create", body, who); }
    std::vector<std::string> titles(const std::string& query, const std::string& who) {
        return listed(get("list" + query, who), "tasks", "title");
    }
};

TEST_F(TasksApi, CreateReadUpdateDelete) {
    ASSERT_EQ(api.post_json("/clock/set", {{"unix_ms", 1767225600000}}).status, 200);  // 2026-01-01
    json t = create({{"title", "water plants"}, {"detail", "balcony"}, {"due", "2026-01-02 18:30"}},
                    "t-alice");
    EXPECT_EQ(t["status"], "todo");
    EXPECT_EQ(t["assignee"], "me");
    EXPECT_EQ(t["due"], "2026-01-02T18:30:00Z");  // the account has no time zone: UTC
    EXPECT_EQ(t["created"], "2026-01-01T00:00:00Z");
    const std::string id = t["id"];

    auto read = get("read?id=" + id, "t-alice");
    ASSERT_EQ(read.status, 200) << read.body;
    EXPECT_EQ(read.json()["data"], t);

    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 60000}}).status, 200);
    auto upd = post("update", {{"id", id}, {"status", "done"}, {"result", "watered"}}, "t-alice");
    ASSERT_EQ(upd.status, 200) << upd.body;
    EXPECT_EQ(upd.json()["data"]["status"], "done");
    EXPECT_EQ(upd.json()["data"]["result"], "watered");
    EXPECT_EQ(upd.json()["data"]["detail"], "balcony");
    EXPECT_EQ(upd.json()["data"]["updated"], "2026-01-01T00:01:00Z");

    auto del = post("delete", {{"id", id}}, "t-alice");
    ASSERT_EQ(del.status, 200) << del.body;
    EXPECT_EQ(del.json()["data"]["deleted"], id);
    EXPECT_EQ(get("read?id=" + id, "t-alice").status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, "t-alice").status, 404);
}

TEST_F(TasksApi, LimitsAndRequiredArguments) {
    expect_400(get("list?limit=0", "t-limits"), "limit");
    expect_400(get("list?limit=101", "t-limits"), "limit");
    expect_400(get("list?offset=-1", "t-limits"), "offset");
    expect_400(get("list?status=later", "t-limits"), "status");
    EXPECT_EQ(get("list?limit=100", "t-limits").status, 200);
    expect_400(post("create", {{"detail", "no title"}}, "t-limits"), "title");
    expect_400(post("create", {{"title", "x"}, {"assignee", "boss"}}, "t-limits"), "assignee");
    expect_400(post("create", {{"title", "x"}, {"due", "soon"}}, "t-limits"), "due");
    expect_400(post("update", {{"status", "done"}}, "t-limits"), "id");
    expect_400(post("delete", json::object(), "t-limits"), "id");
    expect_400(get("read", "t-limits"), "id");
    json t = create({{"title", "x"}}, "t-limits");
    expect_400(post("update", {{"id", t["id"]}, {"status", "finished"}}, "t-limits"), "status");
    EXPECT_EQ(api.get("/api/v1/tasks/next").status, 401);
    EXPECT_EQ(api.get("/api/v1/tasks/create", as("t-limits")).status, 405);
}

TEST_F(TasksApi, AnotherAccountsIdsAre404) {
    json t = create({{"title", "private"}, {"assignee", "agent"}}, "t-owner");
    const std::string id = t["id"];
    EXPECT_EQ(get("read?id=" + id, "t-other").status, 404);
    EXPECT_EQ(post("update", {{"id", id}, {"status", "done"}}, "t-other").status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, "t-other").status, 404);
    EXPECT_TRUE(titles("", "t-other").empty());
    EXPECT_EQ(get("next", "t-other").json()["data"]["task"], nullptr);
    EXPECT_EQ(get("read?id=" + id, "t-owner").json()["data"]["title"],
              "private");  // (the agent may be on it)
}

TEST_F(TasksApi, ListOpenFirstWithStatusFilterAndPagingAndNextForTheAgent) {
    const std::string who = "t-lister";
    // Tasks for the agent become work (plugins/work); without allowance or credit that work is
    // blocked, so they stay open — status blocked once the work has written back.
    ASSERT_EQ(api.post_json("/rpc",
                            {{"service", "billing"},
                             {"method", "Billing.SetAllowance"},
                             {"request", {{"account", who}, {"allowance_per_day", 0}}}},
                            as("admin"))
                  .status,
              200);
    create({{"title", "later"}, {"due", "2026-06-01T09:00:00+02:00"}}, who);
    json done = create({{"title", "finished"}}, who);
    create({{"title", "sooner"}, {"due", "2026-05-01T09:00:00Z"}, {"assignee", "agent"}}, who);
    create({{"title", "someday"}, {"assignee", "agent"}}, who);
    ASSERT_EQ(post("update", {{"id", done["id"]}, {"status", "done"}}, who).status, 200);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (titles("?status=blocked", who).size() < 2 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(titles("", who),
              (std::vector<std::string>{"sooner", "later", "someday", "finished"}));
    EXPECT_EQ(titles("?status=done", who), std::vector<std::string>{"finished"});
    EXPECT_EQ(titles("?status=blocked&offset=1&limit=1", who), std::vector<std::string>{"someday"});
    EXPECT_EQ(titles("?status=todo", who), std::vector<std::string>{"later"});
    EXPECT_EQ(get("list?limit=1", who).json()["data"]["total"], 4);

    auto next = get("next", who);
    ASSERT_EQ(next.status, 200) << next.body;
    EXPECT_EQ(next.json()["data"]["task"]["title"], "sooner");
    const std::string sooner = next.json()["data"]["task"]["id"];
    ASSERT_EQ(post("update", {{"id", sooner}, {"status", "failed"}}, who).status, 200);
    EXPECT_EQ(get("next", who).json()["data"]["task"]["title"], "someday");

    // One tools/call gives the answer /api/v1 gives.
    McpClient mcp(host->api_port(), who);
    mcp.initialize();
    const json tool = mcp.call_tool("tasks_list", {{"status", "todo"}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"], get("list?status=todo", who).json()["data"]);
    const json bad = mcp.call_tool("tasks_list", {{"limit", 101}});
    EXPECT_EQ(bad["isError"], true) << bad;
}

TEST(TasksTimeZone, LocalDueIsReadInTheAccountsZone) {
    TempDir dir;
    HostProcess host(
        local_options("admin-secret-for-tasks", manual_clock_local_profile(dir.path())));
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    ASSERT_EQ(c.post_json("/clock/set", {{"unix_ms", 1767225600000LL}}).status, 200);  // 2026-01-01
    const std::string token = access_token(c, "admin", "admin-secret-for-tasks");
    ASSERT_FALSE(token.empty());
    const std::map<std::string, std::string> admin = bearer(token);
    auto due = [&](const std::string& local) {
        auto r = c.post_json("/api/v1/tasks/create", {{"title", "t"}, {"due", local}}, admin);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.json()["data"]["due"];
    };
    EXPECT_EQ(due("2026-07-01 09:00"), "2026-07-01T09:00:00Z");  // the default zone: UTC
    ASSERT_EQ(c.post_json("/auth/setTimezone", {{"timezone", "Europe/London"}}, admin).status, 200);
    EXPECT_EQ(due("2026-07-01 09:00"), "2026-07-01T08:00:00Z");  // BST
    EXPECT_EQ(due("2026-01-15 09:00"), "2026-01-15T09:00:00Z");  // GMT
    EXPECT_EQ(due("2026-07-01T09:00:00+02:00"),
              "2026-07-01T07:00:00Z");  // RFC 3339: its own offset
    EXPECT_EQ(host.stop(), 0) << host.log();
}

}  // namespace
