// The chat plugin (plugins/chat/) through the fake host (chat_fixture.hpp): rooms and their
// access rules, the stored messages, the sender's own index, the events published for live and
// the bridge, and the live stream.
#include <string>
#include <vector>

#include "chat_fixture.hpp"

namespace {

using namespace chat_test;

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
    ASSERT_EQ(host.events["chat:room:lobby"].size(), 1u);
    EXPECT_EQ(json::parse(host.events["chat:room:lobby"][0].payload), a);
    ASSERT_EQ(host.events["chat:room:" + kTeam].size(), 1u);
    ASSERT_EQ(host.events["chat:all"].size(), 2u);
    EXPECT_EQ(json::parse(host.events["chat:all"][1].payload), b);
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

TEST_F(ChatTest, DirectRoomIsBetweenTwoAccountsEachNamingTheOther) {
    const json hi = ok_json(send("ann", "@bob", "hi bob"));
    EXPECT_EQ(hi.at("room"), "@bob");
    EXPECT_EQ(hi.at("from"), "ann");
    EXPECT_EQ(hi.at("to"), "bob");
    host.now_ms += 1000;
    const json back = ok_json(send("bob", "@ann", "hi ann"));
    EXPECT_EQ(back.at("room"), "@ann");

    json seen = messages("bob", "@ann");
    EXPECT_EQ(seen.at("room"), "@ann");
    ASSERT_EQ(seen.at("messages").size(), 2u);
    EXPECT_EQ(seen.at("messages")[0].at("text"), "hi bob");
    EXPECT_EQ(seen.at("messages")[0].at("room"), "@ann");  // as bob sees it
    seen = messages("ann", "@bob");
    ASSERT_EQ(seen.at("messages").size(), 2u);
    EXPECT_EQ(seen.at("messages")[0], hi);
    EXPECT_EQ(seen.at("messages")[1].at("room"), "@bob");
    EXPECT_EQ(messages("carol", "@bob").at("messages"), json::array());  // carol's own with bob
    EXPECT_EQ(messages("carol", "@ann").at("messages"), json::array());

    const json rooms = ok_json(chat.call("rooms", json::object(), "bob")).at("rooms");
    EXPECT_EQ(rooms[0], (json{{"id", "@ann"},
                              {"name", "ann"},
                              {"kind", "direct"},
                              {"encrypted", false},
                              {"last_at", "2026-01-01T00:00:01Z"},
                              {"messages", 2}}));
    EXPECT_EQ(listed(chat.call("rooms", json::object(), "carol"), "rooms", "id"),
              std::vector<std::string>{});
    EXPECT_EQ(ok_json(chat.call("source", {{"id", hi.at("id")}}, "ann")), hi);

    Reply r = chat.call("live", {{"room", "@ann"}, {"after", 0}}, "bob");
    ASSERT_EQ(r.chunks.size(), 2u) << r.body;
    EXPECT_EQ(json::parse(r.chunks[1]).at("message"), back);
    EXPECT_EQ(json::parse(r.chunks[0]).at("message").at("room"), "@ann");

    // Published under the stored id, which callers cannot name.
    {
        std::lock_guard<std::mutex> lock(host.events_mutex);
        ASSERT_EQ(host.events["chat:room:@ann:bob"].size(), 2u);
        EXPECT_EQ(json::parse(host.events["chat:all"][0].payload).at("room"), "@ann:bob");
    }
    Reply self = send("ann", "@ann", "me");
    EXPECT_EQ(self.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(self.body.find("room: a direct room names another account"), std::string::npos);
    EXPECT_EQ(send("ann", "@ann:bob", "x").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(messages("ann", "@bob").at("messages").size(), 2u);
}

TEST_F(ChatTest, DirectRoomToAnUnknownAccountIs404WhereAccountsAreListed) {
    EXPECT_EQ(send("ann", "@nobody", "anyone there?").code, PLATFORM_OK);  // no list: taken
    accounts = std::vector<std::string>{"ann", "bob"};
    Reply r = send("ann", "@ghost", "boo");
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(r.body.find("room: no account ghost"), std::string::npos) << r.body;
    EXPECT_EQ(messages("ann", "@ghost").at("messages"), json::array());
    EXPECT_EQ(send("ann", "@bob", "hello").code, PLATFORM_OK);
}

TEST_F(ChatTest, Descriptor) {
    const platform_plugin_desc_t* d = chat.descriptor();
    EXPECT_EQ(platform::copy(d->id), "chat");
    EXPECT_EQ(platform::copy(d->service), "v1.chat");
    EXPECT_EQ(d->endpoint_count, 6u);
}

}  // namespace
