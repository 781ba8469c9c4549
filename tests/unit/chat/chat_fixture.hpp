// chat_fixture.hpp — the chat plugin (plugins/chat/) loaded into the fake host with scripted
// neighbours, for the chat unit tests: a groups service (groups/read, groups/list) that knows
// kTeam (ann and bob members, ivy invited) and kSecret (encrypted; ann), and an agent service
// (agent/list: assistant, the default, and helper; agent/run answers "answer to <prompt>" and is
// recorded in `runs` with the account it ran for), and, when `accounts` is set, an auth service
// listing them (auth/listAccounts). Live streams end after 1 s without a message.
// The hooks run on the test's thread and on the plugin's answerer thread: `m` guards `runs`.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace chat_test {

using namespace plugin_test;

struct Group {
    std::string name;
    bool encrypted = false;
    std::set<std::string> members, invited;
};

inline const std::string kTeam(32, 'a'), kSecret(32, 'b'), kNowhere(32, 'c');

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
        if (service == "auth" && method == "listAccounts" && accounts) {
            json list = json::array();
            for (const auto& id : *accounts) list.push_back({{"id", id}});
            return reply(PLATFORM_OK, json{{"accounts", list}}.dump());
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
    std::optional<std::vector<std::string>> accounts;  // none: no auth service (auth-noop)
    FakeHost host;
    FakePlugin chat = host.load(platform_plugin_entry, {{"live_idle_ms", 1000}});
};

}  // namespace chat_test
