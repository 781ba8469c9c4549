// model-builtin through its model provider table (platform_model_provider_t), loaded from its entry
// point on the SDK's fake host the way tests/unit/models drive model-openai: a whole conversation
// (a call, then the answer to its result), malformed requests, and "now" from the request's
// context or, without one, from the host's clock.
#include <gtest/gtest.h>

#include "../support/model_completion.hpp"
#include "../support/plugin_under_test.hpp"
#include "clocks.hpp"
#include "service_answers.hpp"

namespace {

using namespace plugin_test;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

class ModelBuiltinProvider : public ::testing::Test {
protected:
    void SetUp() override {
        char err[512] = {0};
        platform_entry_args_t args = plugin_test::entry_args(host.api(), err);
        desc_ = platform_plugin_entry(&args);
        ASSERT_NE(desc_, nullptr) << err;
        ASSERT_EQ(desc_->kind, PLATFORM_KIND_MODEL);
        EXPECT_EQ(platform::copy(desc_->id), "model-builtin");
        inst_ = desc_->on_create(host.api(), host.ctx(), platform::view(std::string("{}")), err,
                                 sizeof err);
        ASSERT_NE(inst_, nullptr) << err;
    }
    void TearDown() override {
        if (inst_ && desc_->on_destroy) desc_->on_destroy(inst_);
    }

    Completion complete(const std::string& body) { return complete_with(desc_, inst_, body); }
    Completion complete(const json& request) { return complete(request.dump()); }

