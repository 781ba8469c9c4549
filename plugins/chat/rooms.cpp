#include "rooms.hpp"

#include <algorithm>
#include <cstdio>
#include <regex>

namespace chat {

namespace {

bool lower_hex(const std::string& s) {
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

std::string padded(uint64_t n, int width) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%0*llu", width, static_cast<unsigned long long>(n));
    return buf;
}

std::string trimmed(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

}  // namespace

RoomKind kind_of(const std::string& room) {
    static const std::regex pattern(kRoomPattern);
    if (!std::regex_match(room, pattern)) return RoomKind::invalid;
    if (room[0] == '@') return RoomKind::direct;
    return room.size() == 32 && lower_hex(room) ? RoomKind::group : RoomKind::public_room;
}

std::string direct_peer(const std::string& room) {
    return room.substr(1);
}

std::string direct_key(const std::string& a, const std::string& b) {
    return "@" + std::min(a, b) + ":" + std::max(a, b);
}

bool direct_account(const std::string& id) {
    return kind_of("@" + id) == RoomKind::direct;
}

std::string encrypted_refusal(const std::string& room) {
    return "room " + room +
           " belongs to an end-to-end encrypted group: only XMPP clients with OMEMO can read or "
           "post there";
}

std::string room_topic(const std::string& room) {
    return "chat:room:" + room;
}

std::string message_id(int64_t now_ms, const std::string& random_hex12) {
    return padded(static_cast<uint64_t>(now_ms < 0 ? 0 : now_ms), 15) + "-" + random_hex12;
}

std::string position_key(uint64_t position) {
    return padded(position, 12);
}

std::string activity_key(int64_t last_ms, const std::string& room) {
    return padded(static_cast<uint64_t>(last_ms < 0 ? 0 : last_ms), 15) + "-" + room;
}

std::optional<Mention> mention_of(const std::string& text) {
    if (text.empty() || text[0] != '@') return std::nullopt;
    size_t end = 1;
    while (end < text.size() && ((text[end] >= 'a' && text[end] <= 'z') ||
                                 (text[end] >= '0' && text[end] <= '9') || text[end] == '-'))
        ++end;
    if (end == 1 || end - 1 > 40) return std::nullopt;
    if (end < text.size() && std::string(" \t\r\n,:;!?.").find(text[end]) == std::string::npos)
        return std::nullopt;
    Mention m{text.substr(1, end - 1), trimmed(text.substr(end))};
    while (!m.prompt.empty() && std::string(",:;!?.").find(m.prompt[0]) != std::string::npos)
        m.prompt = trimmed(m.prompt.substr(1));
    if (m.prompt.empty()) m.prompt = text;
    return m;
}

}  // namespace chat
