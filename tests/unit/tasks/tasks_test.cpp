// The tasks plugin (plugins/tasks) through the fake host: CRUD, the list and next orders, `due` in
// RFC 3339 or in the owner's time zone (due.cpp, tested directly too), and tasks for the agent
// handed to the work service (work/from_task; without one — no on_call — they are kept as they are).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../../plugins/tasks/due.hpp"
#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

class TasksTest : public ::testing::Test {
protected:
    json create(const json& args, const std::string& who = "alice") {
        return ok_json(tasks.call("create", args, who));
    }
    json update(const json& args, const std::string& who = "alice") {
        return ok_json(tasks.call("update", args, who));
    }
    std::vector<std::string> titles(const json& args, const std::string& who = "alice") {
        return listed(tasks.call("list", args, who), "tasks", "title");
    }
    // The auth service's `me` answers this time zone for every account.
    void zone(const std::string& tz) {
        host.on_call = [tz](const std::string& service, const std::string& method, const json&,
                            const std::string&) {
            Reply r;
            if (service != "auth" || method != "me") return r.code = PLATFORM_NOT_FOUND, r;
            r.code = PLATFORM_OK;
            r.body = json{{"account", {{"id", "alice"}, {"metadata", {{"timezone", tz}}}}}}.dump();
            return r;
        };
    }

    FakeHost host;
    FakePlugin tasks = host.load(platform_plugin_entry);
};

TEST(Due, LocalLayout) {
    EXPECT_EQ(tasks::parse_local_layout("2026-01-01 00:00"), 1767225600);
    EXPECT_FALSE(tasks::parse_local_layout("2026-01-01T00:00"));
    EXPECT_FALSE(tasks::parse_local_layout("2026-13-01 00:00"));
}

TEST(Due, LocalTimeInTheOwnersZoneElseUtc) {
    // 09:30 on 2026-07-01: BST in London, EDT in New York; an unknown zone is read as UTC.
    const int64_t local = *tasks::parse_local_layout("2026-07-01 09:30");
    EXPECT_EQ(tasks::local_due_ms(local, "Europe/London"), (local - 3600) * 1000);
    EXPECT_EQ(tasks::local_due_ms(local, "America/New_York"), (local + 4 * 3600) * 1000);
    EXPECT_EQ(tasks::local_due_ms(local, "UTC"), local * 1000);
    EXPECT_EQ(tasks::local_due_ms(local, ""), local * 1000);
    EXPECT_EQ(tasks::local_due_ms(local, "Mars/Olympus"), local * 1000);
}

