// chat — rooms of messages between accounts (the catalogue's `chat` service; README.md):
//
//   messages  GET  {room = general}              -> {room, messages}: the last 50, oldest first
//   rooms     GET  {limit 1-100 = 20}            -> {rooms}: active public rooms, the caller's
//                                                   group and direct rooms, most recent first
//   send      POST {room*, message* 1-4000 chars} -> the stored message
//   source    GET  {id*}                         -> a message the caller sent (owner)
//   sources   GET  {offset, limit 1-100 = 20}    -> {sources: [ids], total} (owner), newest first
//   live      GET  {room = general, after}       -> a stream: {"type":"ready",...} then one
//                                                   {"type":"message",...} per new message and
//                                                   one {"type":"notification",...} per
//                                                   notification of the caller's
//
// Room naming and keys: rooms.hpp. Storage and publication: history.hpp. The "@agent" answerer:
// agent_reply.hpp. The stream: live.cpp. Every method needs an account. A group's room is
// checked by asking groups/read as the caller (its 404 and 403 are chat's), and a room of an
// encrypted group answers 409 to messages, send and live.
//
// Handlers run on the host's worker threads, any number at once (the store's compare-and-set
// orders concurrent sends); a live stream holds its worker thread while it lasts.
//
// Plugin config: `live_idle_ms` (1000-60000, default 25000): a live stream ends after this long
// without a message.
#pragma once

#include <atomic>
#include <cstdint>
#include <platform/sdk.hpp>
#include <string>

#include "agent_reply.hpp"
#include "history.hpp"

class Chat {
public:
    static void describe(platform::ServiceSpec<Chat>& s);
    explicit Chat(const platform::Host& host);

    // The @agent answerer's thread (agent_reply.hpp); stop() also ends the live streams.
    void start();
    void stop();

    platform::json messages(platform::Request& r);
    platform::json rooms(platform::Request& r);
    platform::json send(platform::Request& r);
    platform::json source(platform::Request& r);
    platform::json sources(platform::Request& r);
    void live(platform::Request& r, platform::Responder out);  // live.cpp

    static constexpr int64_t kDefaultIdleMs = 25000;
    static constexpr int64_t kSliceMs = 250;           // a stream re-checks stop this often
    static constexpr int64_t kDeadlineMarginMs = 500;  // a stream ends this long before deadline
    static constexpr size_t kMaxDirectRooms = 1000;    // rooms weighs at most this many

private:
    // Lets the caller use `room` and answers where it is stored: 400 for an invalid name; for a
    // group's room, groups/read as the caller (404 not a group the caller knows, 403 invitation
    // not accepted) and 409 when the group is end-to-end encrypted. Public rooms are open to
    // every account. A direct room "@peer" is the caller's own with peer (stored under
    // direct_key); 400 when peer is the caller, and when `sending`, 404 when the auth service
    // lists accounts and peer is not one (reading an unknown peer's room finds it empty).
    std::string admit(platform::Request& r, const std::string& room, bool sending = false) const;
    // The last offset of an event topic (0 when empty), found with O(log n) one-event reads.
    uint64_t last_offset(const std::string& topic) const;  // live.cpp

    platform::Host host_;
    chat::History history_;
    chat::AgentReply agents_;
    int64_t idle_ms_;
    std::atomic<bool> stopping_{false};
};
