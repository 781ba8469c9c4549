// The chat plugin (plugins/chat/) through the fake host: rooms and their access rules (groups/read
// and groups/list answered by a scripted groups service), the stored messages, the sender's own
// index, the events published for live and the bridge, the live stream, and the @agent answerer
// (agent/list and agent/run answered by a scripted agent service).
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

struct Group {
    std::string name;
    bool encrypted = false;
    std::set<std::string> members, invited;
};

const std::string kTeam(32, 'a'), kSecret(32, 'b'), kNowhere(32, 'c');

class ChatTest : public ::testing::Test {
protected:
    ChatTest() {
        groups[kTeam] = {"team", false, {"ann", "bob"}, {"ivy"}};
        groups[kSecret] = {"secret", true, {"ann"}, {}};
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& req, const std::string& account) {
            return answer(service, method, req, account);
        };
    }

    Reply answer(const std::string& service, const std::string& method, const json& req,
                 const std::string& account) {
        std::lock_guard<std::mutex> g(m);
        if (service == "groups" && method == "read") {
            auto it = groups.find(req.value("id", ""));
            if (it == groups.end() ||
                (!it->second.members.count(account) && !it->second.invited.count(account)))
                return reply(PLATFORM_NOT_FOUND, "id: no group " + req.value("id", ""));
            if (!it->second.members.count(account))
                return reply(PLATFORM_PERMISSION_DENIED, "read: only members may read a group");
            return reply(PLATFORM_OK, json{{"id", it->first},
                                           {"name", it->second.name},
                                           {"encrypted", it->second.encrypted}}
                                          .dump());
        }
        if (service == "groups" && method == "list") {
            json mine = json::array();
            for (const auto& [id, grp] : groups)
                if (grp.members.count(account))
                    mine.push_back({{"id", id},
                                    {"name", grp.name},
                                    {"encrypted", grp.encrypted},
                                    {"role", "member"}});
            return reply(PLATFORM_OK,
                         json{{"groups", mine}, {"invitations", json::array()}}.dump());
        }
        if (service == "agent" && method == "list")
            return reply(
                PLATFORM_OK,
                R"({"agents":[{"name":"assistant"},{"name":"helper"}],"default":"assistant"})");
        if (service == "agent" && method == "run") {
            runs.push_back({{"account", account}, {"request", req}});
            return reply(
                PLATFORM_OK,
                json{{"text", "answer to " + req.value("prompt", "")}, {"thread", ""}}.dump());
        }
        return reply(PLATFORM_NOT_FOUND, "");
    }

    Reply send(const std::string& who, const std::string& room, const std::string& text) {
        return chat.call("send", {{"room", room}, {"message", text}}, who);
    }
    json messages(const std::string& who, const std::string& room) {
        return ok_json(chat.call("messages", {{"room", room}}, who), "messages " + room);
    }
    // Waits (on the fake host's event condition) until `topic` holds `n` events.
    bool events_reach(const std::string& topic, size_t n) {
        std::unique_lock<std::mutex> lock(host.events_mutex);
        return host.events_cv.wait_for(lock, std::chrono::seconds(10),
                                       [&] { return host.events[topic].size() >= n; });
    }

    std::mutex m;
    std::map<std::string, Group> groups;
    std::vector<json> runs;
    FakeHost host;
    FakePlugin chat = host.load(platform_plugin_entry, {{"live_idle_ms", 1000}});
};

TEST_F(ChatTest, PublicRoomIsSharedAndKeepsTheLast50InOrder) {
    const json sent = ok_json(send("ann", "lobby", "hello"));
    EXPECT_EQ(sent.at("room"), "lobby");
    EXPECT_EQ(sent.at("from"), "ann");
    EXPECT_EQ(sent.at("text"), "hello");
    EXPECT_EQ(sent.at("agent"), false);
    EXPECT_EQ(sent.at("at"), "2026-01-01T00:00:00Z");
    EXPECT_EQ(messages("bob", "lobby"), (json{{"room", "lobby"}, {"messages", {sent}}}));
    for (int i = 1; i <= 54; ++i)
        ASSERT_EQ(send("bob", "lobby", std::to_string(i)).code, PLATFORM_OK);
    const json last = messages("ann", "lobby").at("messages");
    ASSERT_EQ(last.size(), 50u);
    EXPECT_EQ(last.front().at("text"), "5");  // the same millisecond: kept in sending order
    EXPECT_EQ(last.back().at("text"), "54");
    EXPECT_EQ(messages("ann", "general").at("messages"), json::array());
    EXPECT_EQ(ok_json(chat.call("messages", json::object(), "ann")).at("room"), "general");
}