TEST_F(TasksTest, CreateReadUpdateDelete) {
    json t = create({{"title", "file taxes"}, {"detail", "by April"}});
    EXPECT_EQ(t.at("status"), "todo");
    EXPECT_EQ(t.at("assignee"), "me");
    EXPECT_EQ(t.at("due"), nullptr);
    EXPECT_EQ(t.at("result"), "");
    EXPECT_EQ(t.at("created"), "2026-01-01T00:00:00Z");
    EXPECT_FALSE(t.contains("due_ms"));
    EXPECT_FALSE(t.contains("seq"));
    const std::string id = t.at("id");
    EXPECT_EQ(tasks.call("read", {{"id", id}}, "alice").json(), t);
    EXPECT_EQ(tasks.call("read", {{"id", id}}, "bob").code, PLATFORM_NOT_FOUND);

    host.now_ms += 60000;
    json u = update({{"id", id}, {"status", "done"}, {"result", "filed"}});
    EXPECT_EQ(u.at("status"), "done");
    EXPECT_EQ(u.at("result"), "filed");
    EXPECT_EQ(u.at("title"), "file taxes");  // omitted: kept
    EXPECT_EQ(u.at("updated"), "2026-01-01T00:01:00Z");
    EXPECT_EQ(tasks.call("update", {{"id", id}, {"status", "doing"}}, "bob").code,
              PLATFORM_NOT_FOUND);

    EXPECT_EQ(tasks.call("delete", {{"id", id}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(tasks.call("delete", {{"id", id}}, "alice").json(), (json{{"deleted", id}}));
    EXPECT_EQ(tasks.call("read", {{"id", id}}, "alice").code, PLATFORM_NOT_FOUND);
}

TEST_F(TasksTest, DueInRfc3339OrTheOwnersZone) {
    EXPECT_EQ(create({{"title", "a"}, {"due", "2026-07-01T09:00:00+02:00"}}).at("due"),
              "2026-07-01T07:00:00Z");
    EXPECT_EQ(create({{"title", "b"}, {"due", "2026-07-01 09:00"}}).at("due"),
              "2026-07-01T09:00:00Z");  // no auth: UTC
    zone("Europe/London");
    EXPECT_EQ(create({{"title", "c"}, {"due", "2026-07-01 09:00"}}).at("due"),
              "2026-07-01T08:00:00Z");
    EXPECT_EQ(create({{"title", "d"}, {"due", "2026-01-15 09:00"}}).at("due"),
              "2026-01-15T09:00:00Z");
    zone("Not/AZone");
    EXPECT_EQ(create({{"title", "e"}, {"due", "2026-07-01 09:00"}}).at("due"),
              "2026-07-01T09:00:00Z");
    Reply bad = tasks.call("create", {{"title", "f"}, {"due", "next friday"}}, "alice");
    EXPECT_EQ(bad.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(bad.body.find("due"), std::string::npos) << bad.body;
}

TEST_F(TasksTest, ListPutsOpenTasksFirstAndPages) {
    create({{"title", "undated"}});
    create({{"title", "late"}, {"due", "2026-03-01T00:00:00Z"}});
    create({{"title", "soon"}, {"due", "2026-02-01T00:00:00Z"}});
    json d1 = create({{"title", "finished first"}});
    json d2 = create({{"title", "finished second"}});
    json b = create({{"title", "blocked"}});
    update({{"id", d1.at("id")}, {"status", "done"}});
    host.now_ms += 1000;
    update({{"id", d2.at("id")}, {"status", "failed"}});
    update({{"id", b.at("id")}, {"status", "blocked"}});
    EXPECT_EQ(titles(json::object()),
              (std::vector<std::string>{"soon", "late", "undated", "blocked", "finished second",
                                        "finished first"}));
    EXPECT_EQ(titles({{"status", "done"}}), std::vector<std::string>{"finished first"});
    EXPECT_EQ(titles({{"offset", 1}, {"limit", 2}}), (std::vector<std::string>{"late", "undated"}));
    json page = tasks.call("list", {{"offset", 5}, {"limit", 2}}, "alice").json();
    EXPECT_EQ(page.at("total"), 6);
    EXPECT_EQ(page.at("tasks").size(), 1u);
    EXPECT_TRUE(titles(json::object(), "bob").empty());
}

TEST_F(TasksTest, NextIsTheAgentsEarliestDueThenOldestOpenTask) {
    EXPECT_EQ(tasks.call("next", json::object(), "alice").json(), (json{{"task", nullptr}}));
    create({{"title", "mine"}, {"due", "2026-01-02T00:00:00Z"}});
    create({{"title", "agent undated old"}, {"assignee", "agent"}});
    create({{"title", "agent undated new"}, {"assignee", "agent"}});
    EXPECT_EQ(tasks.call("next", json::object(), "alice").json().at("task").at("title"),
              "agent undated old");
    json dated =
        create({{"title", "agent dated"}, {"assignee", "agent"}, {"due", "2026-05-01T00:00:00Z"}});
    EXPECT_EQ(tasks.call("next", json::object(), "alice").json().at("task").at("title"),
              "agent dated");
    update({{"id", dated.at("id")}, {"status", "done"}});
    EXPECT_EQ(tasks.call("next", json::object(), "alice").json().at("task").at("title"),
              "agent undated old");
    EXPECT_EQ(tasks.call("next", json::object(), "bob").json(), (json{{"task", nullptr}}));
}

TEST_F(TasksTest, TasksForTheAgentAreHandedToTheWorkService) {
    std::vector<json> handed;
    host.on_call = [&](const std::string& service, const std::string& method, const json& req,
                       const std::string& as) {
        Reply r;
        r.code = PLATFORM_NOT_FOUND;
        if (service != "work" || method != "from_task") return r;
        json seen = req;
        seen["_as"] = as;
        handed.push_back(seen);
        r.code = PLATFORM_OK;
        r.body = R"({"id":"wk-1","status":"todo"})";
        return r;
    };
    json mine = create({{"title", "mine"}});
    EXPECT_TRUE(handed.empty());
    json t =
        create({{"title", "file the report"}, {"detail", "the Q1 one"}, {"assignee", "agent"}});
    ASSERT_EQ(handed.size(), 1u);
    EXPECT_EQ(handed[0], (json{{"task", t.at("id")},
                               {"prompt", "file the report\n\nthe Q1 one"},
                               {"_as", "alice"}}));
    update({{"id", t.at("id")}, {"status", "doing"}});  // what the work writes back
    update({{"id", t.at("id")}, {"status", "done"}, {"result", "filed"}});
    update({{"id", t.at("id")}, {"title", "file the report again"}});
    EXPECT_EQ(handed.size(), 1u);  // only a return to todo queues it again
    update({{"id", t.at("id")}, {"status", "todo"}});
    ASSERT_EQ(handed.size(), 2u);
    EXPECT_EQ(handed[1].at("prompt"), "file the report again\n\nthe Q1 one");
    update({{"id", mine.at("id")}, {"status", "done"}});
    update({{"id", mine.at("id")}, {"status", "todo"}});
    EXPECT_EQ(handed.size(), 2u);  // not the agent's

    std::string detail;  // the prompt is cut at work's 8000 bytes, on a character
    for (int i = 0; i < 5000; ++i) detail += "é";
    create({{"title", "odd"}, {"detail", detail}, {"assignee", "agent"}});  // 5 bytes, then 2 each
    ASSERT_EQ(handed.size(), 3u);
    EXPECT_EQ(handed[2].at("prompt").get<std::string>().size(), 7999u);

    // A work service that refuses (a token without "Allow actions") keeps the task as it is.
    host.on_call = [](const std::string&, const std::string&, const json&, const std::string&) {
        Reply r;
        r.code = PLATFORM_PERMISSION_DENIED;
        r.body = "this method needs the Allow actions capability";
        return r;
    };
    json kept = create({{"title", "refused"}, {"assignee", "agent"}});
    EXPECT_EQ(kept.at("status"), "todo");
    EXPECT_EQ(tasks.call("read", {{"id", kept.at("id")}}, "alice").code, PLATFORM_OK);
}

}  // namespace
