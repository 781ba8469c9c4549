// The chat plugin's naming rules (plugins/chat/rooms.hpp): what a room id is, the keys that keep
// rooms and messages in order, and which messages call an agent.
#include "../../../plugins/chat/rooms.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using chat::RoomKind;

TEST(ChatRooms, KindOfARoom) {
    const std::string group(32, 'a');
    EXPECT_EQ(chat::kind_of(group), RoomKind::group);
    EXPECT_EQ(chat::kind_of("0123456789abcdef0123456789abcdef"), RoomKind::group);
    EXPECT_EQ(chat::kind_of("general"), RoomKind::public_room);
    EXPECT_EQ(chat::kind_of("a"), RoomKind::public_room);
    EXPECT_EQ(chat::kind_of("team.dev_ops-2"), RoomKind::public_room);
    EXPECT_EQ(chat::kind_of(std::string(31, 'a')), RoomKind::public_room);  // not 32 characters
    EXPECT_EQ(chat::kind_of(std::string(33, 'a')), RoomKind::public_room);
    EXPECT_EQ(chat::kind_of(std::string(31, 'a') + "g"), RoomKind::public_room);  // not hex
    EXPECT_EQ(chat::kind_of(std::string(64, 'z')), RoomKind::public_room);
    for (const std::string& bad :
         std::vector<std::string>{"", "General", "-x", ".x", "a b", "a/b", "caf\xC3\xA9",
                                  std::string(65, 'z'), std::string(32, 'A')})
        EXPECT_EQ(chat::kind_of(bad), RoomKind::invalid) << bad;
}

TEST(ChatRooms, DirectRoomsNameAnAccount) {
    EXPECT_EQ(chat::kind_of("@bob"), RoomKind::direct);
    EXPECT_EQ(chat::kind_of("@Bob.Smith+x@home-1"), RoomKind::direct);
    EXPECT_EQ(chat::kind_of("@" + std::string(128, 'b')), RoomKind::direct);
    for (const std::string& bad :
         std::vector<std::string>{"@", "@@bob", "@.bob", "@bob smith", "@bob:ann", "@bob/x",
                                  "@" + std::string(129, 'b')})
        EXPECT_EQ(chat::kind_of(bad), RoomKind::invalid) << bad;
    EXPECT_EQ(chat::direct_peer("@bob"), "bob");
    EXPECT_EQ(chat::direct_key("bob", "ann"), "@ann:bob");  // the same from either end
    EXPECT_EQ(chat::direct_key("ann", "bob"), "@ann:bob");
    EXPECT_EQ(chat::kind_of(chat::direct_key("ann", "bob")), RoomKind::invalid);  // not nameable
    EXPECT_TRUE(chat::direct_account("ann@home"));
    EXPECT_FALSE(chat::direct_account("ann:x"));  // so no two pairs share a key
    EXPECT_FALSE(chat::direct_account(""));
}

TEST(ChatRooms, KeysSortByPositionAndTime) {
    EXPECT_EQ(chat::position_key(7), "000000000007");
    EXPECT_LT(chat::position_key(9), chat::position_key(10));
    EXPECT_EQ(chat::activity_key(1767225600000, "general"), "001767225600000-general");
    EXPECT_LT(chat::activity_key(999, "z"), chat::activity_key(1000, "a"));
    const std::string id = chat::message_id(1767225600000, "0123456789ab");
    EXPECT_EQ(id, "001767225600000-0123456789ab");
    EXPECT_LT(chat::message_id(5, "ffffffffffff"), chat::message_id(6, "000000000000"));
    EXPECT_EQ(chat::room_topic("general"), "chat:room:general");
}

TEST(ChatRooms, EncryptedRefusalNamesTheRoom) {
    EXPECT_EQ(chat::encrypted_refusal("abc"),
              "room abc belongs to an end-to-end encrypted group: only XMPP clients with OMEMO "
              "can read or post there");
}

TEST(ChatRooms, MentionsOfAgents) {
    struct Case {
        std::string text;
        bool mention;
        std::string name, prompt;
    };
    const Case cases[] = {
        {"@agent what time is it?", true, "agent", "what time is it?"},
        {"@agent, hello", true, "agent", "hello"},
        {"@helper: list my notes", true, "helper", "list my notes"},
        {"@agent", true, "agent", "@agent"},  // nothing after the mention: the whole text
        {"@my-agent2 hi", true, "my-agent2", "hi"},
        {"@agent!", true, "agent", "@agent!"},
        {"hello @agent", false, "", ""},
        {"@ agent", false, "", ""},
        {"@Agent hi", false, "", ""},
        {"@agent_x hi", false, "", ""},
        {"@" + std::string(41, 'a') + " hi", false, "", ""},
        {"@" + std::string(40, 'a') + " hi", true, std::string(40, 'a'), "hi"},
        {"email@agent", false, "", ""},
        {"", false, "", ""},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        const auto m = chat::mention_of(c.text);
        ASSERT_EQ(m.has_value(), c.mention);
        if (!m) continue;
        EXPECT_EQ(m->name, c.name);
        EXPECT_EQ(m->prompt, c.prompt);
    }
}

}  // namespace
