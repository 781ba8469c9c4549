// The chat plugin's @agent answerer (plugins/chat/agent_reply.hpp) through the fake host
// (chat_fixture.hpp): who is asked, as whom, with what, and what the room shows.
#include <string>

#include "chat_fixture.hpp"

namespace {

using namespace chat_test;

class AgentReplyTest : public ChatTest {};

TEST_F(AgentReplyTest, AnswersInTheRoomAsTheSender) {
    ASSERT_EQ(send("ann", "lobby", "@agent what is up?").code, PLATFORM_OK);
    ASSERT_TRUE(events_reach("chat:room:lobby", 2));
    const json all = messages("bob", "lobby").at("messages");
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[1].at("from"), "assistant");
    EXPECT_EQ(all[1].at("agent"), true);
    EXPECT_EQ(all[1].at("text"), "answer to what is up?");
    {
        std::lock_guard<std::mutex> g(m);
        ASSERT_EQ(runs.size(), 1u);
        EXPECT_EQ(runs[0].at("account"), "ann");
        EXPECT_EQ(runs[0].at("request"), (json{{"prompt", "what is up?"},
                                               {"agent", "assistant"},
                                               {"channel", "web"},
                                               {"read_only", true},
                                               {"deliver", false}}));
    }
    ASSERT_EQ(send("bob", kTeam, "@helper, sum it up").code, PLATFORM_OK);
    ASSERT_TRUE(events_reach("chat:room:" + kTeam, 2));
    EXPECT_EQ(messages("ann", kTeam).at("messages")[1].at("from"), "helper");
    // Not agents: a mention of someone else, an unknown name, a mention later in the text.
    for (const char* text : {"@bob hi", "@nobody hi", "hi @agent"})
        ASSERT_EQ(send("ann", "quiet", text).code, PLATFORM_OK);
    ASSERT_EQ(send("ann", "quiet", "@agent last").code, PLATFORM_OK);
    ASSERT_TRUE(events_reach("chat:room:quiet", 5));
    std::lock_guard<std::mutex> g(m);
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[2].at("request").at("prompt"), "last");
}

TEST_F(AgentReplyTest, GrantsAreRevokedAndFailuresSaidInTheRoom) {
    host.on_call = [this](const std::string& service, const std::string& method, const json& req,
                          const std::string& account) {
        if (method == "run") return reply(PLATFORM_PAYMENT_REQUIRED, "needs 1 credit");
        return answer(service, method, req, account);
    };
    {
        FakePlugin own = host.load(platform_plugin_entry);  // stopped at the end of the scope
        ASSERT_EQ(own.call("send", {{"room", "lobby"}, {"message", "@agent hi"}}, "ann").code,
                  PLATFORM_OK);
        ASSERT_TRUE(events_reach("chat:room:lobby", 2));
        const json said = messages("ann", "lobby").at("messages")[1];
        EXPECT_EQ(said.at("from"), "assistant");
        EXPECT_EQ(said.at("agent"), true);
        EXPECT_EQ(said.at("text"), "I could not answer: needs 1 credit");
    }
    std::lock_guard<std::mutex> g(host.grants_mutex);
    EXPECT_EQ(host.grant_ids, 1u);
    EXPECT_TRUE(host.grants.empty());
}

}  // namespace
