// The catalogue's `events` service (plugins/calendar) against the real host: every method over
// /api/v1/events, its limits, ownership, the agent-withheld delete, one MCP call, and free slots
// around events on the test profile's manual clock — then across the Europe/London DST change on
// the local profile (auth-local keeps the account's time zone) put on a manual clock.
#include <gtest/gtest.h>

#include "catalogue_test.hpp"
#include "local_accounts.hpp"
#include "mcp_client.hpp"
#include "profiles.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

std::vector<std::string> slots(const HttpResult& r) {
    std::vector<std::string> out;
    EXPECT_EQ(r.status, 200) << r.body;
    if (r.status != 200) return out;
    const json body = r.json();  // the loop reads into it: keep it alive
    for (const auto& s : body["data"]["slots"])
        out.push_back(s["start"].get<std::string>() + " " + s["end"].get<std::string>());
    return out;
}

class EventsApi : public CatalogueTest {
protected:
    EventsApi() : CatalogueTest("events") {}
    void SetUp() override {  // 2027-03-01T00:00:00Z
        ASSERT_EQ(api.post_json("/clock/set", {{"unix_ms", 1803859200000LL}}).status, 200);
    }
    json create(const json& body, const std::string& who) { return ok("create", body, who); }
};

TEST_F(EventsApi, CreateReadUpdateDelete) {
    json e = create({{"title", "Dentist"},
                     {"when", "2027-03-10T09:30:00+01:00"},
                     {"note", "card"},
                     {"advance", {{"minutes", 60}, {"recipient", "user"}}}},
                    "ev-alice");
    ASSERT_TRUE(e["id"].is_string());
    EXPECT_EQ(e["minutes"], 30);  // the default
    EXPECT_EQ(e["when"], "2027-03-10T09:30:00+01:00");
    const std::string id = e["id"];

    auto read = get("read?id=" + id, "ev-alice");
    ASSERT_EQ(read.status, 200) << read.body;
    EXPECT_EQ(read.json()["data"], e);

    auto upd =
        post("update",
             {{"id", id}, {"title", "Dentist (moved)"}, {"minutes", 45}, {"repeat", "monthly"}},
             "ev-alice");
    ASSERT_EQ(upd.status, 200) << upd.body;
    EXPECT_EQ(upd.json()["data"]["id"], id);
    EXPECT_EQ(upd.json()["data"]["note"], "card");  // omitted: kept
    EXPECT_EQ(upd.json()["data"]["repeat"], "monthly");
    auto cleared = post("update",
                        {{"id", id},
                         {"note", ""},
                         {"repeat", ""},
                         {"advance", {{"minutes", 0}, {"recipient", ""}}}},
                        "ev-alice");
    ASSERT_EQ(cleared.status, 200) << cleared.body;
    EXPECT_EQ(cleared.json()["data"]["note"], "");
    EXPECT_EQ(cleared.json()["data"]["repeat"], "");
    EXPECT_TRUE(cleared.json()["data"]["advance"].is_null());
    expect_400(post("update", {{"id", id}, {"when", "2027-02-01T09:00:00Z"}}, "ev-alice"),
               "when");  // past

    // Another account: 404 everywhere.
    EXPECT_EQ(get("read?id=" + id, "ev-bob").status, 404);
    EXPECT_EQ(post("update", {{"id", id}, {"title", "x"}}, "ev-bob").status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, "ev-bob").status, 404);
    EXPECT_EQ(api.get("/api/v1/events/read?id=" + id).status, 401);  // anonymous

    auto del = post("delete", {{"id", id}}, "ev-alice");
    ASSERT_EQ(del.status, 200) << del.body;
    EXPECT_EQ(del.json()["data"]["deleted"], id);
    EXPECT_EQ(get("read?id=" + id, "ev-alice").status, 404);
    EXPECT_EQ(post("delete", {{"id", id}}, "ev-alice").status, 404);
}

