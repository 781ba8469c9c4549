// The recall plugin (plugins/recall) through the fake host, over a stand-in for the agent's
// internal endpoints (fake_agent.hpp): conversation keeps the most recent `limit` messages (50 by
// default, 1-1000), list filters by the client a conversation began on (1-100, 20), both as the
// caller, and another account's conversation is 404.
#include <gtest/gtest.h>

#include "fake_agent.hpp"

namespace {

using namespace inbox_test;

class RecallTest : public ::testing::Test {
protected:
    RecallTest() {
        agent.add("ann", "th-long", "web", 60, 0);
        agent.add("ann", "th-cli", "cli", 2, 1);
        host.on_call = [this](const std::string& s, const std::string& m, const json& req,
                              const std::string& who) { return agent(s, m, req, who); };
    }
    FakeAgent agent;
    FakeHost host;
    FakePlugin recall = host.load(platform_plugin_entry);
};

TEST_F(RecallTest, AConversationKeepsTheMostRecentMessages) {
    Reply r = recall.call("conversation", {{"id", "th-long"}}, "ann");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    const json out = r.json();
    EXPECT_EQ(agent.calls.back().request, (json{{"id", "th-long"}, {"limit", 50}}));
    EXPECT_EQ(agent.calls.back().account, "ann");
    ASSERT_EQ(out["messages"].size(), 50u);
    EXPECT_EQ(out["messages"][0]["text"], "m11");
    EXPECT_EQ(out["messages"][49]["text"], "m60");
    EXPECT_FALSE(out["messages"][0].contains("steps"));
    EXPECT_EQ(out["conversation"]["id"], "th-long");
    EXPECT_EQ(out["conversation"]["messages"], 60);
    EXPECT_FALSE(out["conversation"].contains("unread"));

    const json two = recall.call("conversation", {{"id", "th-long"}, {"limit", 2}}, "ann").json();
    ASSERT_EQ(two["messages"].size(), 2u);
    EXPECT_EQ(two["messages"][1]["text"], "m60");
    EXPECT_EQ(recall.call("conversation", {{"id", "th-long"}, {"limit", 1000}}, "ann")
                  .json()["messages"]
                  .size(),
              60u);
    EXPECT_EQ(recall.call("conversation", {{"id", "th-long"}, {"limit", 0}}, "ann").body,
              "limit: must be at least 1");
    EXPECT_EQ(recall.call("conversation", {{"id", "th-long"}, {"limit", 1001}}, "ann").body,
              "limit: must be at most 1000");
}

TEST_F(RecallTest, AnotherAccountsConversationIs404) {
    Reply r = recall.call("conversation", {{"id", "th-long"}}, "bob");
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(r.body, "thread: no such conversation");
    EXPECT_EQ(recall.call("conversation", json::object(), "ann").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(recall.call("list", json::object(), "bob").json()["conversations"].empty());
}

TEST_F(RecallTest, ListsByClientMostRecentFirst) {
    Reply all = recall.call("list", json::object(), "ann");
    ASSERT_EQ(all.code, PLATFORM_OK) << all.body;
    ASSERT_EQ(all.json()["conversations"].size(), 2u);
    EXPECT_EQ(all.json()["conversations"][0]["id"], "th-cli");
    EXPECT_EQ(agent.calls.back().request, (json{{"limit", 20}}));

    Reply cli = recall.call("list", {{"client", "cli"}, {"limit", 5}}, "ann");
    ASSERT_EQ(cli.code, PLATFORM_OK) << cli.body;
    EXPECT_EQ(agent.calls.back().request, (json{{"limit", 5}, {"channel", "cli"}}));
    ASSERT_EQ(cli.json()["conversations"].size(), 1u);
    const json c = cli.json()["conversations"][0];
    EXPECT_EQ(c["channel"], "cli");
    for (const char* key :
         {"id", "title", "channel", "agent", "created", "updated", "messages", "last"})
        EXPECT_TRUE(c.contains(key)) << key;

    EXPECT_EQ(recall.call("list", {{"client", "fax"}}, "ann").body,
              "client: must be one of web, mail, cli");
    EXPECT_EQ(recall.call("list", {{"limit", 0}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(recall.call("list", {{"limit", 101}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
}

}  // namespace
