#include "chat.hpp"

#include <algorithm>

#include "common/accounts/accounts.hpp"
#include "rooms.hpp"

namespace schema = platform::schema;

using platform::json;

namespace {

schema::Value room_arg(const std::string& doc) {
    return schema::string().pattern(chat::kRoomPattern).max_len(chat::kMaxRoom).doc(doc);
}

const char* kRoomDoc =
    "A group's id (its members' room), @<account> (your direct room with that account) or a "
    "public room's name: lowercase letters, digits, '.', '_' and '-', at most 64";

int64_t idle_from(const platform::Host& host) {
    const json v = host.config("live_idle_ms");
    return v.is_number_integer() ? std::clamp<int64_t>(v.get<int64_t>(), 1000, 60000)
                                 : Chat::kDefaultIdleMs;
}

// A room's entry in `rooms`; `kind` is "group", "public" or "direct".
json listed(const std::string& id, const std::string& name, const char* kind, bool encrypted,
            const std::optional<json>& record) {
    return {{"id", id},
            {"name", name},
            {"kind", kind},
            {"encrypted", encrypted},
            {"last_at", record ? record->value("last_at", json(nullptr)) : json(nullptr)},
            {"messages", record ? record->value("messages", 0) : 0}};
}

}  // namespace

Chat::Chat(const platform::Host& host)
    : host_(host), history_(host), agents_(host, history_), idle_ms_(idle_from(host)) {}

void Chat::start() {
    stopping_ = false;
    agents_.start();
}

void Chat::stop() {
    stopping_ = true;
    agents_.stop();
}

void Chat::describe(platform::ServiceSpec<Chat>& s) {
    s.id("chat").version("1.0.0").service("v1.chat").summary(
        "Chat rooms: public rooms for every account, a room per group for its members, direct "
        "rooms between two accounts, @agent answers");
    s.config_schema(
        schema::object()
            .open()
            .integer("live_idle_ms")
            .min(1000)
            .max(60000)
            .doc("A live stream ends after this long without a message (default 25000)"));
    s.get("messages")
        .title("Read a room")
        .description(
            "The last 50 messages of a room, oldest first. A group's room is for its members; a "
            "room of an end-to-end encrypted group answers 409.")
        .schema(schema::object().prop("room", room_arg(kRoomDoc).def(chat::kDefaultRoom)))
        .access(platform::Access::account)
        .read_only()
        .handler(&Chat::messages);
    s.get("rooms")
        .title("List rooms")
        .description(
            "Public rooms with messages, the rooms of your groups and your direct rooms, most "
            "recent activity first, each with its kind, whether it is encrypted, its last "
            "message's time and its number of messages.")
        .schema(schema::object().prop("limit", schema::limit(100, 20, "How many rooms")))
        .access(platform::Access::account)
        .read_only()
        .handler(&Chat::rooms);
    s.post("send")
        .title("Send a message")
        .description(
            "Posts a message (1 to 4000 characters) to a room and answers it as stored. A public "
            "room is created by its first message; room @<account> is your direct room with that "
            "account (404 when there is no such account). A message starting with @agent (or "
            "@<agent name>) in a public or group room is answered there by that agent, shortly "
            "after.")
        .schema(schema::object()
                    .prop("room", room_arg(kRoomDoc))
                    .required()
                    .str("message")
                    .min_len(1)
                    .max_len(chat::kMaxMessage)
                    .required()
                    .doc("The text"))
        .access(platform::Access::account)
        .handler(&Chat::send);
    s.get("source")
        .title("Read a message you sent")
        .description("One message you sent, by id; 404 for anyone else's.")
        .schema(schema::id_object("The message's id"))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Chat::source);
    s.get("sources")
        .title("List the messages you sent")
        .description("The ids of the messages you sent, newest first, and how many there are.")
        .schema(schema::object()
                    .prop("offset", schema::offset("How many to skip").max(1000000))
                    .prop("limit", schema::limit(100, 20, "How many ids")))
        .access(platform::Access::owner)
        .read_only()
        .handler(&Chat::sources);
    s.get("live")
        .title("Follow a room")
        .description(
            "A stream: {\"type\":\"ready\",\"room\",\"cursor\"} first (unless `after` is given), "
            "then {\"type\":\"message\",\"cursor\",\"message\"} for each new message. It ends "
            "after "
            "about 25 s without a message; call again with after=<the last cursor> to go on "
            "with nothing lost.")
        .schema(schema::object()
                    .prop("room", room_arg(kRoomDoc).def(chat::kDefaultRoom))
                    .integer("after")
                    .min(0)
                    .doc("Resume after this cursor (a position in the room's event topic)"))
        .access(platform::Access::account)
        .read_only()
        .streaming()
        .live_input("send")     // over a WebSocket, {"message": ...} posts to the room
        .resume_arg("after")    // and the host goes on after the last cursor when a stream ends
        .withheld_from_agent()  // a stream of up to 25 s is no tool for a model
        .async(&Chat::live);
}

