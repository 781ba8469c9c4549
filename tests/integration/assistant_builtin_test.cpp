// The assistant offline: each sample request of model-builtin (plugins/model-builtin/README.md)
// asked through the agent (POST /api/v1/agent/ask) on the real host, test profile — no model
// configured, so the built-in router answers — and its effect checked through the real service
// (notes, tasks, events, contacts). auth-noop: the bearer token text is the account id, and
// accounts have no time zone, so the agent's context is UTC. The manual business clock is set to
// Wednesday 25 November 2026, 08:00 UTC before each test.
#include <gtest/gtest.h>

#include "catalogue_test.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

constexpr int64_t kWednesday0800 = 1795593600000;  // 2026-11-25T08:00:00Z

class AssistantBuiltin : public platform::test::CatalogueTest {
protected:
    AssistantBuiltin() : CatalogueTest("agent") {}

    void SetUp() override {
        ASSERT_EQ(api.post_json("/clock/set", {{"unix_ms", kWednesday0800}}).status, 200);
    }

    // Asks the default agent (or `agent`) as `who`; the reply's text, after checking the answer is 200.
    std::string ask(const std::string& prompt, const std::string& who,
                    const std::string& agent = "") {
        json body = {{"prompt", prompt}};
        if (!agent.empty()) body["agent"] = agent;
        const HttpResult r = post("ask", body, who);
        EXPECT_EQ(r.status, 200) << prompt << ": " << r.body;
        if (r.status != 200) return "";
        const json data = r.json()["data"];
        EXPECT_TRUE(data["text"].is_string()) << r.body;
        return data.value("text", "");
    }