TEST_F(ChatTest, BadInputIsRefusedAndStoresNothing) {
    ASSERT_EQ(send("ann", "lobby", "kept").code, PLATFORM_OK);
    const std::vector<json> bad = {
        {{"room", "lobby"}, {"message", ""}},
        {{"room", "lobby"}, {"message", std::string(4001, 'x')}},
        {{"room", "Lobby"}, {"message", "x"}},
        {{"room", "lobby"}},
        {{"message", "x"}},
    };
    for (const json& args : bad) {
        Reply r = chat.call("send", args, "ann");
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << args;
    }
    EXPECT_EQ(send("ann", "lobby", std::string(4000, 'y')).code, PLATFORM_OK);
    std::string accents;  // 4000 characters in 8000 bytes
    for (int i = 0; i < 4000; ++i) accents += "\xC3\xA9";
    EXPECT_EQ(send("ann", "lobby", accents).code, PLATFORM_OK);
    EXPECT_EQ(messages("ann", "lobby").at("messages").size(), 3u);
    EXPECT_EQ(chat.call("messages", {{"room", "a b"}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(chat.call("send", {{"room", "lobby"}, {"message", "x"}}, "").code,
              PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(chat.call("messages", {{"room", "lobby"}}, "").code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(ChatTest, GroupRoomIsForMembersOnly) {
    const json sent = ok_json(send("ann", kTeam, "team only"));
    EXPECT_EQ(messages("bob", kTeam).at("messages"), json::array({sent}));
    Reply r = chat.call("messages", {{"room", kTeam}}, "stan");
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(r.body.find("room"), std::string::npos) << r.body;
    EXPECT_EQ(send("stan", kTeam, "x").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(chat.call("messages", {{"room", kTeam}}, "ivy").code, PLATFORM_PERMISSION_DENIED);
    EXPECT_EQ(send("ivy", kTeam, "x").code, PLATFORM_PERMISSION_DENIED);
    EXPECT_EQ(chat.call("live", {{"room", kTeam}}, "stan").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(send("ann", kNowhere, "x").code, PLATFORM_NOT_FOUND);  // 32 hex, no such group
    EXPECT_EQ(messages("ann", kTeam).at("messages").size(), 1u);
}

TEST_F(ChatTest, EncryptedGroupRoomIsListedButClosed) {
    const std::string refusal = "room " + kSecret +
                                " belongs to an end-to-end encrypted group: only XMPP clients "
                                "with OMEMO can read or post there";
    for (const char* method : {"messages", "live"}) {
        Reply r = chat.call(method, {{"room", kSecret}}, "ann");
        EXPECT_EQ(r.code, PLATFORM_CONFLICT) << method;
        EXPECT_EQ(r.body, refusal);
    }
    EXPECT_EQ(send("ann", kSecret, "x").code, PLATFORM_CONFLICT);
    const json rooms = ok_json(chat.call("rooms", json::object(), "ann")).at("rooms");
    ASSERT_EQ(rooms.size(), 2u) << rooms;
    EXPECT_EQ(rooms[0].at("id"), kTeam);  // no activity anywhere: by id
    EXPECT_EQ(rooms[1], (json{{"id", kSecret},
                              {"name", "secret"},
                              {"kind", "group"},
                              {"encrypted", true},
                              {"last_at", nullptr},
                              {"messages", 0}}));
}

TEST_F(ChatTest, RoomsMostRecentActivityFirst) {
    ASSERT_EQ(send("ann", "old", "1").code, PLATFORM_OK);
    host.now_ms += 1000;
    ASSERT_EQ(send("ann", kTeam, "2").code, PLATFORM_OK);
    host.now_ms += 1000;
    ASSERT_EQ(send("bob", "new", "3").code, PLATFORM_OK);
    ASSERT_EQ(send("bob", "new", "4").code, PLATFORM_OK);
    EXPECT_EQ(listed(chat.call("rooms", json::object(), "ann"), "rooms", "id"),
              (std::vector<std::string>{"new", kTeam, "old", kSecret}));
    EXPECT_EQ(listed(chat.call("rooms", json::object(), "stan"), "rooms", "id"),
              (std::vector<std::string>{"new", "old"}));
    const json first = ok_json(chat.call("rooms", {{"limit", 1}}, "ann")).at("rooms");
    EXPECT_EQ(first, (json{{{"id", "new"},
                            {"name", "new"},
                            {"kind", "public"},
                            {"encrypted", false},
                            {"last_at", "2026-01-01T00:00:02Z"},
                            {"messages", 2}}}));
    host.now_ms += 1000;
    ASSERT_EQ(send("ann", "old", "5").code, PLATFORM_OK);  // moves up; its old entry is gone
    EXPECT_EQ(listed(chat.call("rooms", {{"limit", 3}}, "stan"), "rooms", "id"),
              (std::vector<std::string>{"old", "new"}));
    EXPECT_EQ(chat.call("rooms", {{"limit", 0}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(chat.call("rooms", {{"limit", 101}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(ChatTest, SourcesAreTheSendersOwn) {
    std::vector<std::string> ids;
    for (int i = 0; i < 3; ++i) {
        host.now_ms += 10;
        ids.push_back(ok_json(send("ann", i == 1 ? kTeam : "lobby", std::to_string(i))).at("id"));
    }
    ASSERT_EQ(send("bob", "lobby", "bob's").code, PLATFORM_OK);
    EXPECT_EQ(ok_json(chat.call("source", {{"id", ids[1]}}, "ann")).at("text"), "1");
    Reply other = chat.call("source", {{"id", ids[1]}}, "bob");
    EXPECT_EQ(other.code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(other.body.find("\"1\""), std::string::npos);
    const json all = ok_json(chat.call("sources", json::object(), "ann"));
    EXPECT_EQ(all, (json{{"sources", {ids[2], ids[1], ids[0]}}, {"total", 3}}));
    EXPECT_EQ(ok_json(chat.call("sources", {{"offset", 1}, {"limit", 1}}, "ann")),
              (json{{"sources", {ids[1]}}, {"total", 3}}));
    EXPECT_EQ(ok_json(chat.call("sources", json::object(), "bob")).at("total"), 1);
    EXPECT_EQ(ok_json(chat.call("sources", json::object(), "cy")),
              (json{{"sources", json::array()}, {"total", 0}}));
    EXPECT_EQ(chat.call("sources", {{"limit", 101}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(ChatTest, EveryMessageIsPublishedOnItsRoomAndOnAll) {
    const json a = ok_json(send("ann", "lobby", "one"));
    const json b = ok_json(send("ann", kTeam, "two"));
    std::lock_guard<std::mutex> lock(host.events_mutex);
    ASSERT_EQ(host.events["chat.room.lobby"].size(), 1u);
    EXPECT_EQ(json::parse(host.events["chat.room.lobby"][0].payload), a);
    ASSERT_EQ(host.events["chat.room." + kTeam].size(), 1u);
    ASSERT_EQ(host.events["chat.all"].size(), 2u);
    EXPECT_EQ(json::parse(host.events["chat.all"][1].payload), b);
}

TEST_F(ChatTest, LiveSaysReadyThenResumesAfterACursor) {
    Reply r = chat.call("live", {{"room", "lobby"}}, "ann");  // nothing comes: ends when idle
    ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    ASSERT_EQ(r.chunks.size(), 1u);
    EXPECT_EQ(json::parse(r.chunks[0]),
              (json{{"type", "ready"}, {"room", "lobby"}, {"cursor", 0}}));

    const json one = ok_json(send("ann", "lobby", "one"));
    const json two = ok_json(send("bob", "lobby", "two"));
    r = chat.call("live", {{"room", "lobby"}, {"after", 0}}, "ann");
    ASSERT_EQ(r.chunks.size(), 2u) << r.body;
    EXPECT_EQ(json::parse(r.chunks[0]),
              (json{{"type", "message"}, {"cursor", 1}, {"message", one}}));
    EXPECT_EQ(json::parse(r.chunks[1]),
              (json{{"type", "message"}, {"cursor", 2}, {"message", two}}));
    r = chat.call("live", {{"room", "lobby"}, {"after", 1}}, "ann");
    ASSERT_EQ(r.chunks.size(), 1u) << r.body;
    EXPECT_EQ(json::parse(r.chunks[0]).at("message"), two);
    r = chat.call("live", {{"room", "lobby"}}, "ann");
    ASSERT_EQ(r.chunks.size(), 1u) << r.body;
    EXPECT_EQ(json::parse(r.chunks[0]).at("cursor"), 2);
    r = chat.call("live", {{"room", "lobby"}, {"after", 9}}, "ann");  // the topic started again
    ASSERT_EQ(r.chunks.size(), 2u) << r.body;
    EXPECT_EQ(json::parse(r.chunks[0]).at("message"), one);
    EXPECT_EQ(chat.call("live", {{"room", "lobby"}, {"after", -1}}, "ann").code,
              PLATFORM_INVALID_ARGUMENT);
}

TEST_F(ChatTest, AgentAnswersInTheRoomAsTheSender) {
    ASSERT_EQ(send("ann", "lobby", "@agent what is up?").code, PLATFORM_OK);
    ASSERT_TRUE(events_reach("chat.room.lobby", 2));
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
    ASSERT_TRUE(events_reach("chat.room." + kTeam, 2));
    EXPECT_EQ(messages("ann", kTeam).at("messages")[1].at("from"), "helper");
    // Not agents: a mention of someone else, an unknown name, a mention later in the text.
    for (const char* text : {"@bob hi", "@nobody hi", "hi @agent"})
        ASSERT_EQ(send("ann", "quiet", text).code, PLATFORM_OK);
    ASSERT_EQ(send("ann", "quiet", "@agent last").code, PLATFORM_OK);
    ASSERT_TRUE(events_reach("chat.room.quiet", 5));
    std::lock_guard<std::mutex> g(m);
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[2].at("request").at("prompt"), "last");
}

TEST_F(ChatTest, AgentGrantsAreRevokedAndFailuresSaidInTheRoom) {
    host.on_call = [this](const std::string& service, const std::string& method, const json& req,
                          const std::string& account) {
        if (method == "run") return reply(PLATFORM_PAYMENT_REQUIRED, "needs 1 credit");
        return answer(service, method, req, account);
    };
    {
        FakePlugin own = host.load(platform_plugin_entry);  // stopped at the end of the scope
        ASSERT_EQ(own.call("send", {{"room", "lobby"}, {"message", "@agent hi"}}, "ann").code,
                  PLATFORM_OK);
        ASSERT_TRUE(events_reach("chat.room.lobby", 2));
        const json said = messages("ann", "lobby").at("messages")[1];
        EXPECT_EQ(said.at("from"), "assistant");
        EXPECT_EQ(said.at("agent"), true);
        EXPECT_EQ(said.at("text"), "I could not answer: needs 1 credit");
    }
    std::lock_guard<std::mutex> g(host.grants_mutex);
    EXPECT_EQ(host.grant_ids, 1u);
    EXPECT_TRUE(host.grants.empty());
}

TEST_F(ChatTest, Descriptor) {
    const platform_plugin_desc_t* d = chat.descriptor();
    EXPECT_EQ(platform::copy(d->id), "chat");
    EXPECT_EQ(platform::copy(d->service), "v1.chat");
    EXPECT_EQ(d->endpoint_count, 6u);
}

}  // namespace
