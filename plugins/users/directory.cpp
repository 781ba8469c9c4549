#include "directory.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "common/accounts/accounts.hpp"

using platform::json;

namespace users {

namespace {

// The host's activity records, by id.
std::map<std::string, json> activity(const platform::Host& host) {
    std::map<std::string, json> out;
    for (auto& rec : host.store().scan({"seen/"})) {
        json j = json::parse(rec.value, nullptr, false);
        if (j.is_object() && j.value("id", "") != "") out[j.at("id").get<std::string>()] = j;
    }
    return out;
}

// The agents the caller can ask; none when the profile has no agent service.
json agents(const platform::Host& host, platform::Request& r) {
    try {
        auto res = host.call("agent", "list", json::object(), r.call());
        if (res.ok()) return res.result().value("agents", json::array());
        host.warn("users: agent list failed: " + res.body);
    } catch (const platform::Error& e) {
        if (e.code() != platform::Code::not_found) host.warn(std::string("users: ") + e.what());
    }
    return json::array();
}

std::string text(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

User named(std::string id, std::string name, std::string type) {
    User u;
    u.id = std::move(id);
    u.name = std::move(name);
    u.type = std::move(type);
    return u;
}

}  // namespace

json User::view(int64_t now_ms) const {
    return {{"id", id},
            {"name", name.empty() ? id : name},
            {"type", type},
            {"agent", agent},
            {"online", online(now_ms)},
            {"last_seen", last_seen_ms ? json(platform::rfc3339(*last_seen_ms)) : json(nullptr)}};
}

std::vector<User> everyone(const platform::Host& host, platform::Request& r) {
    const int64_t now = host.now_ms();
    const auto seen = activity(host);
    std::map<std::string, User> by_id;
    if (auto listed = common::accounts::listed(host)) {
        for (const auto& a : *listed) {
            User u = named(text(a, "id"), text(a, "name"), text(a, "type"));
            if (u.id.empty()) continue;
            u.created_ms = a.value("created", int64_t{0}) * 1000;
            by_id[u.id] = u;
        }
        for (const auto& [id, s] : seen)
            if (auto it = by_id.find(id); it != by_id.end())
                it->second.last_seen_ms = s.value("last_seen", int64_t{0});
    } else {
        for (const auto& [id, s] : seen) {
            User u = named(id, text(s, "name"), text(s, "type"));
            u.created_ms = s.value("first_seen", int64_t{0});
            u.last_seen_ms = s.value("last_seen", int64_t{0});
            by_id[id] = u;
        }
    }
    if (auto me = by_id.find(r.account()); me != by_id.end()) me->second.last_seen_ms = now;

    for (const auto& a : agents(host, r)) {
        User u = named(text(a, "name"), text(a, "name"), "agent");
        u.agent = true;
        if (!u.id.empty() && !by_id.count(u.id)) by_id[u.id] = u;
    }

    std::vector<User> out;
    out.reserve(by_id.size());
    for (auto& [id, u] : by_id) out.push_back(std::move(u));
    std::stable_sort(out.begin(), out.end(), [now](const User& a, const User& b) {
        if (a.online(now) != b.online(now)) return a.online(now);
        return a.created_ms > b.created_ms;  // ties keep the id order of the map
    });
    return out;
}

bool contains_folded(const std::string& text, const std::string& needle) {
    auto fold = [](unsigned char c) { return std::tolower(c); };
    return std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                       [&](char a, char b) { return fold(a) == fold(b); }) != text.end();
}

}  // namespace users
