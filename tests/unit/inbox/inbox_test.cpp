// The inbox plugin (plugins/inbox) through the fake host, over a stand-in for the agent's
// internal endpoints (fake_agent.hpp): what each method asks the agent for (as the caller), the
// shapes it answers with, its limits, and the agent's errors passed on (404 for a thread that is
// not the caller's, 503 without an agent service).
#include <gtest/gtest.h>

#include "fake_agent.hpp"

namespace {

using namespace inbox_test;

class InboxTest : public ::testing::Test {
protected:
    InboxTest() {
        agent.add("ann", "th-web", "web", 2, 1);
        agent.add("ann", "th-cli", "cli", 4, 1);  // the most recent
        host.on_call = [this](const std::string& s, const std::string& m, const json& req,
                              const std::string& who) { return agent(s, m, req, who); };
    }
    FakeAgent agent;
    FakeHost host;
    FakePlugin inbox = host.load(platform_plugin_entry);
};

TEST_F(InboxTest, ListsItemsAsTheCallerMostRecentFirst) {
    Reply r = inbox.call("list", json::object(), "ann");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    const json items = r.json()["items"];
    ASSERT_EQ(items.size(), 2u) << r.body;
    EXPECT_EQ(items[0], (json{{"id", "th-cli"},
                              {"title", "about th-cli"},
                              {"channel", "cli"},
                              {"unread", 1},
                              {"updated", "2026-01-01T00:01:00Z"},
                              {"last",
                               {{"role", "assistant"},
                                {"text", "m4"},
                                {"at", "2026-01-01T00:01:00Z"},
                                {"channel", "cli"}}}}));
    EXPECT_EQ(items[1]["id"], "th-web");
    ASSERT_EQ(agent.calls.size(), 1u);
    EXPECT_EQ(agent.calls[0].service, "agent");
    EXPECT_EQ(agent.calls[0].method, "threads");
    EXPECT_EQ(agent.calls[0].account, "ann");  // as the caller
    EXPECT_EQ(agent.calls[0].request, (json{{"limit", 20}}));
    EXPECT_EQ(inbox.call("list", {{"limit", 1}}, "ann").json()["items"].size(), 1u);
    EXPECT_TRUE(inbox.call("list", json::object(), "bob").json()["items"].empty());
    EXPECT_EQ(agent.find("ann", "th-cli")->at("unread"), 1);  // listing marks nothing read
}

TEST_F(InboxTest, LimitsAre1To100) {
    EXPECT_EQ(inbox.call("list", {{"limit", 0}}, "ann").body, "limit: must be at least 1");
    EXPECT_EQ(inbox.call("list", {{"limit", 101}}, "ann").body, "limit: must be at most 100");
    EXPECT_EQ(inbox.call("read", {{"id", "th-web"}, {"limit", 0}}, "ann").code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(inbox.call("read", {{"id", "th-web"}, {"limit", 101}}, "ann").code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(inbox.call("read", json::object(), "ann").body, "id: is required");
    EXPECT_EQ(inbox.call("list", {{"limit", 100}}, "ann").code, PLATFORM_OK);
    EXPECT_EQ(agent.calls.size(), 1u);  // refused before the agent
}

TEST_F(InboxTest, ReadsTheLatestMessagesWithoutMarkingRead) {
    Reply r = inbox.call("read", {{"id", "th-cli"}, {"limit", 3}}, "ann");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    const json out = r.json();
    EXPECT_EQ(out["id"], "th-cli");
    EXPECT_EQ(out["unread"], 1);
    ASSERT_EQ(out["messages"].size(), 3u) << r.body;
    EXPECT_EQ(out["messages"][0], (json{{"seq", 2},
                                        {"role", "assistant"},
                                        {"text", "m2"},
                                        {"at", "2026-01-01T00:00:00Z"},
                                        {"channel", "cli"},
                                        {"agent", "assistant"}}));
    EXPECT_EQ(out["messages"][2]["text"], "m4");
    EXPECT_EQ(agent.calls.back().request, (json{{"id", "th-cli"}, {"limit", 3}}));
    inbox.call("read", {{"id", "th-cli"}}, "ann");
    EXPECT_EQ(agent.calls.back().request, (json{{"id", "th-cli"}, {"limit", 20}}));
    for (const auto& c : agent.calls) EXPECT_NE(c.method, "mark");
}

TEST_F(InboxTest, MarksReadAndUnread) {
    Reply read = inbox.call("mark_read", {{"id", "th-web"}}, "ann");
    ASSERT_EQ(read.code, PLATFORM_OK) << read.body;
    EXPECT_EQ(read.json()["unread"], 0);
    EXPECT_EQ(read.json()["id"], "th-web");
    EXPECT_EQ(agent.calls.back().request, (json{{"id", "th-web"}, {"unread", false}}));
    Reply unread = inbox.call("mark_unread", {{"id", "th-web"}}, "ann");
    EXPECT_EQ(unread.json()["unread"], 1);
    EXPECT_EQ(agent.calls.back().request, (json{{"id", "th-web"}, {"unread", true}}));
}

TEST_F(InboxTest, AnotherAccountsThreadIs404OnEveryMethod) {
    for (const char* method : {"read", "mark_read", "mark_unread"}) {
        Reply r = inbox.call(method, {{"id", "th-web"}}, "bob");
        EXPECT_EQ(r.code, PLATFORM_NOT_FOUND) << method;
        EXPECT_EQ(r.body, "thread: no such conversation") << method;
        EXPECT_EQ(inbox.call(method, {{"id", "th-none"}}, "ann").code, PLATFORM_NOT_FOUND)
            << method;
    }
    EXPECT_EQ(agent.find("ann", "th-web")->at("unread"), 1);
}

TEST_F(InboxTest, WithoutTheAgentServiceIs503) {
    agent.loaded = false;
    Reply r = inbox.call("list", json::object(), "ann");
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_NE(r.body.find("agent"), std::string::npos) << r.body;
}

TEST_F(InboxTest, ReadIsAlsoGetInboxSlashId) {
    const auto* d = inbox.descriptor();
    bool found = false;
    for (uint32_t i = 0; i < d->endpoint_count; ++i) {
        auto* e = reinterpret_cast<const platform_endpoint_t*>(
            reinterpret_cast<const char*>(d->endpoints) + i * d->endpoint_stride);
        if (platform::view(e->name) != "read") continue;
        found = true;
        EXPECT_EQ(platform::view(e->http_path), "/inbox/{id}");
        EXPECT_EQ(e->verb, PLATFORM_VERB_GET);
        EXPECT_EQ(e->access, PLATFORM_ACCESS_ACCOUNT);
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(platform::view(d->service), "v1.inbox");
}

}  // namespace
