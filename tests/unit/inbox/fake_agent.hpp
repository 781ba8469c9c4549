// A stand-in for the agent plugin's internal endpoints (threads, messages, mark; the contract in
// plugins/agent/README.md) behind the fake host's on_call, for the inbox and recall tests: each
// account's thread headers (most recently active first) and messages, and every call made.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace inbox_test {

using namespace plugin_test;

struct AgentCall {
    std::string service, method, account;
    json request;
};

struct FakeAgent {
    std::map<std::string, std::vector<json>> threads;   // account -> headers, most recent first
    std::map<std::string, std::vector<json>> messages;  // thread id -> messages, oldest first
    std::vector<AgentCall> calls;
    bool loaded = true;  // false: no agent service (call_service answers NOT_FOUND)

    // Adds a thread of `account` with `count` messages m1, m2... (the newest first in the list).
    void add(const std::string& account, const std::string& id, const std::string& channel,
             int count, int unread) {
        auto& list = messages[id];
        for (int i = 1; i <= count; ++i)
            list.push_back({{"seq", i},
                            {"role", i % 2 ? "user" : "assistant"},
                            {"text", "m" + std::to_string(i)},
                            {"at", "2026-01-01T00:00:00Z"},
                            {"at_ms", 1},
                            {"channel", channel},
                            {"agent", "assistant"},
                            {"steps", json::array()}});
        json header = {{"id", id},
                       {"title", "about " + id},
                       {"channel", channel},
                       {"agent", "assistant"},
                       {"created", "2026-01-01T00:00:00Z"},
                       {"updated", "2026-01-01T00:01:00Z"},
                       {"messages", count},
                       {"unread", unread},
                       {"last",
                        {{"role", "assistant"},
                         {"text", "m" + std::to_string(count)},
                         {"at", "2026-01-01T00:01:00Z"},
                         {"channel", channel}}}};
        threads[account].insert(threads[account].begin(), header);
    }

    json* find(const std::string& account, const std::string& id) {
        for (auto& h : threads[account])
            if (h["id"] == id) return &h;
        return nullptr;
    }

    Reply operator()(const std::string& service, const std::string& method, const json& request,
                     const std::string& account) {
        calls.push_back({service, method, account, request});
        if (!loaded || service != "agent") return reply(PLATFORM_NOT_FOUND, "");
        if (method == "threads") {
            json out = json::array();
            for (const auto& h : threads[account])
                if ((!request.contains("channel") || h["channel"] == request["channel"]) &&
                    out.size() < request.value("limit", 20u))
                    out.push_back(h);
            return reply(PLATFORM_OK, json{{"threads", out}}.dump());
        }
        json* header = find(account, request.value("id", ""));
        if (!header) return reply(PLATFORM_NOT_FOUND, "thread: no such conversation");
        if (method == "mark") {
            (*header)["unread"] = request.at("unread").get<bool>() ? 1 : 0;
            return reply(PLATFORM_OK, header->dump());
        }
        if (method == "messages") {
            const auto& all = messages[request["id"]];
            const size_t limit = request.value("limit", 0u),
                         from = limit && limit < all.size() ? all.size() - limit : 0;
            return reply(PLATFORM_OK,
                         json{{"thread", *header},
                              {"messages", std::vector<json>(all.begin() + from, all.end())}}
                             .dump());
        }
        return reply(PLATFORM_NOT_FOUND, "");
    }
};

}  // namespace inbox_test
