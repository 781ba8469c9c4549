// agent/stream (plugins/agent, agent.cpp) through the SDK's fake host with a scripted model: one
// step chunk per tool call, in order, then the reply chunk; the same arguments, checks, errors and
// price as agent/ask (refusals come before any chunk, so the host answers them as plain errors);
// the thread is saved as an ask's.
#include <gtest/gtest.h>

#include <string>

#include "agent_fixture.hpp"

namespace {

using namespace agent_test;

std::vector<json> chunks_of(const Reply& r) {
    std::vector<json> out;
    for (const auto& c : r.chunks) out.push_back(json::parse(c));
    return out;
}

const platform_endpoint_t* endpoint_named(const platform_plugin_desc_t* desc,
                                          const std::string& name) {
    for (uint32_t i = 0; i < desc->endpoint_count; ++i) {
        auto* ep = reinterpret_cast<const platform_endpoint_t*>(
            reinterpret_cast<const char*>(desc->endpoints) + i * desc->endpoint_stride);
        if (platform::copy(ep->name) == name) return ep;
    }
    return nullptr;
}

TEST_F(AgentTest, StreamSendsEachStepThenTheReply) {
    model.answers = {calls({call("c1", "notes_add", {{"title", "boiler"}, {"text", "4512"}})}),
                     calls({call("c2", "tasks_create", json::object())}),
                     text("Noted; the task needs a title.")};
    Reply r =
        agent.call("stream", {{"prompt", "note the boiler code 4512 and make a task"}}, "ann");
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    const auto chunks = chunks_of(r);
    ASSERT_EQ(chunks.size(), 3u) << r.body;

    EXPECT_EQ(chunks[0]["type"], "step");
    EXPECT_EQ(chunks[0]["tool"], "notes_add");
    EXPECT_EQ(chunks[0]["arguments"], (json{{"title", "boiler"}, {"text", "4512"}}));
    EXPECT_EQ(chunks[0]["outcome"], "ok");
    EXPECT_TRUE(chunks[0]["seconds"].is_number());
    EXPECT_FALSE(chunks[0].contains("error"));
    EXPECT_EQ(chunks[1]["type"], "step");
    EXPECT_EQ(chunks[1]["tool"], "tasks_create");
    EXPECT_EQ(chunks[1]["outcome"], "error");
    EXPECT_EQ(chunks[1]["error"], "title: required");

    EXPECT_EQ(chunks[2]["type"], "reply");
    EXPECT_EQ(chunks[2]["text"], "Noted; the task needs a title.");
    const std::string thread = chunks[2]["thread"];
    EXPECT_EQ(chunks[2].size(), 3u) << chunks[2];

    // The tools ran as ann; the thread holds the prompt and the reply with the same steps.
    ASSERT_EQ(made.size(), 2u);
    EXPECT_EQ(made[0].account, "ann");
    const json header = stored("threads", "ann", thread);
    EXPECT_EQ(header["messages"], 2);
    EXPECT_EQ(header["unread"], 1);
    const json said = stored("messages", "ann", thread + "/0000000002");
    ASSERT_EQ(said["steps"].size(), 2u) << said;
    for (size_t i = 0; i < 2; ++i) {
        json step = chunks[i];
        step.erase("type");
        EXPECT_EQ(said["steps"][i], step);
    }

    // The thread carries on, through stream or ask alike.
    model.answers = {text("It is 4512.")};
    Reply next =
        agent.call("stream", {{"prompt", "what was the code?"}, {"thread", thread}}, "ann");
    ASSERT_EQ(next.code, PLATFORM_OK) << next.body;
    const auto more = chunks_of(next);
    ASSERT_EQ(more.size(), 1u) << next.body;  // no tool call: the reply alone
    EXPECT_EQ(more[0], (json{{"type", "reply"}, {"text", "It is 4512."}, {"thread", thread}}));
    EXPECT_EQ(stored("threads", "ann", thread)["messages"], 4);
    EXPECT_EQ(ask({{"prompt", "and now?"}, {"thread", thread}}).json()["thread"], thread);
}

TEST_F(AgentTest, StreamRefusesWhatAskRefusesBeforeAnyChunk) {
    model.answers = {text("ok")};
    const std::string thread = ask({{"prompt", "hello"}}).json()["thread"];
    const size_t asked = model.requests.size();

    Reply foreign = agent.call("stream", {{"prompt", "hi"}, {"thread", thread}}, "bob");
    EXPECT_EQ(foreign.code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(foreign.body, "thread: no such conversation");
    EXPECT_TRUE(foreign.chunks.empty());
    Reply nobody = agent.call("stream", {{"prompt", "hi"}, {"agent", "nobody"}}, "ann");
    EXPECT_EQ(nobody.code, PLATFORM_NOT_FOUND);
    EXPECT_TRUE(nobody.chunks.empty());
    Reply over = agent.call("stream", {{"prompt", std::string(8001, 'a')}}, "ann");
    EXPECT_EQ(over.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(over.body, "prompt: must be at most 8000 bytes");
    Reply empty = agent.call("stream", {{"prompt", ""}}, "ann");
    EXPECT_EQ(empty.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(empty.body.find("prompt"), std::string::npos) << empty.body;
    EXPECT_EQ(agent.call("stream", json::object(), "ann").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(agent.call("stream", {{"prompt", "hi"}}, "").code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(model.requests.size(), asked);  // all refused before the model

    model.fail = PLATFORM_UNAVAILABLE;
    model.message = "no model is configured: set model.provider";
    Reply down = agent.call("stream", {{"prompt", "hi again"}}, "ann");
    EXPECT_EQ(down.code, PLATFORM_UNAVAILABLE);
    EXPECT_EQ(down.body, model.message);
    EXPECT_TRUE(down.chunks.empty());
    EXPECT_EQ(keys("threads/").size(), 1u);  // only the first ask's thread: nothing saved
}

TEST_F(AgentTest, StreamTakesAsksArgumentsAndPrice) {
    const auto* desc = agent.descriptor();
    const auto* ask_ep = endpoint_named(desc, "ask");
    const auto* stream_ep = endpoint_named(desc, "stream");
    ASSERT_NE(ask_ep, nullptr);
    ASSERT_NE(stream_ep, nullptr);
    EXPECT_EQ(platform::copy(stream_ep->input_schema), platform::copy(ask_ep->input_schema));
    EXPECT_TRUE(stream_ep->flags & PLATFORM_FLAG_STREAMING);
    EXPECT_TRUE(stream_ep->flags & PLATFORM_FLAG_METERED);
    EXPECT_EQ(stream_ep->price, ask_ep->price);
    EXPECT_EQ(stream_ep->access, ask_ep->access);
    EXPECT_EQ(stream_ep->max_body_bytes, ask_ep->max_body_bytes);
}

}  // namespace