TEST_F(EventsApi, ArgumentsAndLimits) {
    expect_400(post("create", {{"when", "2027-03-10T09:30:00Z"}}, "ev-lim"), "title");
    expect_400(post("create", {{"title", "x"}}, "ev-lim"), "when");
    expect_400(post("create", {{"title", "x"}, {"when", "2027-03-10T09:30:00"}}, "ev-lim"),
               "when");  // no offset
    expect_400(post("create", {{"title", "x"}, {"when", "2027-02-10T09:30:00Z"}}, "ev-lim"),
               "when");  // past
    expect_400(post("create", {{"title", "x"}, {"when", "2027-03-10T09:30:00Z"}, {"minutes", 0}},
                    "ev-lim"),
               "minutes");
    expect_400(
        post("create", {{"title", "x"}, {"when", "2027-03-10T09:30:00Z"}, {"repeat", "yearly"}},
             "ev-lim"),
        "repeat");
    expect_400(
        post("create",
             {{"title", "x"}, {"when", "2027-03-10T09:30:00Z"}, {"advance", {{"minutes", 5}}}},
             "ev-lim"),
        "recipient");
    json e = create({{"title", "x"}, {"when", "2027-03-10T09:30:00Z"}}, "ev-lim");
    expect_400(post("update", {{"id", e["id"]}, {"minutes", 0}}, "ev-lim"), "minutes");
    expect_400(post("update", {{"id", e["id"]}, {"minutes", 10081}}, "ev-lim"), "minutes");
    EXPECT_EQ(post("update", {{"id", e["id"]}, {"minutes", 10080}}, "ev-lim").status, 200);
    expect_400(post("update", {{"title", "x"}}, "ev-lim"), "id");
    expect_400(
        post("update", {{"id", e["id"]}, {"advance", {{"minutes", 0}, {"recipient", "user"}}}},
             "ev-lim"),
        "advance");
    expect_400(get("list?limit=0", "ev-lim"), "limit");
    expect_400(get("list?limit=101", "ev-lim"), "limit");
    expect_400(get("list?offset=-1", "ev-lim"), "offset");
    expect_400(get("read", "ev-lim"), "id");
    expect_400(post("delete", json::object(), "ev-lim"), "id");
    expect_400(get("free?day_start=24", "ev-lim"), "day_start");
    expect_400(get("free?day_end=-1", "ev-lim"), "day_end");
    expect_400(get("free?day_start=18&day_end=9", "ev-lim"), "day_end");
    expect_400(get("free?from=2027-03-10T00:00:00Z&to=2027-03-09T00:00:00Z", "ev-lim"), "to");
    expect_400(get("free?minutes=0", "ev-lim"), "minutes");
    EXPECT_EQ(
        api.post_json("/api/v1/events/create", {{"title", "x"}, {"when", "2027-03-10T09:30:00Z"}})
            .status,
        401);
    EXPECT_EQ(api.get("/api/v1/events/free").status, 401);
    EXPECT_EQ(api.get("/api/v1/events/create?title=x").status, 405);  // changes need a POST
}

TEST_F(EventsApi, ListIsUpcomingAndPaged) {
    create({{"title", "third"}, {"when", "2027-03-20T10:00:00Z"}}, "ev-list");
    create({{"title", "first"}, {"when", "2027-03-02T10:00:00Z"}}, "ev-list");
    create({{"title", "second"}, {"when", "2027-03-05T10:00:00Z"}}, "ev-list");
    auto titles = [&](const std::string& query) {
        std::vector<std::string> out;
        auto r = get("list" + query, "ev-list");
        EXPECT_EQ(r.status, 200) << r.body;
        const json body = r.json();
        for (const auto& e : body["data"]["events"]) out.push_back(e["title"]);
        return out;
    };
    EXPECT_EQ(titles(""), (std::vector<std::string>{"first", "second", "third"}));
    EXPECT_EQ(titles("?offset=1&limit=1"), (std::vector<std::string>{"second"}));
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 3LL * 86400 * 1000}}).status,
              200);                                                        // 2027-03-04
    EXPECT_EQ(titles(""), (std::vector<std::string>{"second", "third"}));  // "first" is over
    EXPECT_TRUE(get("list", "ev-list-other").json()["data"]["events"].empty());
}

TEST_F(EventsApi, FreeAroundEventsFromTheClock) {
    // now = 2027-03-01T00:00:00Z (Monday); UTC: auth-noop keeps no time zone.
    create({{"title", "standup"},
            {"when", "2027-03-01T09:00:00Z"},
            {"minutes", 15},
            {"repeat", "daily"}},
           "ev-free");
    create({{"title", "review"}, {"when", "2027-03-02T14:00:00Z"}, {"minutes", 90}}, "ev-free");
    create({{"title", "elsewhere"}, {"when", "2027-03-01T12:00:00Z"}}, "ev-free-other");
    auto r = get("free?to=2027-03-03T00:00:00Z&minutes=60", "ev-free");
    EXPECT_EQ(r.json()["data"]["timezone"], "UTC");
    EXPECT_EQ(r.json()["data"]["from"], "2027-03-01T00:00:00Z");  // now
    EXPECT_EQ(slots(r), (std::vector<std::string>{"2027-03-01T09:15:00Z 2027-03-01T18:00:00Z",
                                                  "2027-03-02T09:15:00Z 2027-03-02T14:00:00Z",
                                                  "2027-03-02T15:30:00Z 2027-03-02T18:00:00Z"}));
    // Defaults: a week from now, 30 minutes, 9 to 18: seven days of 09:15-18:00 but one split.
    EXPECT_EQ(slots(get("free", "ev-free")).size(), 8u);
}

