#include "history.hpp"

#include <algorithm>
#include <platform/sdk/random.hpp>

#include "rooms.hpp"

using platform::json;

namespace chat {

json History::post(const std::string& room, const std::string& from, const std::string& text,
                   bool agent, const std::string& sender, const std::string& to) {
    const int64_t now = host_.now_ms();
    json message = {{"id", message_id(now, platform::random_hex(6))},
                    {"room", room},
                    {"from", from},
                    {"text", text},
                    {"at", platform::rfc3339(now)},
                    {"agent", agent}};
    if (!to.empty()) message["to"] = to;
    const bool is_public = to.empty() && kind_of(room) == RoomKind::public_room;
    const char* kind = !to.empty() ? "direct" : is_public ? "public" : "group";
    int64_t before_ms = -1;
    const auto record =
        rooms().update(room, [&](const std::optional<json>& cur) -> std::optional<json> {
            json r = cur ? *cur : json{{"id", room}, {"kind", kind}, {"messages", 0}};
            before_ms = cur ? r.value("last_ms", int64_t{-1}) : -1;
            r["messages"] = r.value("messages", uint64_t{0}) + 1;
            r["last_ms"] = std::max(now, before_ms);
            r["last_at"] = platform::rfc3339(r["last_ms"].get<int64_t>());
            return r;
        });
    const std::string position = position_key((*record)["messages"].get<uint64_t>());
    if (!messages(room).insert_if_absent(position, message))  // never over a stored message
        throw platform::conflict("room: position " + position + " of " + room + " is taken");
    if (!sender.empty()) {
        sent(sender).put(message["id"].get<std::string>(), message);
        senders().update(sender, [](const std::optional<json>& cur) -> std::optional<json> {
            return json{{"sent", (cur ? cur->value("sent", uint64_t{0}) : 0) + 1}};
        });
    }
    if (!to.empty()) {  // each end lists the room
        directs(from).put(to, json::object());
        directs(to).put(from, json::object());
    }
    if (is_public) {
        const int64_t last_ms = (*record)["last_ms"];
        activity().put(activity_key(last_ms, room), {{"room", room}});
        if (before_ms >= 0 && before_ms != last_ms) activity().erase(activity_key(before_ms, room));
    }
    publish(room, message);
    return message;
}

void History::publish(const std::string& room, const json& message) const {
    const std::string payload = message.dump(-1, ' ', false, json::error_handler_t::replace);
    for (const std::string& topic : {room_topic(room), std::string(kAllTopic)}) {
        try {
            host_.publish_event(topic, payload);
        } catch (const std::exception& e) {
            host_.warn("chat: message " + message.value("id", "") +
                       " stored but not published on " + topic + ": " + e.what());
        }
    }
}

json History::last(const std::string& room, size_t n) const {
    platform::ScanOptions o;
    o.descending = true;
    o.limit = static_cast<uint32_t>(n);
    json out = json::array();
    auto found = messages(room).list(o);
    for (auto it = found.rbegin(); it != found.rend(); ++it) out.push_back(std::move(it->second));
    return out;
}

uint64_t History::sent_total(const std::string& account) const {
    const auto r = senders().get(account);
    return r ? r->value("sent", uint64_t{0}) : 0;
}

std::vector<std::string> History::direct_peers(const std::string& account, size_t limit) const {
    platform::ScanOptions o;
    o.limit = static_cast<uint32_t>(limit);
    std::vector<std::string> out;
    for (const auto& [peer, _] : directs(account).list(o)) out.push_back(peer);
    return out;
}

json seen_by(json message, const std::string& reader) {
    if (auto to = message.find("to"); to != message.end() && to->is_string()) {
        const std::string from = message.value("from", "");
        message["room"] = "@" + (from == reader ? to->get<std::string>() : from);
    }
    return message;
}

std::optional<json> History::room(const std::string& room) const {
    return rooms().get(room);
}

std::vector<json> History::active_public(size_t limit) const {
    std::vector<json> out;
    platform::ScanOptions o;
    o.descending = true;
    o.limit = static_cast<uint32_t>(limit * 2 + 16);  // room for stale entries
    for (const auto& [key, entry] : activity().list(o)) {
        if (out.size() >= limit) break;
        const std::string name = entry.value("room", "");
        const auto r = name.empty() ? std::nullopt : room(name);
        if (!r || activity_key(r->value("last_ms", int64_t{-1}), name) != key) {
            if (r && activity_key(r->value("last_ms", int64_t{-1}), name) > key)
                activity().erase(key);  // left behind by two posts at once
            continue;
        }
        out.push_back(*r);
    }
    return out;
}

}  // namespace chat
