// model-anthropic's translation (plugins/model-anthropic/anthropic_format.hpp), both ways,
// without a host.
#include "../../../plugins/model-anthropic/anthropic_format.hpp"

#include <gtest/gtest.h>

#include <platform/sdk/error.hpp>

namespace {

using model_anthropic::from_upstream;
using model_anthropic::messages_url;
using model_anthropic::to_upstream;
using nlohmann::json;

const json kSchema = {{"type", "object"}, {"properties", {{"title", {{"type", "string"}}}}}};

TEST(AnthropicFormat, RequestWithToolUseAndMergedToolResults) {
    const json req = {
        {"system", "Be brief."},
        {"messages",
         {{{"role", "user"}, {"content", "Add two notes"}},
          {{"role", "assistant"},
           {"content", "Adding them."},
           {"tool_calls",
            {{{"id", "toolu_1"}, {"name", "notes_add"}, {"arguments", {{"title", "a"}}}},
             {{"id", "toolu_2"}, {"name", "notes_add"}, {"arguments", {{"title", "b"}}}}}}},
          {{"role", "tool"},
           {"tool_call_id", "toolu_1"},
           {"name", "notes_add"},
           {"content", "ok a"},
           {"is_error", false}},
          {{"role", "tool"},
           {"tool_call_id", "toolu_2"},
           {"name", "notes_add"},
           {"content", "exists"},
           {"is_error", true}},
          {{"role", "user"}, {"content", "Thanks"}}}},
        {"tools",
         {{{"name", "notes_add"}, {"description", "Adds a note"}, {"input_schema", kSchema}}}}};
    const json expected = {
        {"model", "claude-x"},
        {"max_tokens", 1024},
        {"system", "Be brief."},
        {"messages",
         {{{"role", "user"}, {"content", {{{"type", "text"}, {"text", "Add two notes"}}}}},
          {{"role", "assistant"},
           {"content",
            {{{"type", "text"}, {"text", "Adding them."}},
             {{"type", "tool_use"},
              {"id", "toolu_1"},
              {"name", "notes_add"},
              {"input", {{"title", "a"}}}},
             {{"type", "tool_use"},
              {"id", "toolu_2"},
              {"name", "notes_add"},
              {"input", {{"title", "b"}}}}}}},
          {{"role", "user"},
           {"content",
            {{{"type", "tool_result"},
              {"tool_use_id", "toolu_1"},
              {"content", "ok a"},
              {"is_error", false}},
             {{"type", "tool_result"},
              {"tool_use_id", "toolu_2"},
              {"content", "exists"},
              {"is_error", true}},
             {{"type", "text"}, {"text", "Thanks"}}}}}}},
        {"tools",
         {{{"name", "notes_add"}, {"description", "Adds a note"}, {"input_schema", kSchema}}}}};
    const json up = to_upstream(req, "claude-x");
    EXPECT_EQ(up, expected) << up.dump(2);
}

TEST(AnthropicFormat, EmptyTextIsDroppedAndSameRolesMerge) {
    const json req = {
        {"max_tokens", 50},
        {"messages",
         {{{"role", "user"}, {"content", "a"}},
          {{"role", "user"}, {"content", "b"}},
          {{"role", "assistant"}, {"content", ""}},
          {{"role", "assistant"},
           {"content", ""},
           {"tool_calls", {{{"id", "t"}, {"name", "x"}, {"arguments", "{\"k\":1}"}}}}}}}};
    const json up = to_upstream(req, "m");
    EXPECT_EQ(up["max_tokens"], 50);
    EXPECT_FALSE(up.contains("system"));
    EXPECT_FALSE(up.contains("tools"));
    ASSERT_EQ(up["messages"].size(), 2u) << up.dump();
    EXPECT_EQ(up["messages"][0]["content"],
              (json{{{"type", "text"}, {"text", "a"}}, {{"type", "text"}, {"text", "b"}}}));
    EXPECT_EQ(up["messages"][1]["content"],
              (json{{{"type", "tool_use"}, {"id", "t"}, {"name", "x"}, {"input", {{"k", 1}}}}}));
}

TEST(AnthropicFormat, MalformedRequestIsInvalidArgument) {
    try {
        to_upstream({{"messages", {{{"role", "tool"}, {"content", "x"}}}}}, "m");
        FAIL();
    } catch (const platform::Error& e) {
        EXPECT_EQ(e.code(), platform::Code::invalid_argument);
        EXPECT_NE(std::string(e.what()).find("messages[0].tool_call_id"), std::string::npos)
            << e.what();
    }
}

TEST(AnthropicFormat, TextAndToolUseAnswer) {
    const json body = {{"id", "msg_1"},
                       {"type", "message"},
                       {"model", "claude-sonnet-4-5-20250929"},
                       {"content",
                        {{{"type", "text"}, {"text", "Let me add it."}},
                         {{"type", "tool_use"},
                          {"id", "toolu_9"},
                          {"name", "notes_add"},
                          {"input", {{"title", "a"}}}}}},
                       {"stop_reason", "tool_use"},
                       {"usage", {{"input_tokens", 40}, {"output_tokens", 12}}}};
    EXPECT_EQ(from_upstream(body, "asked"),
              (json{{"text", "Let me add it."},
                    {"tool_calls",
                     {{{"id", "toolu_9"}, {"name", "notes_add"}, {"arguments", {{"title", "a"}}}}}},
                    {"stop", "tool_calls"},
                    {"model", "claude-sonnet-4-5-20250929"},
                    {"usage", {{"input_tokens", 40}, {"output_tokens", 12}}}}));
}

TEST(AnthropicFormat, TextBlocksJoinAndStopReasons) {
    const json body = {{"content",
                        {{{"type", "text"}, {"text", "one"}},
                         {{"type", "thinking"}, {"thinking", "x"}},
                         {{"type", "text"}, {"text", "two"}}}},
                       {"stop_reason", "end_turn"}};
    const json a = from_upstream(body, "asked");
    EXPECT_EQ(a["text"], "one\ntwo");
    EXPECT_EQ(a["stop"], "end");
    EXPECT_EQ(a["model"], "asked");
    EXPECT_EQ(a["tool_calls"], json::array());
    EXPECT_EQ(
        from_upstream({{"content", json::array()}, {"stop_reason", "max_tokens"}}, "m")["stop"],
        "max_tokens");
}

TEST(AnthropicFormat, NonObjectInputBecomesEmptyWithANote) {
    const json a = from_upstream(
        {{"content", {{{"type", "tool_use"}, {"id", "t"}, {"name", "n"}, {"input", "oops"}}}}},
        "m");
    EXPECT_EQ(a["tool_calls"][0]["arguments"], json::object());
    EXPECT_TRUE(a["tool_calls"][0].contains("arguments_error"));
}

TEST(AnthropicFormat, AnswerWithoutContentIsABadGateway) {
    try {
        from_upstream({{"type", "message"}}, "m");
        FAIL();
    } catch (const platform::Error& e) {
        EXPECT_EQ(e.code(), platform::Code::bad_gateway);
    }
}

TEST(AnthropicFormat, MessagesUrlDoesNotDoubleV1) {
    EXPECT_EQ(messages_url("https://api.anthropic.com"), "https://api.anthropic.com/v1/messages");
    EXPECT_EQ(messages_url("https://proxy.example/v1"), "https://proxy.example/v1/messages");
    EXPECT_EQ(messages_url("https://proxy.example/v1/"), "https://proxy.example/v1/messages");
    EXPECT_EQ(messages_url("http://127.0.0.1:5/anthropic"),
              "http://127.0.0.1:5/anthropic/v1/messages");
}

}  // namespace
