// rooms — the chat service's naming rules, as pure functions (no I/O; safe from any thread).
//
// A room id, as a caller names it, is one of:
//   - a group's id (32 lowercase hex characters, the id groups/create answers): the room is for
//     the group's members;
//   - "@<account>": the direct room between the caller and that account (an account id matches
//     [A-Za-z0-9][A-Za-z0-9._@+-]{0,127}); both name the same room, each by the other's id, and
//     it is stored under direct_key() of the two;
//   - a public room's name, any other string matching [a-z0-9][a-z0-9._-]{0,63} (anyone with an
//     account may read and post; created by its first message).
// Store keys and event topics are built here so every file spells them alike. Event topics hold
// ':', which the events service's topic names cannot: its callers cannot read chat's topics.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace chat {

// The room `messages` and `live` read when the caller names none.
inline constexpr const char* kDefaultRoom = "general";
// The pattern every room id matches (the endpoints' schemas check it).
inline constexpr const char* kRoomPattern =
    "^(@[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}|[a-z0-9][a-z0-9._-]{0,63})$";
// The longest room id a caller may name ("@" and a 128-character account id).
inline constexpr std::size_t kMaxRoom = 129;
// The most characters a message may have.
inline constexpr std::size_t kMaxMessage = 4000;
// The most messages `messages` answers: the room's last ones.
inline constexpr std::size_t kHistory = 50;

enum class RoomKind { group, public_room, direct, invalid };

// What `room` names: a group's room, a public room, or nothing valid.
RoomKind kind_of(const std::string& room);

// The account a direct room names: "@bob" -> "bob" (`room` must be of kind direct).
std::string direct_peer(const std::string& room);

// Where the direct room of accounts `a` and `b` is stored and published: "@" + the lesser id +
// ":" + the greater (no account id holds ':'), the same whichever of the two asks.
std::string direct_key(const std::string& a, const std::string& b);

// Whether `id` can be one end of a direct room (it matches an account id's pattern).
bool direct_account(const std::string& id);

// The 409 message for a room of an end-to-end encrypted group.
std::string encrypted_refusal(const std::string& room);

// The event topic live follows for one room, and the one carrying every room's messages.
std::string room_topic(const std::string& room);
inline constexpr const char* kAllTopic = "chat:all";
// The topic notify/send publishes an account's notifications on, which live passes on.
inline std::string notification_topic(const std::string& account) {
    return "notify:" + account;
}

// A message id: the sending time (15 zero-padded decimal digits of Unix ms), '-', 12 random hex
// digits, so ids sort by time across rooms (messages of the same millisecond in any order).
std::string message_id(int64_t now_ms, const std::string& random_hex12);

// A message's key within its room: its position (1, 2, ...) as 12 zero-padded digits, so a
// descending scan of a room is its newest messages.
std::string position_key(uint64_t position);

// The key of a public room in the activity index: the last message's time (15 digits), '-',
// the room, so a descending scan is "most recently active first".
std::string activity_key(int64_t last_ms, const std::string& room);

// A message that calls an agent: "@agent ..." (the default agent) or "@<name> ...", the name
// [a-z0-9-]{1,40} followed by the end, a space or punctuation (",", ":", ";", "!", "?", ".").
struct Mention {
    std::string name;    // as written after '@' ("agent" = the default agent)
    std::string prompt;  // the text after the mention, trimmed; the whole text when empty
};
std::optional<Mention> mention_of(const std::string& text);

}  // namespace chat
