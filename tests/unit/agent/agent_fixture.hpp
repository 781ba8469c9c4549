// The agent plugin's test fixture (agent_test.cpp, agent_internal_test.cpp): the plugin loaded in
// the SDK's fake host with a scripted model and a set of caller tools; calls to other services
// are recorded in `made` and answered by a few canned replies.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace agent_test {

using namespace plugin_test;

// The model and the caller's tools, installed in the fake host's table (model_complete,
// call_tools of ABI 1.5). Answers are given in order; the last one repeats.
struct ScriptedModel {
    std::vector<json> answers;
    std::vector<json> requests;
    platform_status_t fail = PLATFORM_OK;
    std::string message;
    json tools;
};
inline ScriptedModel* g_model = nullptr;

// A caller tool as call_tools lends it; `read_only` adds MCP's annotations {readOnlyHint: true}.
inline json tool(const std::string& name, const std::string& service, const std::string& method,
                 bool read_only = false) {
    json t = {{"name", name},
              {"title", name},
              {"description", "the " + name + " tool"},
              {"inputSchema", {{"type", "object"}}},
              {"service", service},
              {"method", method}};
    if (read_only) t["annotations"] = {{"readOnlyHint", true}};
    return t;
}

inline json calls(std::vector<json> list) {
    return {{"text", ""}, {"tool_calls", list}, {"stop", "tool_calls"}, {"model", "scripted"}};
}
inline json call(const std::string& id, const std::string& name, json args) {
    return {{"id", id}, {"name", name}, {"arguments", args}};
}
inline json text(const std::string& t) {
    return {{"text", t}, {"tool_calls", json::array()}, {"stop", "end"}, {"model", "scripted"}};
}

inline void install(FakeHost& host, ScriptedModel& model) {
    g_model = &model;
    auto* api = const_cast<platform_host_api_t*>(host.api());
    api->model_complete = [](platform_host_ctx_t*, platform_str_t req, platform_bytes_sink_fn sink,
                             void* user) -> platform_status_t {
        auto& m = *g_model;
        m.requests.push_back(json::parse(platform::view(req)));
        if (m.fail != PLATFORM_OK) {
            sink(user, platform::view(m.message));
            return m.fail;
        }
        const std::string out = m.answers[std::min(m.requests.size(), m.answers.size()) - 1].dump();
        sink(user, platform::view(out));
        return PLATFORM_OK;
    };
    api->call_tools = [](platform_call_t*, platform_bytes_sink_fn sink,
                         void* user) -> platform_status_t {
        const std::string out = g_model->tools.dump();
        sink(user, platform::view(out));
        return PLATFORM_OK;
    };
}

struct ServiceCall {
    std::string service, method, account;
    json request;
};

class AgentTest : public ::testing::Test {
protected:
    AgentTest() {
        model.tools = json::array({tool("notes_add", "v1.notes", "Notes.Add"),
                                   tool("notes_list", "v1.notes", "Notes.List", true),
                                   tool("tasks_create", "v1.tasks", "Tasks.Create"),
                                   tool("agent_ask", "v1.agent", "Agent.Ask"),
                                   tool("work_submit", "v1.work", "Work.Submit"),
                                   tool("inbox_list", "v1.inbox", "Inbox.List")});
        install(host, model);
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& request, const std::string& account) -> Reply {
            if (service == "auth") {
                if (zone.empty()) return reply(PLATFORM_NOT_FOUND, "");
                return reply(
                    PLATFORM_OK,
                    json{{"account", {{"id", account}, {"metadata", {{"timezone", zone}}}}}}
                        .dump());
            }
            made.push_back({service, method, account, request});
            if (method == "Notes.Add")
                return reply(PLATFORM_OK, json{{"title", request.value("title", "")}}.dump());
            if (method == "Tasks.Create")
                return reply(PLATFORM_INVALID_ARGUMENT, "title: required");
            return reply(PLATFORM_OK, R"({"notes":[{"title":"boiler","text":"4512"}]})");
        };
    }

    Reply ask(const json& args, const std::string& who = "ann",
              std::map<std::string, std::string> headers = {}) {
        return agent.call("ask", args, who, std::move(headers));
    }
    // The stored record `collection/<owner>/<id>` of the plugin's store.
    json stored(const std::string& collection, const std::string& owner, const std::string& id) {
        auto& t = host.tables[""];
        auto it = t.find(collection + "/" + owner + "/" + id);
        return it == t.end() ? json() : json::parse(it->second.value);
    }
    // Keys of the plugin's store that start with `prefix` ("threads/", "messages/ann/"...).
    std::vector<std::string> keys(const std::string& prefix) {
        std::vector<std::string> out;
        for (const auto& [key, entry] : host.tables[""])
            if (key.rfind(prefix, 0) == 0) out.push_back(key);
        return out;
    }
    std::vector<std::string> tool_names(const json& request) {
        std::vector<std::string> out;
        for (const auto& t : request.at("tools")) out.push_back(t.at("name"));
        return out;
    }

    ScriptedModel model;
    std::vector<ServiceCall> made;
    std::string zone;
    FakeHost host;
    FakePlugin agent = host.load(
        platform_plugin_entry, {{"agents", json::array({{{"name", "notetaker"},
                                                         {"description", "Keeps notes"},
                                                         {"instructions", "Only ever take notes."},
                                                         {"services", {"notes"}}}})}});
};

}  // namespace agent_test