std::string Chat::admit(platform::Request& r, const std::string& room, bool sending) const {
    if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
    const chat::RoomKind kind = chat::kind_of(room);
    if (kind == chat::RoomKind::invalid)
        throw platform::invalid_argument("room: must match " + std::string(chat::kRoomPattern));
    if (kind == chat::RoomKind::public_room) return room;
    if (kind == chat::RoomKind::direct) {
        const std::string peer = chat::direct_peer(room);
        if (peer == r.account())
            throw platform::invalid_argument("room: a direct room names another account than you");
        if (!chat::direct_account(r.account()))
            throw platform::invalid_argument("room: your account id " + r.account() +
                                             " cannot have direct rooms");
        if (sending && common::accounts::known(host_, peer) == false)
            throw platform::not_found("room: no account " + peer);
        return chat::direct_key(r.account(), peer);
    }
    platform::Host::CallResult g;
    try {
        g = host_.call("groups", "read", {{"id", room}}, r.call());
    } catch (const platform::Error&) {  // no groups service
        throw platform::not_found("room: no group " + room);
    }
    if (g.code == platform::Code::not_found) throw platform::not_found("room: no group " + room);
    if (g.code == platform::Code::permission_denied)
        throw platform::permission_denied(
            "room: only the group's members may use its room; accept the invitation first");
    if (!g.ok()) throw platform::Error(g.code, "room: " + g.body);
    const json group = json::parse(g.body, nullptr, false);
    if (group.is_object() && group.value("encrypted", false))
        throw platform::conflict(chat::encrypted_refusal(room));
    return room;
}

json Chat::messages(platform::Request& r) {
    const std::string room = r.str("room", chat::kDefaultRoom);
    json list = history_.last(admit(r, room), chat::kHistory);
    for (json& m : list) m = chat::seen_by(std::move(m), r.account());
    return {{"room", room}, {"messages", std::move(list)}};
}

json Chat::send(platform::Request& r) {
    const std::string room = r.str("room"), text = r.str("message");
    const std::string stored = admit(r, room, true);
    if (chat::kind_of(room) == chat::RoomKind::direct) {
        return chat::seen_by(
            history_.post(stored, r.account(), text, false, r.account(), chat::direct_peer(room)),
            r.account());
    }
    json message = history_.post(stored, r.account(), text, false, r.account());
    agents_.consider(r, room, text);
    return message;
}

json Chat::source(platform::Request& r) {
    const std::string id = r.str("id");
    auto message = r.owned("sent").get(id);
    if (!message) throw platform::not_found("id: no message " + id + " sent by you");
    return chat::seen_by(*message, r.account());
}

json Chat::sources(platform::Request& r) {
    if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
    platform::ScanOptions o;
    o.descending = true;
    o.offset = static_cast<uint32_t>(r.integer("offset", 0, 0, 1000000));
    o.limit = static_cast<uint32_t>(r.integer("limit", 20, 1, 100));
    json ids = json::array();
    for (const auto& [id, message] : history_.sent(r.account()).list(o)) ids.push_back(id);
    return {{"sources", ids}, {"total", history_.sent_total(r.account())}};
}

json Chat::rooms(platform::Request& r) {
    if (r.anonymous()) throw platform::unauthenticated("this method needs an account");
    const auto limit = static_cast<size_t>(r.integer("limit", 20, 1, 100));
    std::vector<std::pair<int64_t, json>> out;  // last message's time (-1: none), entry
    auto add = [&](const std::string& id, const std::string& name, const char* kind, bool encrypted,
                   const std::optional<json>& rec) {
        out.emplace_back(rec ? rec->value("last_ms", int64_t{-1}) : -1,
                         listed(id, name, kind, encrypted, rec));
    };
    for (const json& rec : history_.active_public(limit))
        add(rec.value("id", ""), rec.value("id", ""), "public", false, rec);
    for (const std::string& peer : history_.direct_peers(r.account(), kMaxDirectRooms))
        add("@" + peer, peer, "direct", false, history_.room(chat::direct_key(r.account(), peer)));
    platform::Host::CallResult mine;
    try {
        mine = host_.call("groups", "list", json::object(), r.call());
    } catch (const platform::Error&) {  // no groups service: public rooms only
        mine = {platform::Code::ok, "{}"};
    }
    if (!mine.ok()) throw platform::Error(mine.code, "groups/list: " + mine.body);
    const json body = json::parse(mine.body, nullptr, false);
    if (body.is_object())
        for (const auto& g : body.value("groups", json::array())) {
            const std::string id = g.value("id", "");
            add(id, g.value("name", id), "group", g.value("encrypted", false), history_.room(id));
        }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second["id"] < b.second["id"];
    });
    json rooms = json::array();
    for (size_t i = 0; i < out.size() && i < limit; ++i) rooms.push_back(std::move(out[i].second));
    return {{"rooms", rooms}};
}

PLATFORM_SERVICE(Chat)
