// history — the chat service's stored messages and rooms, and their publication as events.
//
// Storage (this plugin's store, through platform::Collection):
//   messages/<room>/<position>  the room's messages by position (rooms.hpp position_key): the
//                               last 50 of a room are one descending scan
//   rooms/""/<room>             {id, kind, messages: n, last_ms, last_at}: the room's counter
//                               (compare-and-set hands out positions) and last activity
//   activity/""/<ms>-<room>     a public room's last activity (rooms.hpp activity_key): a
//                               descending scan is "most recently active first"; an entry older
//                               than its room record is stale and skipped
//   sent/<account>/<id>         a copy of each message the account sent (source, sources)
//   senders/""/<account>        {sent: n}: how many messages the account sent
//   direct/<account>/<peer>     {}: the account has a direct room with peer (rooms lists them)
// A message is {id, room, from, text, at, agent}, and `to` (the other account) in a direct room,
// whose `room` is stored as its direct_key() and shown to each reader by seen_by(). post() takes the position first, then writes
// the message (only where none is: a stored message is never overwritten), the sender's copy
// and the activity entry, then publishes the message on the topics chat:room:<room> and
// chat:all (a failed publish is logged; the message stays stored).
//
// Thread-safe: every method goes through the host's store and events, which are.
#pragma once

#include <cstdint>
#include <optional>
#include <platform/sdk.hpp>
#include <string>
#include <vector>

namespace chat {

class History {
public:
    explicit History(const platform::Host& host) : host_(host) {}

    // Stores and publishes one message from `from` (an account, or an agent's name when `agent`)
    // to `room` (as stored: a direct room's direct_key()); `sender` is the account whose `sent`
    // index keeps it ("" for an agent's answer); `to` is the other account of a direct room ("" in
    // any other room). Returns the message as stored.
    platform::json post(const std::string& room, const std::string& from, const std::string& text,
                        bool agent, const std::string& sender, const std::string& to = "");

    // The room's last `n` messages, oldest first.
    platform::json last(const std::string& room, size_t n) const;

    // The room's record, or nullopt before its first message.
    std::optional<platform::json> room(const std::string& room) const;

    // Records of the public rooms with messages, most recently active first, at most `limit`.
    std::vector<platform::json> active_public(size_t limit) const;

    // The messages `account` sent, keyed by message id.
    platform::Collection sent(const std::string& account) const {
        return platform::Collection(host_.store(), "sent", account);
    }

    // How many messages `account` sent.
    uint64_t sent_total(const std::string& account) const;

    // The accounts `account` has a direct room with (at most `limit`, by id).
    std::vector<std::string> direct_peers(const std::string& account, size_t limit) const;

private:
    platform::Collection senders() const {
        return platform::Collection(host_.store(), "senders", "");
    }
    platform::Collection directs(const std::string& account) const {
        return platform::Collection(host_.store(), "direct", account);
    }
    platform::Collection rooms() const { return platform::Collection(host_.store(), "rooms", ""); }
    platform::Collection activity() const {
        return platform::Collection(host_.store(), "activity", "");
    }
    platform::Collection messages(const std::string& room) const {
        return platform::Collection(host_.store(), "messages", room);
    }
    void publish(const std::string& room, const platform::json& message) const;

    platform::Host host_;
};

// `message` as `reader` sees it: in a direct room its `room` is "@" and the other account's id.
platform::json seen_by(platform::json message, const std::string& reader);

}  // namespace chat
