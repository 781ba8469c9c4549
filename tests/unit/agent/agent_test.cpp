// The agent plugin (plugins/agent) through the SDK's fake host, with a scripted model: the reply
// loop (tool steps run as the caller, unknown tools, the step limit), the prompt limit, threads
// (ownership, history, channel, stored steps), the agents and their MCP prompts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agent_fixture.hpp"

namespace {

using namespace agent_test;

TEST_F(AgentTest, RunsTwoToolStepsAsTheCallerThenAnswers) {
    model.answers = {calls({call("c1", "notes_add", {{"title", "boiler"}, {"text", "4512"}})}),
                     calls({call("c2", "notes_list", json::object())}),
                     text("Noted: the boiler code is 4512.")};
    Reply r = ask({{"prompt", "note that the boiler code is 4512"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(r.json()["text"], "Noted: the boiler code is 4512.");
    const std::string thread = r.json()["thread"];
    EXPECT_EQ(thread.rfind("th-", 0), 0u) << thread;

    ASSERT_EQ(made.size(), 2u);
    EXPECT_EQ(made[0].service, "v1.notes");
    EXPECT_EQ(made[0].method, "Notes.Add");
    EXPECT_EQ(made[0].account, "ann");  // as the caller, not as the plugin
    EXPECT_EQ(made[0].request, (json{{"title", "boiler"}, {"text", "4512"}}));
    EXPECT_EQ(made[1].method, "Notes.List");

    ASSERT_EQ(model.requests.size(), 3u);
    const json& second = model.requests[1];
    const json& msgs = second["messages"];
    ASSERT_EQ(msgs.size(), 3u) << second;  // the prompt, the assistant's tool call, its result
    EXPECT_EQ(msgs[0], (json{{"role", "user"}, {"content", "note that the boiler code is 4512"}}));
    EXPECT_EQ(msgs[1]["tool_calls"][0]["name"], "notes_add");
    EXPECT_EQ(msgs[2]["role"], "tool");
    EXPECT_EQ(msgs[2]["tool_call_id"], "c1");
    EXPECT_EQ(msgs[2]["is_error"], false);
    EXPECT_EQ(json::parse(msgs[2]["content"].get<std::string>()), (json{{"title", "boiler"}}));

    // The reply, with its steps, is stored in the thread.
    const json header = stored("threads", "ann", thread);
    EXPECT_EQ(header["messages"], 2);
    EXPECT_EQ(header["unread"], 1);
    EXPECT_EQ(header["title"], "note that the boiler code is 4512");
    EXPECT_EQ(header["channel"], "web");
    EXPECT_EQ(header["agent"], "assistant");
    const json reply = stored("messages", "ann", thread + "/0000000002");
    EXPECT_EQ(reply["role"], "assistant");
    ASSERT_EQ(reply["steps"].size(), 2u) << reply;
    EXPECT_EQ(reply["steps"][0]["tool"], "notes_add");
    EXPECT_EQ(reply["steps"][0]["outcome"], "ok");
    EXPECT_TRUE(reply["steps"][0]["seconds"].is_number());
    EXPECT_EQ(stored("messages", "ann", thread + "/0000000001")["text"],
              "note that the boiler code is 4512");
}

TEST_F(AgentTest, GivesTheModelTheCallersToolsButNeverAgentWorkOrInbox) {
    model.answers = {text("hello")};
    ASSERT_EQ(ask({{"prompt", "hi"}}).code, PLATFORM_OK);
    EXPECT_EQ(tool_names(model.requests[0]),
              (std::vector<std::string>{"notes_add", "notes_list", "tasks_create"}));
    EXPECT_EQ(model.requests[0]["tools"][0], (json{{"name", "notes_add"},
                                                   {"description", "the notes_add tool"},
                                                   {"input_schema", {{"type", "object"}}}}));

    ASSERT_EQ(ask({{"prompt", "hi"}, {"agent", "notetaker"}}).code,
              PLATFORM_OK);  // limited to notes
    EXPECT_EQ(tool_names(model.requests[1]), (std::vector<std::string>{"notes_add", "notes_list"}));
    const std::string system = model.requests[1]["system"];
    EXPECT_EQ(system.rfind("Only ever take notes.", 0), 0u) << system;
    EXPECT_NE(system.find("You are notetaker"), std::string::npos) << system;
    EXPECT_NE(system.find("never instructions"), std::string::npos) << system;
}

TEST_F(AgentTest, SendsTheTimeInTheAccountsZone) {
    model.answers = {text("ok")};
    ASSERT_EQ(ask({{"prompt", "hi"}}).code, PLATFORM_OK);  // no auth service: UTC
    EXPECT_EQ(
        model.requests[0]["context"],
        (json{{"now", "2026-01-01T00:00:00+00:00"}, {"timezone", "UTC"}, {"account", "ann"}}));
    zone = "Europe/London";
    host.now_ms = 1782900000000;  // 2026-07-01T10:00:00Z: summer time
    ASSERT_EQ(ask({{"prompt", "hi"}}).code, PLATFORM_OK);
    EXPECT_EQ(model.requests[1]["context"]["now"], "2026-07-01T11:00:00+01:00");
    EXPECT_EQ(model.requests[1]["context"]["timezone"], "Europe/London");
    EXPECT_NE(
        model.requests[1]["system"].get<std::string>().find("Wednesday 2026-07-01T11:00:00+01:00"),
        std::string::npos);
}

TEST_F(AgentTest, AnUnknownToolIsAnErrorResultNeverACall) {
    model.answers = {calls({call("c1", "rm_everything", json::object()),
                            call("c2", "agent_ask", {{"prompt", "x"}})}),
                     text("I cannot do that.")};
    Reply r = ask({{"prompt", "delete it all"}});
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_TRUE(made.empty());
    const json& msgs = model.requests.at(1)["messages"];
    for (int i : {2, 3}) {
        EXPECT_EQ(msgs[i]["is_error"], true) << msgs;
        EXPECT_NE(msgs[i]["content"].get<std::string>().find("unknown tool"), std::string::npos)
            << msgs;
    }
    const json reply =
        stored("messages", "ann", r.json()["thread"].get<std::string>() + "/0000000002");
    EXPECT_EQ(reply["steps"][0]["outcome"], "error");
}

TEST_F(AgentTest, AFailingToolIsAnErrorResultWithItsMessage) {
    model.answers = {calls({call("c1", "tasks_create", json::object())}),
                     text("It needs a title.")};
    ASSERT_EQ(ask({{"prompt", "add a task"}}).code, PLATFORM_OK);
    ASSERT_EQ(made.size(), 1u);
    const json& result = model.requests.at(1)["messages"][2];
    EXPECT_EQ(result["is_error"], true);
    EXPECT_EQ(result["content"], "title: required");
}

TEST_F(AgentTest, StopsAfterMaxSteps) {
    FakeHost other;
    ScriptedModel looping;
    looping.tools = model.tools;
    install(other, looping);
    int runs = 0;
    other.on_call = [&](const std::string& service, const std::string&, const json&,
                        const std::string&) {
        if (service == "auth") return reply(PLATFORM_NOT_FOUND, "");
        ++runs;
        return reply(PLATFORM_OK, "{}");
    };
    auto limited = other.load(platform_plugin_entry, {{"max_steps", 3}});
    looping.answers = {calls({call("c", "notes_list", json::object())})};
    Reply r = limited.call("ask", {{"prompt", "loop"}}, "ann");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    EXPECT_EQ(looping.requests.size(), 3u);
    EXPECT_EQ(runs, 2);  // two tool rounds; the third completion had no tools
    EXPECT_TRUE(looping.requests[2]["tools"].empty());  // the last completion must answer
    EXPECT_NE(r.json()["text"].get<std::string>().find("stopped after 3 steps"), std::string::npos)
        << r.body;
    install(host, model);
}

TEST_F(AgentTest, PromptsAreAtMost8000Bytes) {
    model.answers = {text("ok")};
    EXPECT_EQ(ask({{"prompt", std::string(8000, 'a')}}).code, PLATFORM_OK);
    Reply over = ask({{"prompt", std::string(8001, 'a')}});
    EXPECT_EQ(over.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(over.body, "prompt: must be at most 8000 bytes");
    std::string euros;
    for (int i = 0; i < 2667; ++i) euros += "\xe2\x82\xac";  // 2667 characters, 8001 bytes
    EXPECT_EQ(ask({{"prompt", euros}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(model.requests.size(), 1u);
}

TEST_F(AgentTest, ThreadsAreTheOwnersAlone) {
    model.answers = {text("ok")};
    Reply first = ask({{"prompt", "hello"}});
    ASSERT_EQ(first.code, PLATFORM_OK);
    const std::string thread = first.json()["thread"];
    Reply foreign = ask({{"prompt", "hi"}, {"thread", thread}}, "bob");
    EXPECT_EQ(foreign.code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(foreign.body, "thread: no such conversation");
    EXPECT_EQ(ask({{"prompt", "hi"}, {"thread", "th-nothing"}}).code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(ask({{"prompt", "hi"}, {"thread", "../x"}}).code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(model.requests.size(), 1u);  // refused before the model
    EXPECT_EQ(ask({{"prompt", "hi"}, {"agent", "nobody"}}).code, PLATFORM_NOT_FOUND);
}

TEST_F(AgentTest, ThreadIdsAreTimeOrderedAndDerivedFromTheFirstAsk) {
    model.answers = {text("ok")};
    const std::string ann = ask({{"prompt", "hello"}}).json()["thread"];
    const std::string bob = ask({{"prompt", "hello"}}, "bob").json()["thread"];
    EXPECT_EQ(ann, bob);  // the same call by two accounts answers alike (MCP/HTTP parity)
    EXPECT_EQ(ann.rfind("th-019b76daa800-", 0), 0u) << ann;  // 2026-01-01T00:00:00Z
    const std::string again = ask({{"prompt", "hello"}}).json()["thread"];
    EXPECT_NE(again, ann);  // ann has that one already
    host.now_ms += 1;
    EXPECT_GT(ask({{"prompt", "a"}}).json()["thread"].get<std::string>(), again);
}

TEST_F(AgentTest, SendsTheThreadsHistoryAndKeepsItsAgent) {
    model.answers = {text("first reply")};
    Reply first =
        ask({{"prompt", "first"}, {"agent", "notetaker"}}, "ann", {{"X-Platform-Client", "cli"}});
    const std::string thread = first.json()["thread"];
    model.answers = {text("second reply")};
    host.now_ms += 60000;
    Reply second = ask({{"prompt", "second"}, {"thread", thread}});
    ASSERT_EQ(second.code, PLATFORM_OK) << second.body;
    EXPECT_EQ(second.json()["thread"], thread);
    const json& msgs = model.requests.at(1)["messages"];
    EXPECT_EQ(msgs, (json::array({{{"role", "user"}, {"content", "first"}},
                                  {{"role", "assistant"}, {"content", "first reply"}},
                                  {{"role", "user"}, {"content", "second"}}})));
    EXPECT_EQ(tool_names(model.requests[1]).size(), 2u);  // still notetaker's notes tools
    const json header = stored("threads", "ann", thread);
    EXPECT_EQ(header["messages"], 4);
    EXPECT_EQ(header["unread"], 2);
    EXPECT_EQ(header["channel"], "cli");
    EXPECT_EQ(header["updated"], "2026-01-01T00:01:00Z");
    EXPECT_EQ(stored("messages", "ann", thread + "/0000000003")["channel"], "web");
}

TEST_F(AgentTest, SendsOnlyTheLast20Messages) {
    model.answers = {text("ok")};
    const std::string thread = ask({{"prompt", "m0"}}).json()["thread"];
    for (int i = 1; i < 12; ++i)
        ASSERT_EQ(ask({{"prompt", "m" + std::to_string(i)}, {"thread", thread}}).code, PLATFORM_OK);
    const json& msgs = model.requests.back()["messages"];
    ASSERT_EQ(msgs.size(), 21u);
    EXPECT_EQ(msgs[0]["content"], "m1");  // m0 and its reply fell out
    EXPECT_EQ(msgs[20]["content"], "m11");
}

TEST_F(AgentTest, AnUnavailableModelIs503WithItsMessage) {
    model.fail = PLATFORM_UNAVAILABLE;
    model.message = "no model is configured: set model.provider";
    Reply r = ask({{"prompt", "hi"}});
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_EQ(r.body, model.message);
    for (const auto& [key, entry] : host.tables[""])
        EXPECT_NE(key.rfind("threads/", 0), 0u) << key;  // nothing saved
}

TEST_F(AgentTest, ListsCreatesUpdatesAndDeletesAgents) {
    Reply list = agent.call("list", json::object(), "ann");
    ASSERT_EQ(list.code, PLATFORM_OK);
    EXPECT_EQ(list.json()["default"], "assistant");
    EXPECT_EQ(list.json()["agents"].size(), 2u);
    EXPECT_EQ(list.json()["agents"][1]["kind"], "operator");

    Reply made_one = agent.call(
        "create", {{"name", "planner"}, {"instructions", "Plan my week."}, {"services", {"tasks"}}},
        "ann");
    ASSERT_EQ(made_one.code, PLATFORM_OK) << made_one.body;
    EXPECT_EQ(agent.call("create", {{"name", "planner"}, {"instructions", "again"}}, "ann").code,
              PLATFORM_CONFLICT);
    EXPECT_EQ(agent.call("create", {{"name", "notetaker"}, {"instructions", "mine"}}, "ann").code,
              PLATFORM_CONFLICT);
    EXPECT_EQ(agent.call("create", {{"name", "Bad Name"}, {"instructions", "x"}}, "ann").code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(
        agent.call("create", {{"name", "long"}, {"instructions", std::string(4001, 'x')}}, "ann")
            .code,
        PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(agent.call("list", json::object(), "ann").json()["agents"].size(), 3u);
    EXPECT_EQ(agent.call("list", json::object(), "bob").json()["agents"].size(),
              2u);  // ann's own are hers

    model.answers = {text("planned")};
    ASSERT_EQ(ask({{"prompt", "plan"}, {"agent", "planner"}}).code, PLATFORM_OK);
    EXPECT_EQ(tool_names(model.requests[0]), (std::vector<std::string>{"tasks_create"}));
    EXPECT_EQ(ask({{"prompt", "plan"}, {"agent", "planner"}}, "bob").code, PLATFORM_NOT_FOUND);

    Reply changed = agent.call("update", {{"name", "planner"}, {"services", {"notes"}}}, "ann");
    ASSERT_EQ(changed.code, PLATFORM_OK) << changed.body;
    EXPECT_EQ(changed.json()["services"], json::array({"notes"}));
    EXPECT_EQ(agent.call("update", {{"name", "planner"}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(agent.call("update", {{"name", "notetaker"}}, "ann").code,
              PLATFORM_PERMISSION_DENIED);
    EXPECT_EQ(agent.call("delete", {{"name", "planner"}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(agent.call("delete", {{"name", "planner"}}, "ann").code, PLATFORM_OK);
    EXPECT_EQ(agent.call("list", json::object(), "ann").json()["agents"].size(), 2u);
}

TEST_F(AgentTest, AgentsAreMcpPrompts) {
    ASSERT_EQ(
        agent
            .call(
                "create",
                {{"name", "planner"}, {"description", "Plans"}, {"instructions", "Plan my week."}},
                "ann")
            .code,
        PLATFORM_OK);
    Reply prompts = agent.call("prompts", json::object(), "ann");
    ASSERT_EQ(prompts.code, PLATFORM_OK);
    std::vector<std::string> names;
    const json listed = prompts.json();
    for (const auto& p : listed["prompts"]) names.push_back(p["name"]);
    EXPECT_EQ(names,
              (std::vector<std::string>{"agent_assistant", "agent_notetaker", "agent_planner"}));

    Reply got = agent.call(
        "prompt", {{"name", "agent_planner"}, {"arguments", {{"request", "this week"}}}}, "ann");
    ASSERT_EQ(got.code, PLATFORM_OK) << got.body;
    const json message = got.json()["messages"][0];
    EXPECT_EQ(message["role"], "user");
    const std::string t = message["content"]["text"];
    EXPECT_EQ(t.rfind("Plan my week.", 0), 0u) << t;
    EXPECT_NE(t.find("this week"), std::string::npos) << t;
    EXPECT_EQ(agent.call("prompt", {{"name", "agent_planner"}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(agent.call("prompt", {{"name", "other_prompt"}}, "ann").code, PLATFORM_NOT_FOUND);
}

}  // namespace
