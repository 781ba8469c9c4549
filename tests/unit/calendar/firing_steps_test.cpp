// What the steps of a firing do and record (plugins/calendar firing.hpp) through the fake host:
// advance reports prepared read-only then delivered, failures recorded (never invented), update
// re-planning, delete revoking the grant, and list around a fired one-off.
#include "firing_fixture.hpp"

namespace firing_test {
namespace {

TEST_F(FiringTest, AdvancePreparesAReadOnlyReportThenDeliversIt) {
    const json e = ok("create", {{"title", "Board"},
                                 {"when", "2027-03-01T10:00:00Z"},
                                 {"note", "Q1 numbers"},
                                 {"advance", {{"minutes", 60}, {"recipient", "user"}}}});
    set_clock("2027-03-01T08:59:59Z");
    settle();
    EXPECT_TRUE(calls().empty());
    set_clock("2027-03-01T09:00:00Z");
    ASSERT_TRUE(wait_calls(1, "run"));
    EXPECT_EQ(calls("run")[0].request,
              (json{{"prompt", "Prepare a short briefing for: Board Q1 numbers"},
                    {"title", "Board"},
                    {"channel", "web"},
                    {"read_only", true},
                    {"deliver", false}}));
    ASSERT_TRUE(wait_for([&] { return read(e["id"])["briefing"].is_object(); }));
    EXPECT_EQ(read(e["id"])["briefing"], (json{{"text", "answer 1"},
                                               {"prepared", "2027-03-01T09:00:00Z"},
                                               {"for", "2027-03-01T10:00:00Z"}}));
    settle();
    EXPECT_TRUE(calls("post").empty()) << "delivered at when, not before";

    set_clock("2027-03-01T10:00:00Z");
    ASSERT_TRUE(wait_calls(1, "post"));
    EXPECT_EQ(calls("post")[0].request,
              (json{{"title", "Briefing: Board"}, {"text", "answer 1"}, {"channel", "web"}}));
    ASSERT_TRUE(wait_for([&] { return read(e["id"])["fired"] == true; }));
    EXPECT_EQ(calls("run").size(), 1u) << "the prompt is not run again at when";

    // With a prompt (and the agent as recipient) the report is the prompt's, run read-only.
    const json p = ok("create", {{"title", "Week"},
                                 {"when", "2027-03-01T12:00:00Z"},
                                 {"prompt", "summarise my week"},
                                 {"advance", {{"minutes", 30}, {"recipient", "agent"}}}});
    set_clock("2027-03-01T11:30:00Z");
    ASSERT_TRUE(wait_calls(2, "run"));
    EXPECT_EQ(calls("run")[1].request["prompt"], "summarise my week");
    EXPECT_EQ(calls("run")[1].request["read_only"], true);
    set_clock("2027-03-01T12:00:00Z");
    ASSERT_TRUE(wait_calls(2, "post"));
    EXPECT_EQ(calls("post")[1].request["title"], "Briefing: Week");
    EXPECT_EQ(calls("post")[1].request["text"], "answer 3");
}

TEST_F(FiringTest, UpdateReplansAndDeleteStopsAndRevokes) {
    const json e = ok("create", {{"title", "Call"}, {"when", "2027-03-01T10:00:00Z"}});
    const std::string first = grants().begin()->first;
    ok("update", {{"id", e["id"]}, {"when", "2027-03-01T11:00:00Z"}});
    ASSERT_EQ(grants().size(), 1u);
    EXPECT_NE(grants().begin()->first, first)
        << "update takes a new grant and gives the old one back";
    ASSERT_EQ(due_keys().size(), 1u);
    EXPECT_EQ(due_keys()[0].rfind(
                  "due/00" + std::to_string(at("2027-03-01T11:00:00Z") * 1000) + "/alice/", 0),
              0u)
        << due_keys()[0];
    set_clock("2027-03-01T10:30:00Z");
    settle();
    EXPECT_TRUE(calls().empty()) << "the old time is gone";

    ok("delete", {{"id", e["id"]}});
    EXPECT_TRUE(grants().empty());
    EXPECT_TRUE(due_keys().empty());
    set_clock("2027-03-01T12:00:00Z");
    settle();
    EXPECT_TRUE(calls().empty());
}

TEST_F(FiringTest, AFailedRunIsRecordedNeverInvented) {
    run_failure = Reply{PLATFORM_PAYMENT_REQUIRED, "needs 1 credit; you have 0", "", {}};
    const json e = ok("create", {{"title", "Digest"},
                                 {"when", "2027-03-01T07:00:00Z"},
                                 {"repeat", "daily"},
                                 {"prompt", "news"}});
    const json b = ok("create", {{"title", "Brief"},
                                 {"when", "2027-03-01T07:00:00Z"},
                                 {"advance", {{"minutes", 10}, {"recipient", "user"}}}});
    set_clock("2027-03-01T07:00:00Z");
    ASSERT_TRUE(wait_for([&] { return read(e["id"])["last_error"].is_string(); })) << read(e["id"]);
    const json r = read(e["id"]);
    EXPECT_EQ(r["last_error"], "agent/run: 402 needs 1 credit; you have 0");
    EXPECT_EQ(r["last_fired"], "2027-03-01T07:00:00Z");
    EXPECT_EQ(r["when"], "2027-03-02T07:00:00Z") << "a repeat moves on";

    // The failed preparation: at when the plain reminder goes out, and the event says why.
    ASSERT_TRUE(wait_for([&] { return read(b["id"])["fired"] == true; })) << read(b["id"]);
    const json f = read(b["id"]);
    EXPECT_TRUE(f["briefing"].is_null());
    EXPECT_NE(f["last_error"].get<std::string>().find("briefing: none was prepared"),
              std::string::npos)
        << f;
    EXPECT_NE(f["last_error"].get<std::string>().find("402"), std::string::npos) << f;
    settle();
    ASSERT_EQ(calls("post").size(), 1u);
    EXPECT_EQ(calls("post")[0].request["title"], "Reminder: Brief");
    for (const auto& c : calls("post"))
        EXPECT_EQ(c.request["text"].get<std::string>().find("answer"), std::string::npos);
}

TEST_F(FiringTest, ListKeepsAFiredOneOffUntilItEnds) {
    const json e =
        ok("create", {{"title", "Walk"}, {"when", "2027-03-01T10:00:00Z"}, {"minutes", 30}});
    set_clock("2027-03-01T10:10:00Z");
    ASSERT_TRUE(wait_for([&] { return read(e["id"])["fired"] == true; }));
    json l = ok("list", {{"offset", 0}, {"limit", 20}});
    ASSERT_EQ(l["events"].size(), 1u);
    EXPECT_EQ(l["events"][0]["fired"], true);
    EXPECT_FALSE(l["events"][0].contains("_sched"));
    set_clock("2027-03-01T10:30:00Z");
    EXPECT_TRUE(ok("list", {{"offset", 0}, {"limit", 20}})["events"].empty());
    EXPECT_EQ(read(e["id"])["fired"], true) << "still readable";
}

}  // namespace
}  // namespace firing_test
