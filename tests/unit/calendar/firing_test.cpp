// Events firing on time (plugins/calendar scheduler.hpp) through the fake host: not before its
// time, exactly once (also with two schedulers on one store and with stale index entries),
// reminders in the owner's zone, daily repeats across DST, monthly clamping, missed occurrences.
#include "firing_fixture.hpp"

namespace firing_test {
namespace {

TEST_F(FiringTest, FiresAtItsTimeNotBeforeAndOnlyOnce) {
    mailboxes = {"alice"};
    const json e = ok(
        "create",
        {{"title", "Digest"}, {"when", "2027-03-01T01:00:00Z"}, {"prompt", "what are my notes"}});
    EXPECT_FALSE(e.contains("_sched"));
    EXPECT_EQ(e["fired"], false);
    EXPECT_TRUE(e["last_fired"].is_null());
    ASSERT_EQ(grants().size(), 1u);
    const std::string grant = grants().begin()->first;
    EXPECT_EQ(grants().begin()->second, "alice");
    EXPECT_EQ(e.dump().find(grant), std::string::npos) << "the grant is never shown";
    EXPECT_EQ(due_keys().size(), 1u);

    set_clock("2027-03-01T00:59:59Z");
    settle();
    EXPECT_TRUE(calls().empty());

    set_clock("2027-03-01T01:00:00Z");
    ASSERT_TRUE(wait_calls(1, "run"));
    const Seen run = calls("run")[0];
    EXPECT_EQ(run.account, "alice");
    EXPECT_EQ(run.request,
              (json{{"prompt", "what are my notes"}, {"title", "Digest"}, {"channel", "mail"}}));
    EXPECT_GE(run.now_ms, at("2027-03-01T01:00:00Z") * 1000);
    // The answer is mailed to the owner too, with the conversation it belongs to.
    ASSERT_TRUE(wait_for([&] {
        std::lock_guard<std::mutex> g(m);
        return letters.size() == 1;
    }));
    {
        std::lock_guard<std::mutex> g(m);
        EXPECT_EQ(letters[0].account, "alice");
        EXPECT_EQ(letters[0].request, (json{{"subject", "Digest"},
                                            {"body", "answer 1"},
                                            {"from", "agent"},
                                            {"thread", "th-1"}}));
    }
    ASSERT_TRUE(wait_for([&] { return read(e["id"])["fired"] == true; }));
    const json fired = read(e["id"]);
    EXPECT_EQ(fired["last_fired"], "2027-03-01T01:00:00Z");
    EXPECT_TRUE(fired["last_error"].is_null());
    EXPECT_FALSE(fired.contains("_sched"));
    EXPECT_TRUE(grants().empty()) << "a fired one-off gives its grant back";
    EXPECT_TRUE(due_keys().empty());

    set_clock("2027-03-02T01:00:00Z");
    settle();
    EXPECT_EQ(calls().size(), 1u);
}

TEST_F(FiringTest, AStaleEntryIsDroppedNeverFired) {
    // What a second host that scanned the index before this one claimed, or a crash between
    // writes, leaves: an entry the record no longer names.
    const json e = ok("create", {{"title", "Once"}, {"when", "2027-03-01T08:00:00Z"}});
    const json d =
        ok("create", {{"title", "Daily"}, {"when", "2027-03-01T08:00:00Z"}, {"repeat", "daily"}});
    const auto before = due_entries();
    ASSERT_EQ(before.size(), 2u);
    set_clock("2027-03-01T08:00:00Z");
    ASSERT_TRUE(wait_calls(2, "post"));
    ASSERT_TRUE(wait_for([&] {
        return read(e["id"])["fired"] == true && read(d["id"])["when"] == "2027-03-02T08:00:00Z";
    }));
    {
        std::lock_guard<std::mutex> g(host.store_mutex);
        for (const auto& [k, v] : before) host.store[k] = {v, 0};
    }
    settle();
    EXPECT_EQ(calls().size(), 2u);
    EXPECT_EQ(due_keys().size(), 1u) << "only the daily's next step is left";
}

TEST_F(FiringTest, TwoSchedulersOnOneStoreFireEachEventOnce) {
    auto second = load();  // another host on the same store
    call_ms = 15;          // both are likely to hold the same entries in their scans
    for (int i = 0; i < 6; ++i)
        ok("create", {{"title", "r" + std::to_string(i)}, {"when", "2027-03-01T08:00:00Z"}});
    set_clock("2027-03-01T08:00:00Z");
    ASSERT_TRUE(wait_calls(6, "post"));
    settle();
    settle();
    std::set<std::string> titles;
    for (const auto& c : calls()) titles.insert(c.request["title"].get<std::string>());
    EXPECT_EQ(calls().size(), 6u);
    EXPECT_EQ(titles.size(), 6u);
    EXPECT_TRUE(due_keys().empty());
}

TEST_F(FiringTest, WithoutPromptAReminderInTheOwnersZone) {
    const json e =
        ok("create",
           {{"title", "Dentist"}, {"when", "2027-04-01T09:30:00+01:00"}, {"note", "bring card"}});
    set_clock("2027-04-01T08:30:00Z");
    ASSERT_TRUE(wait_calls(1, "post"));
    const Seen post = calls("post")[0];
    EXPECT_EQ(post.account, "alice");
    EXPECT_EQ(post.request["title"], "Reminder: Dentist");
    EXPECT_EQ(post.request["text"],
              "Dentist \xE2\x80\x94 Thursday 1 April 2027, 09:30 (Europe/London)\nbring card");
    EXPECT_TRUE(calls("run").empty());
    EXPECT_TRUE(wait_for([&] { return read(e["id"])["fired"] == true; }));
}

// An owner with a device also gets the reminder pushed (after it reached the inbox); one without
// gets the inbox only (the other tests: no notify service).
TEST_F(FiringTest, AReminderIsPushedToTheOwnersDevices) {
    notifiable.insert("alice");
    ok("create", {{"title", "Dentist"}, {"when", "2027-04-01T09:30:00+01:00"}});
    ok("create", {{"title", "Gym"}, {"when", "2027-04-01T09:30:00+01:00"}}, "bob");
    set_clock("2027-04-01T08:30:00Z");
    ASSERT_TRUE(wait_calls(2, "post"));
    ASSERT_TRUE(wait_for([&] {
        std::lock_guard<std::mutex> g(m);
        return !pushes.empty();
    }));
    settle();
    std::lock_guard<std::mutex> g(m);
    ASSERT_EQ(pushes.size(), 1u);
    EXPECT_EQ(pushes[0].account, "alice");
    EXPECT_EQ(pushes[0].request["title"], "Reminder: Dentist");
    EXPECT_EQ(pushes[0].request["body"],
              "Dentist \xE2\x80\x94 Thursday 1 April 2027, 09:30 (Europe/London)");
}

TEST_F(FiringTest, DailyKeepsNineLocalAcrossTheDstChange) {
    set_clock("2027-03-26T00:00:00Z");
    const json e = ok("create", {{"title", "Plan"},
                                 {"when", "2027-03-27T09:00:00Z"},
                                 {"repeat", "daily"},
                                 {"prompt", "plan my day"}});
    set_clock("2027-03-27T09:00:00Z");  // Saturday 09:00 GMT
    ASSERT_TRUE(wait_calls(1, "run"));
    ASSERT_TRUE(wait_for([&] { return read(e["id"])["when"] == "2027-03-28T09:00:00+01:00"; }))
        << read(e["id"]);
    set_clock("2027-03-28T07:59:59Z");  // 08:59:59 BST
    settle();
    EXPECT_EQ(calls("run").size(), 1u);
    set_clock("2027-03-28T08:00:00Z");  // Sunday 09:00 BST
    ASSERT_TRUE(wait_calls(2, "run"));
    EXPECT_EQ(calls("run")[1].now_ms, at("2027-03-28T08:00:00Z") * 1000);
    ASSERT_TRUE(wait_for([&] { return read(e["id"])["when"] == "2027-03-29T09:00:00+01:00"; }))
        << read(e["id"]);
    const json r = read(e["id"]);
    EXPECT_EQ(r["fired"], false);
    EXPECT_EQ(r["last_fired"], "2027-03-28T08:00:00Z");
    EXPECT_EQ(grants().size(), 1u) << "a repeating event keeps its grant";
}

TEST_F(FiringTest, MonthlyOnThe31stClampsAndComesBack) {
    set_clock("2027-01-30T00:00:00Z");
    const json e =
        ok("create", {{"title", "Rent"}, {"when", "2027-01-31T10:00:00Z"}, {"repeat", "monthly"}},
           "bob");
    const std::vector<std::pair<std::string, std::string>> steps{
        {"2027-01-31T10:00:00Z", "2027-02-28T10:00:00Z"},
        {"2027-02-28T10:00:00Z", "2027-03-31T10:00:00Z"},
        {"2027-03-31T10:00:00Z", "2027-04-30T10:00:00Z"}};
    size_t n = 0;
    for (const auto& step : steps) {
        const std::string& now = step.first;
        const std::string& next = step.second;  // a lambda cannot capture a structured binding
        set_clock(now);
        ASSERT_TRUE(wait_calls(++n, "post")) << now;
        ASSERT_TRUE(wait_for([&] { return read(e["id"], "bob")["when"] == next; }))
            << read(e["id"], "bob");
    }
    EXPECT_EQ(calls("post").size(), 3u);
}

TEST_F(FiringTest, AHostDownAcrossSeveralOccurrencesFiresOnceAndMovesOn) {
    const json e =
        ok("create", {{"title", "Pills"}, {"when", "2027-03-01T08:00:00Z"}, {"repeat", "daily"}},
           "bob");
    set_clock("2027-03-04T12:00:00Z");
    ASSERT_TRUE(wait_calls(1, "post"));
    ASSERT_TRUE(wait_for([&] { return read(e["id"], "bob")["when"] == "2027-03-05T08:00:00Z"; }))
        << read(e["id"], "bob");
    settle();
    EXPECT_EQ(calls().size(), 1u);
}

}  // namespace
}  // namespace firing_test