    FakeHost host;
    const platform_plugin_desc_t* desc_ = nullptr;
    void* inst_ = nullptr;
};

// The tools the agent lists for a caller who may use everything model-builtin knows.
json all_tools() {
    json out = json::array();
    for (const char* name :
         {"notes_add", "notes_list", "notes_get", "notes_delete", "tasks_create", "tasks_list",
          "events_create", "events_list", "events_free", "contacts_find"})
        out.push_back(
            {{"name", name}, {"description", "..."}, {"input_schema", {{"type", "object"}}}});
    return out;
}

json paris_context() {
    return {{"now", builtin_test::kParisNow}, {"timezone", "Europe/Paris"}, {"account", "ann"}};
}

json user(const std::string& text) {
    return {{"role", "user"}, {"content", text}};
}

TEST_F(ModelBuiltinProvider, ATwoTurnConversationCallsAToolThenAnswersFromItsResult) {
    json request = {{"system", "You are assistant, an agent working for the account ann."},
                    {"messages", {user("remind me tomorrow at 9 to call the dentist")}},
                    {"tools", all_tools()},
                    {"max_tokens", 1024},
                    {"context", paris_context()}};
    Completion first = complete(request);
    ASSERT_EQ(first.code, PLATFORM_OK) << first.text;
    const json call = {
        {"id", "call_1"},
        {"name", "events_create"},
        {"arguments", {{"title", "call the dentist"}, {"when", "2026-11-26T09:00:00+01:00"}}}};
    EXPECT_EQ(first.answer(), (json{{"text", ""},
                                    {"tool_calls", {call}},
                                    {"stop", "tool_calls"},
                                    {"model", "builtin"},
                                    {"usage", {{"input_tokens", 0}, {"output_tokens", 0}}}}));

    // The agent runs the call and sends its result back (plugins/agent/agent_loop.cpp's shapes).
    request["messages"].push_back({{"role", "assistant"}, {"content", ""}, {"tool_calls", {call}}});
    const json created =
        builtin_test::answers::event("call the dentist", "2026-11-26T09:00:00+01:00", "ev-1");
    request["messages"].push_back({{"role", "tool"},
                                   {"tool_call_id", "call_1"},
                                   {"name", "events_create"},
                                   {"content", created.dump()},
                                   {"is_error", false}});
    Completion second = complete(request);
    ASSERT_EQ(second.code, PLATFORM_OK) << second.text;
    EXPECT_EQ(second.answer(),
              text_reply("I'll remind you on Thursday 26 November at 09:00: call the dentist.",
                         "builtin", 0, 0));

    // The thread goes on: the next call's id follows the ones already in the conversation.
    request["messages"].push_back({{"role", "assistant"}, {"content", second.answer()["text"]}});
    request["messages"].push_back(user("please note that the boiler code is 4512"));
    Completion third = complete(request);
    ASSERT_EQ(third.code, PLATFORM_OK) << third.text;
    EXPECT_EQ(
        third.answer()["tool_calls"],
        (json{{{"id", "call_2"},
               {"name", "notes_add"},
               {"arguments", {{"title", "boiler code"}, {"text", "the boiler code is 4512"}}}}}));
    EXPECT_EQ(third.answer()["stop"], "tool_calls");
}

TEST_F(ModelBuiltinProvider, UnlistedToolsAreRefusedAndUnknownRequestsGetTheHelpText) {
    json refused = complete({{"messages", {user("note that the boiler code is 4512")}},
                             {"tools", {{{"name", "tasks_create"}}}},
                             {"context", paris_context()}})
                       .answer();
    EXPECT_EQ(refused["tool_calls"], json::array());
    EXPECT_EQ(refused["stop"], "end");
    EXPECT_EQ(refused["text"],
              "I can't do that: this agent may not use notes with your current permissions.");

    Completion help = complete({{"messages", {user("tell me a joke")}}, {"tools", all_tools()}});
    ASSERT_EQ(help.code, PLATFORM_OK) << help.text;
    const std::string text = help.answer()["text"];
    EXPECT_EQ(help.answer()["stop"], "end");
    EXPECT_EQ(help.answer()["tool_calls"], json::array());
    EXPECT_TRUE(has(text, "note that the boiler code is 4512")) << text;
    EXPECT_TRUE(has(text, "find Ann's number")) << text;
    EXPECT_TRUE(has(text, "model.provider openai")) << text;
    EXPECT_TRUE(has(text, "model.provider anthropic")) << text;

    // A conversation that ends with the assistant (nothing asked) gets the help text too.
    json ended =
        complete({{"messages", {user("hi"), {{"role", "assistant"}, {"content", "hello"}}}}})
            .answer();
    EXPECT_TRUE(has(ended["text"].get<std::string>(), "model.provider")) << ended;
    EXPECT_EQ(ended["stop"], "end");
}

TEST_F(ModelBuiltinProvider, MalformedRequestsAreInvalidArgumentsNamingTheField) {
    Completion c = complete(json::object());
    EXPECT_EQ(c.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(has(c.text, "messages")) << c.text;
    c = complete({{"messages", json::array()}});
    EXPECT_EQ(c.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(has(c.text, "messages")) << c.text;
    c = complete({{"messages", "hello"}});
    EXPECT_EQ(c.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(has(c.text, "messages")) << c.text;
    c = complete({{"messages", {{{"role", "robot"}, {"content", "x"}}}}});
    EXPECT_EQ(c.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(has(c.text, "messages[0].role")) << c.text;
    c = complete(
        {{"messages", {user("what are my notes")}}, {"tools", {{{"description", "no name"}}}}});
    EXPECT_EQ(c.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(has(c.text, "tools")) << c.text;
    c = complete(std::string("not json"));
    EXPECT_EQ(c.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(has(c.text, "request")) << c.text;
}

TEST_F(ModelBuiltinProvider, ContextNowAndTimezoneAreHonoured) {
    // Saturday 28 March 2026 in Paris: tomorrow is the first day of summer time.
    json request = {
        {"messages", {user("remind me tomorrow at 9 to call the dentist")}},
        {"tools", all_tools()},
        {"context", {{"now", "2026-03-28T10:00:00+01:00"}, {"timezone", "Europe/Paris"}}}};
    EXPECT_EQ(complete(request).answer()["tool_calls"][0]["arguments"]["when"],
              "2026-03-29T09:00:00+02:00");
    request["context"] = {{"now", "2026-11-25T22:30:00-05:00"}, {"timezone", "America/New_York"}};
    EXPECT_EQ(complete(request).answer()["tool_calls"][0]["arguments"]["when"],
              "2026-11-26T09:00:00-05:00");
    // Without a timezone the offset of `now` is kept.
    request["context"] = {{"now", "2026-11-25T10:00:00+05:30"}};
    EXPECT_EQ(complete(request).answer()["tool_calls"][0]["arguments"]["when"],
              "2026-11-26T09:00:00+05:30");
}

TEST_F(ModelBuiltinProvider, WithoutContextTheHostsClockInUtcIsUsed) {
    host.now_ms = 1795593600000;  // 2026-11-25T08:00:00Z, a Wednesday
    const json request = {{"messages", {user("remind me tomorrow at 9 to call the dentist")}},
                          {"tools", all_tools()}};
    EXPECT_EQ(complete(request).answer()["tool_calls"][0]["arguments"]["when"],
              "2026-11-26T09:00:00Z");
    const json free = {{"messages", {user("what's free on Friday")}}, {"tools", all_tools()}};
    EXPECT_EQ(complete(free).answer()["tool_calls"][0]["arguments"],
              (json{{"from", "2026-11-27T00:00:00Z"}, {"to", "2026-11-28T00:00:00Z"}}));
    // The clock moves with the host's.
    host.now_ms += 2 * 86400000LL;  // Friday
    EXPECT_EQ(complete(request).answer()["tool_calls"][0]["arguments"]["when"],
              "2026-11-28T09:00:00Z");
    // A context without `now` also falls back.
    const json no_now = {{"messages", {user("remind me tomorrow at 9 to call the dentist")}},
                         {"tools", all_tools()},
                         {"context", {{"account", "ann"}}}};
    EXPECT_EQ(complete(no_now).answer()["tool_calls"][0]["arguments"]["when"],
              "2026-11-28T09:00:00Z");
}

// An app build as the apps plugin sends it (decision 60): the app_html tool is the return channel.
TEST_F(ModelBuiltinProvider, AnAppBuildAnswersFromATemplateOrNamesTheModelSetting) {
    const json app_html = {{"name", "app_html"},
                           {"description", "Return the finished app."},
                           {"input_schema",
                            {{"type", "object"},
                             {"properties",
                              {{"name", {{"type", "string"}}},
                               {"description", {{"type", "string"}}},
                               {"html", {{"type", "string"}}}}},
                             {"required", {"name", "html"}}}}};
    json request = {{"system", "You build one small self-contained HTML app."},
                    {"messages", {user("a packing list checklist")}},
                    {"tools", {app_html}},
                    {"max_tokens", 16000}};
    Completion built = complete(request);
    ASSERT_EQ(built.code, PLATFORM_OK) << built.text;
    const json answer = built.answer();
    EXPECT_EQ(answer["stop"], "tool_calls");
    EXPECT_EQ(answer["text"], "");
    ASSERT_EQ(answer["tool_calls"].size(), 1u);
    EXPECT_EQ(answer["tool_calls"][0]["id"], "call_1");
    EXPECT_EQ(answer["tool_calls"][0]["name"], "app_html");
    EXPECT_EQ(answer["tool_calls"][0]["arguments"]["name"], "Checklist");
    EXPECT_TRUE(
        has(answer["tool_calls"][0]["arguments"]["html"].get<std::string>(), "<h1>Checklist</h1>"));

    request["messages"] = {user("a spreadsheet with charts")};
    Completion refused = complete(request);
    ASSERT_EQ(refused.code, PLATFORM_OK) << refused.text;
    EXPECT_EQ(refused.answer()["stop"], "end");
    EXPECT_TRUE(refused.answer()["tool_calls"].empty());
    EXPECT_TRUE(has(refused.answer()["text"].get<std::string>(), "set model.provider to openai"))
        << refused.text;
}

}  // namespace