    // A catalogue call (`/api/v1/<service>/<method>`) as `who`, answered 200: its data.
    json data_of(const HttpResult& r) {
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    json get_from(const std::string& service, const std::string& method_and_query,
                  const std::string& who) {
        return data_of(api.get("/api/v1/" + service + "/" + method_and_query, as(who)));
    }
    json post_to(const std::string& service, const std::string& method, const json& body,
                 const std::string& who) {
        return data_of(api.post_json("/api/v1/" + service + "/" + method, body, as(who)));
    }
};

TEST_F(AssistantBuiltin, NoteThatTheBoilerCodeIs4512SavesTheNote) {
    const std::string text = ask("note that the boiler code is 4512", "ab-notes");
    EXPECT_EQ(text, "Noted: boiler code.");
    const json note = get_from("notes", "get?title=boiler%20code", "ab-notes");
    EXPECT_EQ(note["text"], "the boiler code is 4512") << note;
    // Only its owner's.
    EXPECT_EQ(api.get("/api/v1/notes/get?title=boiler%20code", as("ab-other")).status, 404);
}

TEST_F(AssistantBuiltin, WhatAreMyNotesListsThem) {
    EXPECT_EQ(ask("what are my notes", "ab-list"), "You have no notes.");
    post_to("notes", "add", {{"title", "gate code"}, {"text", "1234"}}, "ab-list");
    ASSERT_EQ(ask("Please note that the wifi password is hunter2, thanks!", "ab-list"),
              "Noted: wifi password.");
    EXPECT_EQ(ask("what are my notes?", "ab-list"),
              "Your notes:\n- gate code: 1234\n- wifi password: the wifi password is hunter2");
}

TEST_F(AssistantBuiltin, AddATaskToRenewThePassportCreatesIt) {
    EXPECT_EQ(ask("could you add a task to renew the passport", "ab-tasks"),
              "Added the task “renew the passport”.");
    const json tasks = get_from("tasks", "list", "ab-tasks");
    ASSERT_EQ(tasks["tasks"].size(), 1u) << tasks;
    EXPECT_EQ(tasks["tasks"][0]["title"], "renew the passport");
    EXPECT_EQ(tasks["tasks"][0]["status"], "todo");
    EXPECT_TRUE(tasks["tasks"][0]["due"].is_null()) << tasks;
    EXPECT_EQ(ask("what are my tasks", "ab-tasks"), "Your tasks:\n- renew the passport (todo)");
}

TEST_F(AssistantBuiltin, RemindMeTomorrowAt9CreatesAnEventAtNineTheNextDay) {
    EXPECT_EQ(ask("remind me tomorrow at 9 to call the dentist", "ab-remind"),
              "I'll remind you on Thursday 26 November at 09:00: call the dentist.");
    const json events = get_from("events", "list", "ab-remind");
    ASSERT_EQ(events["events"].size(), 1u) << events;
    EXPECT_EQ(events["events"][0]["title"], "call the dentist");
    EXPECT_EQ(events["events"][0]["when"], "2026-11-26T09:00:00Z");  // the next day, 09:00 in UTC
    EXPECT_EQ(ask("what's on my calendar", "ab-remind"),
              "Your upcoming events:\n- Thursday 26 November at 09:00: call the dentist");
}

TEST_F(AssistantBuiltin, RemindMeIsATaskDueThenForAnAgentWithoutEvents) {
    ASSERT_EQ(
        post("create",
             {{"name", "planner"}, {"instructions", "Plan my tasks."}, {"services", {"tasks"}}},
             "ab-planner")
            .status,
        200);
    EXPECT_EQ(ask("remind me tomorrow at 9 to call the dentist", "ab-planner", "planner"),
              "Added the task “call the dentist” (due Thursday 26 November at 09:00).");
    const json tasks = get_from("tasks", "list", "ab-planner");
    ASSERT_EQ(tasks["tasks"].size(), 1u) << tasks;
    EXPECT_EQ(tasks["tasks"][0]["title"], "call the dentist");
    EXPECT_EQ(tasks["tasks"][0]["due"], "2026-11-26T09:00:00Z");
    EXPECT_EQ(get_from("events", "list", "ab-planner")["events"].size(), 0u);

    // A service the agent may not use is refused, never called.
    EXPECT_EQ(ask("note that the boiler code is 4512", "ab-planner", "planner"),
              "I can't do that: this agent may not use notes with your current permissions.");
    EXPECT_EQ(get_from("notes", "list", "ab-planner")["notes"].size(), 0u);
}

TEST_F(AssistantBuiltin, WhatsFreeOnFridayAnswersWithThatDaysSlots) {
    EXPECT_EQ(ask("what's free on Friday", "ab-free"),
              "You are free on Friday 27 November: 09:00–18:00.");
    post_to("events", "create",
            {{"title", "haircut"}, {"when", "2026-11-27T10:00:00Z"}, {"minutes", 30}}, "ab-free");
    EXPECT_EQ(ask("what's free on Friday", "ab-free"),
              "You are free on Friday 27 November: 09:00–10:00, 10:30–18:00.");
}

TEST_F(AssistantBuiltin, FindAnnsNumberAnswersHerPhone) {
    EXPECT_EQ(ask("find Ann's number", "ab-contacts"), "No contact matches “Ann”.");
    post_to("contacts", "add",
            {{"name", "Ann Smith"}, {"phone", "+44 20 7946 0000"}, {"email", "ann@example.org"}},
            "ab-contacts");
    post_to("contacts", "add", {{"name", "Bob Jones"}, {"phone", "+33 1 23 45 67 89"}},
            "ab-contacts");
    EXPECT_EQ(ask("find Ann's number", "ab-contacts"),
              "Ann Smith: phone +44 20 7946 0000, email ann@example.org");
    // Another account's book is not searched.
    EXPECT_EQ(ask("find Ann's number", "ab-stranger"), "No contact matches “Ann”.");
}

TEST_F(AssistantBuiltin, ARequestNoRuleKnowsGetsTheHelpText) {
    const HttpResult r = post("ask", {{"prompt", "tell me a joke"}}, "ab-help");
    ASSERT_EQ(r.status, 200) << r.body;
    const std::string text = r.json()["data"]["text"];
    EXPECT_TRUE(has(text, "model.provider")) << text;
    EXPECT_TRUE(has(text, "note that the boiler code is 4512")) << text;
    EXPECT_TRUE(has(text, "find Ann's number")) << text;
    EXPECT_EQ(get_from("notes", "list", "ab-help")["notes"].size(), 0u);  // nothing was done
}

}  // namespace