TEST_F(EventsApi, DeleteIsWithheldFromTheAgent) {
    auto svc = api.get("/registry/getService?service=go.core.api.v1.events");
    ASSERT_EQ(svc.status, 200) << svc.body;
    bool seen = false;
    const json described = svc.json();
    for (const auto& e : described["services"][0]["endpoints"]) {
        const std::string flags = e["metadata"]["flags"];
        const bool withheld = flags.find("withheld_from_agent") != std::string::npos;
        EXPECT_EQ(withheld, e["name"] == "Events.Delete") << e["name"] << " " << flags;
        seen = seen || withheld;
    }
    EXPECT_TRUE(seen);
}

// On a host whose business clock was never moved (MCP sessions expire on it).
TEST(EventsMcp, ToolsAnswerAsHttp) {
    HostProcess host;
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    auto made =
        api.post_json("/api/v1/events/create", {{"title", "mcp"}, {"when", "2030-03-10T09:30:00Z"}},
                      bearer("ev-mcp"));
    ASSERT_EQ(made.status, 200) << made.body;
    const json e = made.json()["data"];
    McpClient mcp(host.api_port(), "ev-mcp");
    mcp.initialize();
    const json tool = mcp.call_tool("events_read", {{"id", e["id"]}});
    ASSERT_FALSE(tool.value("isError", false)) << tool;
    EXPECT_EQ(tool["structuredContent"], e);
    const json free_tool = mcp.call_tool(
        "events_free", {{"from", "2030-03-10T00:00:00Z"}, {"to", "2030-03-11T00:00:00Z"}});
    EXPECT_EQ(free_tool["structuredContent"],
              api.get("/api/v1/events/free?from=2030-03-10T00:00:00Z&to=2030-03-11T00:00:00Z",
                      bearer("ev-mcp"))
                  .json()["data"]);
}

// The local profile (auth-local: accounts keep metadata.timezone) on a manual business clock.
TEST(EventsTimeZone, FreeAcrossTheLondonDstChange) {
    TempDir dir;
    HostProcess host(
        local_options("admin-secret-for-events", manual_clock_local_profile(dir.path())));
    host.start();
    HttpClient c("127.0.0.1", host.api_port());
    // The business time first: tokens are issued (and expire) on it.
    ASSERT_EQ(c.post_json("/clock/set", {{"unix_ms", 1803859200000LL}}).status, 200);  // 2027-03-01
    const std::string admin = access_token(c, "admin", "admin-secret-for-events");
    ASSERT_FALSE(admin.empty());

    // Lunch at 12:00 London time every day, from Friday 26 March (GMT); BST starts Sunday 28th.
    ASSERT_EQ(c.post_json("/api/v1/events/create",
                          {{"title", "lunch"},
                           {"when", "2027-03-26T12:00:00Z"},
                           {"minutes", 60},
                           {"repeat", "daily"}},
                          bearer(admin))
                  .status,
              200);
    const std::string query =
        "/api/v1/events/free?from=2027-03-27T00:00:00Z&to=2027-03-29T00:00:00%2B01:00";
    EXPECT_EQ(
        slots(c.get(query, bearer(admin))),
        (std::vector<std::string>{"2027-03-27T09:00:00Z 2027-03-27T12:00:00Z",
                                  "2027-03-27T13:00:00Z 2027-03-27T18:00:00Z",
                                  "2027-03-28T09:00:00Z 2027-03-28T12:00:00Z",
                                  "2027-03-28T13:00:00Z 2027-03-28T18:00:00Z"}));  // UTC: no change

    ASSERT_EQ(
        c.post_json("/auth/setTimezone", {{"timezone", "Europe/London"}}, bearer(admin)).status,
        200);
    auto london = c.get(query, bearer(admin));
    EXPECT_EQ(london.json()["data"]["timezone"], "Europe/London");
    EXPECT_EQ(slots(london),
              (std::vector<std::string>{"2027-03-27T09:00:00Z 2027-03-27T12:00:00Z",
                                        "2027-03-27T13:00:00Z 2027-03-27T18:00:00Z",
                                        "2027-03-28T09:00:00+01:00 2027-03-28T12:00:00+01:00",
                                        "2027-03-28T13:00:00+01:00 2027-03-28T18:00:00+01:00"}));
}

}  // namespace
