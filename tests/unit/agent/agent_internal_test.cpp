// The agent's internal endpoints (agent_internal.cpp) through the fake host: run (the reply loop
// with channel, title, read-only tools and delivery), post, threads, messages and mark — each
// owner-scoped (another account's or an unknown thread is 404) and with its limits checked.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agent_fixture.hpp"

namespace {

using namespace agent_test;

class AgentInternal : public AgentTest {
protected:
    Reply run(const json& args, const std::string& who = "ann") {
        return agent.call("run", args, who);
    }
    // A new thread of ann's begun with `prompt` on `channel`, one minute after the previous one.
    std::string begin(const std::string& prompt, const std::string& channel = "web") {
        host.now_ms += 60000;
        Reply r = run({{"prompt", prompt}, {"channel", channel}});
        EXPECT_EQ(r.code, PLATFORM_OK) << r.body;
        return r.json()["thread"];
    }
    std::vector<std::string> ids(const json& threads) {
        std::vector<std::string> out;
        for (const auto& t : threads.at("threads")) out.push_back(t.at("id"));
        return out;
    }
};

const platform_endpoint_t* endpoint(const platform_plugin_desc_t* d, const std::string& name) {
    for (uint32_t i = 0; i < d->endpoint_count; ++i) {
        auto* e = reinterpret_cast<const platform_endpoint_t*>(
            reinterpret_cast<const char*>(d->endpoints) + i * d->endpoint_stride);
        if (platform::view(e->name) == name) return e;
    }
    return nullptr;
}

TEST_F(AgentInternal, TheFiveAreInternalAndRunIsMeteredLikeAsk) {
    for (const char* name : {"run", "post", "threads", "messages", "mark"}) {
        const auto* e = endpoint(agent.descriptor(), name);
        ASSERT_NE(e, nullptr) << name;
        EXPECT_TRUE(e->flags & PLATFORM_FLAG_INTERNAL) << name;
        EXPECT_EQ(e->access, PLATFORM_ACCESS_ACCOUNT) << name;
    }
    const auto* run = endpoint(agent.descriptor(), "run");
    EXPECT_TRUE(run->flags & PLATFORM_FLAG_METERED);
    EXPECT_EQ(run->price, 1u);
    EXPECT_EQ(run->verb, PLATFORM_VERB_POST);
    EXPECT_TRUE(endpoint(agent.descriptor(), "threads")->flags & PLATFORM_FLAG_READ_ONLY);
    EXPECT_TRUE(endpoint(agent.descriptor(), "messages")->flags & PLATFORM_FLAG_READ_ONLY);
    EXPECT_FALSE(endpoint(agent.descriptor(), "post")->flags & PLATFORM_FLAG_METERED);
    EXPECT_FALSE(endpoint(agent.descriptor(), "ask")->flags & PLATFORM_FLAG_INTERNAL);
}

TEST_F(AgentInternal, RunAnswersStepsAndModelAndSavesOnItsChannel) {
    model.answers = {calls({call("c1", "notes_add", {{"title", "boiler"}})}), text("Done.")};
    // The header X-Platform-Client is ask's; run takes `channel` from its arguments.
    Reply r = agent.call(
        "run", {{"prompt", "note the boiler"}, {"channel", "mail"}, {"title", "Morning\nreport"}},
        "ann", {{"X-Platform-Client", "cli"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    const json out = r.json();
    EXPECT_EQ(out["text"], "Done.");
    EXPECT_EQ(out["model"], "scripted");
    ASSERT_EQ(out["steps"].size(), 1u) << out;
    EXPECT_EQ(out["steps"][0]["tool"], "notes_add");
    EXPECT_EQ(out["steps"][0]["outcome"], "ok");
    EXPECT_EQ(made.at(0).account, "ann");
    const json header = stored("threads", "ann", out["thread"].get<std::string>());
    EXPECT_EQ(header["channel"], "mail");
    EXPECT_EQ(header["title"], "Morning");  // a title's first line
    EXPECT_EQ(header["unread"], 1);
    EXPECT_EQ(header["messages"], 2);
    EXPECT_EQ(stored("messages", "ann", out["thread"].get<std::string>() + "/0000000002")["steps"],
              out["steps"]);

    Reply plain =
        run({{"prompt", "hello there"}});  // no channel: web; no title: the prompt's first line
    const json again = stored("threads", "ann", plain.json()["thread"].get<std::string>());
    EXPECT_EQ(again["channel"], "web");
    EXPECT_EQ(again["title"], "hello there");
}

TEST_F(AgentInternal, RunRefusesForeignAndUnknownThreadsBeforeTheModel) {
    model.answers = {text("ok")};
    const std::string thread = begin("hello");
    EXPECT_EQ(run({{"prompt", "hi"}, {"thread", thread}}).code, PLATFORM_OK);
    Reply foreign = run({{"prompt", "hi"}, {"thread", thread}}, "bob");
    EXPECT_EQ(foreign.code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(foreign.body, "thread: no such conversation");
    EXPECT_EQ(run({{"prompt", "hi"}, {"thread", "th-nothing"}, {"deliver", false}}).code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(run({{"prompt", "hi"}, {"agent", "nobody"}}).code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(model.requests.size(), 2u);
    EXPECT_EQ(stored("threads", "ann", thread)["messages"], 4);
}

TEST_F(AgentInternal, RunWithoutDeliverySavesNothing) {
    model.answers = {text("a report")};
    Reply r = run({{"prompt", "prepare a report"}, {"deliver", false}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json()["text"], "a report");
    EXPECT_EQ(r.json()["thread"], "");
    EXPECT_TRUE(keys("threads/").empty());
    EXPECT_TRUE(keys("messages/").empty());
    EXPECT_TRUE(keys("recent/").empty());

    // With a thread: its history goes to the model, and the thread is left as it was.
    const std::string thread = begin("first");
    const json before = stored("threads", "ann", thread);
    host.now_ms += 60000;
    Reply quiet = run({{"prompt", "second"}, {"thread", thread}, {"deliver", false}});
    ASSERT_EQ(quiet.code, PLATFORM_OK) << quiet.body;
    EXPECT_EQ(quiet.json()["thread"], thread);
    EXPECT_EQ(model.requests.back()["messages"].size(), 3u);  // first, its reply, second
    EXPECT_EQ(stored("threads", "ann", thread), before);
    EXPECT_EQ(keys("messages/ann/" + thread).size(), 2u);
    EXPECT_EQ(keys("recent/").size(), 1u);
}

TEST_F(AgentInternal, RunReadOnlyGivesOnlyReadOnlyTools) {
    model.answers = {calls({call("c1", "notes_add", {{"title", "x"}}),
                            call("c2", "notes_list", json::object())}),
                     text("listed")};
    Reply r = run({{"prompt", "list my notes"}, {"read_only", true}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(tool_names(model.requests[0]),
              (std::vector<std::string>{"notes_list"}));  // annotations.readOnlyHint
    ASSERT_EQ(made.size(), 1u);  // notes_add was not offered, so it is never called
    EXPECT_EQ(made[0].method, "Notes.List");
    EXPECT_EQ(r.json()["steps"][0]["outcome"], "error");
    EXPECT_EQ(r.json()["steps"][1]["outcome"], "ok");

    ASSERT_EQ(run({{"prompt", "list my notes"}, {"read_only", false}}).code, PLATFORM_OK);
    EXPECT_EQ(tool_names(model.requests.back()).size(), 3u);
}

TEST_F(AgentInternal, RunChecksItsArguments) {
    model.answers = {text("ok")};
    Reply big = run({{"prompt", std::string(8001, 'a')}});
    EXPECT_EQ(big.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(big.body, "prompt: must be at most 8000 bytes");
    Reply channel = run({{"prompt", "hi"}, {"channel", "sms"}});
    EXPECT_EQ(channel.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(channel.body, "channel: must be one of web, mail, cli");
    Reply deliver = run({{"prompt", "hi"}, {"deliver", "yes"}});
    EXPECT_EQ(deliver.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(deliver.body, "deliver: must be a boolean");
    EXPECT_EQ(run({{"prompt", "hi"}}, "").code, PLATFORM_UNAUTHENTICATED);
    EXPECT_TRUE(model.requests.empty());
}

TEST_F(AgentInternal, PostAppendsAnAssistantMessageWithoutTheModel) {
    Reply fresh =
        agent.call("post", {{"text", "Your report\nis ready"}, {"channel", "mail"}}, "ann");
    ASSERT_EQ(fresh.code, PLATFORM_OK) << fresh.body;
    const std::string thread = fresh.json()["thread"];
    EXPECT_EQ(fresh.json().size(), 1u);
    json header = stored("threads", "ann", thread);
    EXPECT_EQ(header["title"], "Your report");
    EXPECT_EQ(header["channel"], "mail");
    EXPECT_EQ(header["unread"], 1);
    EXPECT_EQ(header["messages"], 1);
    const json message = stored("messages", "ann", thread + "/0000000001");
    EXPECT_EQ(message["role"], "assistant");
    EXPECT_EQ(message["text"], "Your report\nis ready");

    Reply more = agent.call("post", {{"text", "and another"}, {"thread", thread}}, "ann");
    ASSERT_EQ(more.code, PLATFORM_OK) << more.body;
    EXPECT_EQ(more.json()["thread"], thread);
    header = stored("threads", "ann", thread);
    EXPECT_EQ(header["unread"], 2);
    EXPECT_EQ(header["last"]["text"], "and another");
    EXPECT_EQ(agent.call("post", {{"text", "x"}, {"title", "Titled"}}, "ann").code, PLATFORM_OK);

    EXPECT_EQ(agent.call("post", {{"text", "x"}, {"thread", thread}}, "bob").code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(agent.call("post", {{"text", "x"}, {"thread", "th-nothing"}}, "ann").code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(agent.call("post", {{"text", ""}}, "ann").body, "text: must be at least 1 character");
    EXPECT_EQ(agent.call("post", {{"text", std::string(100001, 'a')}}, "ann").code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(model.requests.empty());
}

TEST_F(AgentInternal, ThreadsListsMostRecentlyActiveFirst) {
    model.answers = {text("ok")};
    const std::string a = begin("a", "web"), b = begin("b", "cli"), c = begin("c", "mail");
    host.now_ms += 60000;
    ASSERT_EQ(run({{"prompt", "more"}, {"thread", a}}).code, PLATFORM_OK);  // a is the latest now

    Reply all = agent.call("threads", json::object(), "ann");
    ASSERT_EQ(all.code, PLATFORM_OK) << all.body;
    EXPECT_EQ(ids(all.json()), (std::vector<std::string>{a, c, b}));
    const json first = all.json()["threads"][0];
    EXPECT_EQ(first["unread"], 2);
    EXPECT_EQ(first["messages"], 4);
    EXPECT_EQ(first["last"]["role"], "assistant");
    EXPECT_FALSE(first.contains("updated_ms")) << first;
    EXPECT_EQ(ids(agent.call("threads", {{"limit", 2}}, "ann").json()),
              (std::vector<std::string>{a, c}));
    EXPECT_EQ(ids(agent.call("threads", {{"limit", 2}, {"offset", 1}}, "ann").json()),
              (std::vector<std::string>{c, b}));
    EXPECT_EQ(ids(agent.call("threads", {{"channel", "cli"}}, "ann").json()),
              (std::vector<std::string>{b}));
    EXPECT_TRUE(agent.call("threads", json::object(), "bob").json()["threads"].empty());

    EXPECT_EQ(agent.call("threads", {{"limit", 0}}, "ann").body, "limit: must be at least 1");
    EXPECT_EQ(agent.call("threads", {{"limit", 101}}, "ann").body, "limit: must be at most 100");
    EXPECT_EQ(agent.call("threads", {{"offset", -1}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(agent.call("threads", {{"channel", "fax"}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(AgentInternal, MessagesAreTheLatestOldestFirst) {
    model.answers = {text("r1"), text("r2")};
    const std::string thread = begin("m1");
    ASSERT_EQ(run({{"prompt", "m2"}, {"thread", thread}}).code, PLATFORM_OK);

    Reply latest = agent.call("messages", {{"id", thread}, {"limit", 3}}, "ann");
    ASSERT_EQ(latest.code, PLATFORM_OK) << latest.body;
    const json out = latest.json();
    EXPECT_EQ(out["thread"]["id"], thread);
    EXPECT_EQ(out["thread"]["unread"], 2);
    ASSERT_EQ(out["messages"].size(), 3u);
    EXPECT_EQ(out["messages"][0]["text"], "r1");
    EXPECT_EQ(out["messages"][1]["text"], "m2");
    EXPECT_EQ(out["messages"][2]["text"], "r2");
    EXPECT_EQ(out["messages"][2]["seq"], 4);
    EXPECT_FALSE(out["messages"][0].contains("at_ms"));
    EXPECT_EQ(agent.call("messages", {{"id", thread}}, "ann").json()["messages"].size(),
              4u);                                             // 0 = all
    EXPECT_EQ(stored("threads", "ann", thread)["unread"], 2);  // reading changes nothing

    Reply foreign = agent.call("messages", {{"id", thread}}, "bob");
    EXPECT_EQ(foreign.code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(foreign.body, "thread: no such conversation");
    EXPECT_EQ(agent.call("messages", {{"id", "th-nothing"}}, "ann").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(agent.call("messages", {{"id", thread}, {"limit", 1001}}, "ann").code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(agent.call("messages", {{"id", thread}, {"limit", -1}}, "ann").code,
              PLATFORM_INVALID_ARGUMENT);
}

TEST_F(AgentInternal, MarkSetsReadOrUnread) {
    model.answers = {text("ok")};
    const std::string thread = begin("hello");
    ASSERT_EQ(run({{"prompt", "again"}, {"thread", thread}}).code, PLATFORM_OK);
    Reply read = agent.call("mark", {{"id", thread}, {"unread", false}}, "ann");
    ASSERT_EQ(read.code, PLATFORM_OK) << read.body;
    EXPECT_EQ(read.json()["unread"], 0);
    EXPECT_EQ(read.json()["id"], thread);
    EXPECT_EQ(stored("threads", "ann", thread)["unread"], 0);
    EXPECT_EQ(agent.call("mark", {{"id", thread}, {"unread", true}}, "ann").json()["unread"], 1);
    EXPECT_EQ(stored("threads", "ann", thread)["unread"], 1);

    EXPECT_EQ(agent.call("mark", {{"id", thread}, {"unread", false}}, "bob").code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(agent.call("mark", {{"id", "th-nothing"}, {"unread", false}}, "ann").code,
              PLATFORM_NOT_FOUND);
    EXPECT_EQ(agent.call("mark", {{"id", thread}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(stored("threads", "ann", thread)["unread"], 1);
}

}  // namespace
