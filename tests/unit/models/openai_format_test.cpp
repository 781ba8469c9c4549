// model-openai's translation (plugins/model-openai/openai_format.hpp), both ways, without a host.
#include "../../../plugins/model-openai/openai_format.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <platform/sdk/error.hpp>

namespace {

using model_openai::from_upstream;
using model_openai::to_upstream;
using nlohmann::json;

const json kSchema = {
    {"type", "object"}, {"properties", {{"title", {{"type", "string"}}}}}, {"required", {"title"}}};

// A conversation after one tool round: user, assistant calling a tool, the tool's result.
json exchange() {
    return {{"system", "Be brief."},
            {"messages",
             {{{"role", "user"}, {"content", "Add a note"}},
              {{"role", "assistant"},
               {"content", ""},
               {"tool_calls",
                {{{"id", "call_1"}, {"name", "notes_add"}, {"arguments", {{"title", "a"}}}}}}},
              {{"role", "tool"},
               {"tool_call_id", "call_1"},
               {"name", "notes_add"},
               {"content", "{\"title\":\"a\"}"},
               {"is_error", false}}}},
            {"tools",
             {{{"name", "notes_add"}, {"description", "Adds a note"}, {"input_schema", kSchema}}}},
            {"max_tokens", 300}};
}

platform::Code code_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const platform::Error& e) {
        return e.code();
    }
    return platform::Code::ok;
}

TEST(OpenAiFormat, RequestCarriesSystemMessagesToolCallsResultsAndTools) {
    const json up = to_upstream(exchange(), "gpt-x");
    const json expected = {
        {"model", "gpt-x"},
        {"messages",
         {{{"role", "system"}, {"content", "Be brief."}},
          {{"role", "user"}, {"content", "Add a note"}},
          {{"role", "assistant"},
           {"content", nullptr},
           {"tool_calls",
            {{{"id", "call_1"},
              {"type", "function"},
              {"function", {{"name", "notes_add"}, {"arguments", "{\"title\":\"a\"}"}}}}}}},
          {{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "{\"title\":\"a\"}"}}}},
        {"tools",
         {{{"type", "function"},
           {"function",
            {{"name", "notes_add"}, {"description", "Adds a note"}, {"parameters", kSchema}}}}}},
        {"max_tokens", 300}};
    EXPECT_EQ(up, expected) << up.dump(2);
}

TEST(OpenAiFormat, MinimalRequestHasNoSystemToolsOrMaxTokens) {
    const json up = to_upstream({{"messages", {{{"role", "user"}, {"content", "hi"}}}}}, "m");
    EXPECT_EQ(up, (json{{"model", "m"}, {"messages", {{{"role", "user"}, {"content", "hi"}}}}}));
}

TEST(OpenAiFormat, ErrorResultsAreMarkedAndSchemasDefaulted) {
    json req = {{"messages",
                 {{{"role", "user"}, {"content", "x"}},
                  {{"role", "tool"},
                   {"tool_call_id", "c"},
                   {"content", "no such note"},
                   {"is_error", true}}}},
                {"tools", {{{"name", "t"}}}}};
    const json up = to_upstream(req, "m");
    EXPECT_EQ(up["messages"][1]["content"], "Error: no such note");
    EXPECT_EQ(up["tools"][0]["function"]["parameters"],
              (json{{"type", "object"}, {"properties", json::object()}}));
    EXPECT_EQ(up["tools"][0]["function"]["description"], "");
}

TEST(OpenAiFormat, MalformedRequestsNameTheField) {
    EXPECT_EQ(code_of([] { to_upstream(json::object(), "m"); }), platform::Code::invalid_argument);
    EXPECT_EQ(code_of([] {
                  to_upstream({{"messages", {{{"role", "robot"}}}}}, "m");
              }),
              platform::Code::invalid_argument);
    EXPECT_EQ(code_of([] {
                  to_upstream({{"messages", {{{"role", "tool"}, {"content", "x"}}}}}, "m");
              }),
              platform::Code::invalid_argument);
    EXPECT_EQ(code_of([] {
                  to_upstream(
                      {{"messages", json::array()}, {"tools", {{{"description", "no name"}}}}},
                      "m");
              }),
              platform::Code::invalid_argument);
    EXPECT_EQ(code_of([] {
                  to_upstream({{"messages", json::array()}, {"max_tokens", 0}}, "m");
              }),
              platform::Code::invalid_argument);
    try {
        to_upstream({{"messages", {{{"role", "user"}}, {{"role", "robot"}}}}}, "m");
        FAIL();
    } catch (const platform::Error& e) {
        EXPECT_NE(std::string(e.what()).find("messages[1].role"), std::string::npos) << e.what();
    }
}

TEST(OpenAiFormat, TextAnswer) {
    const json body = {
        {"model", "gpt-4o-mini-2024"},
        {"choices",
         {{{"index", 0},
           {"message", {{"role", "assistant"}, {"content", "Hello."}}},
           {"finish_reason", "stop"}}}},
        {"usage", {{"prompt_tokens", 12}, {"completion_tokens", 3}, {"total_tokens", 15}}}};
    EXPECT_EQ(from_upstream(body, "asked"),
              (json{{"text", "Hello."},
                    {"tool_calls", json::array()},
                    {"stop", "end"},
                    {"model", "gpt-4o-mini-2024"},
                    {"usage", {{"input_tokens", 12}, {"output_tokens", 3}}}}));
}

TEST(OpenAiFormat, ToolCallAnswerParsesTheArgumentsString) {
    const json body = {
        {"choices",
         {{{"message",
            {{"role", "assistant"},
             {"content", nullptr},
             {"tool_calls",
              {{{"id", "call_9"},
                {"type", "function"},
                {"function",
                 {{"name", "notes_add"}, {"arguments", "{\"title\":\"a\",\"n\":2}"}}}}}}}},
           {"finish_reason", "tool_calls"}}}}};
    const json a = from_upstream(body, "asked");
    EXPECT_EQ(a["text"], "");
    EXPECT_EQ(a["stop"], "tool_calls");
    EXPECT_EQ(a["model"], "asked");
    EXPECT_EQ(a["usage"], (json{{"input_tokens", 0}, {"output_tokens", 0}}));
    EXPECT_EQ(a["tool_calls"], (json{{{"id", "call_9"},
                                      {"name", "notes_add"},
                                      {"arguments", {{"title", "a"}, {"n", 2}}}}}));
}

TEST(OpenAiFormat, MalformedArgumentsBecomeEmptyWithANote) {
    const json body = {
        {"choices",
         {{{"message",
            {{"content", nullptr},
             {"tool_calls",
              {{{"id", "c1"}, {"function", {{"name", "a"}, {"arguments", "{\"title\": "}}}},
               {{"id", "c2"}, {"function", {{"name", "b"}, {"arguments", "[1,2]"}}}},
               {{"id", "c3"}, {"function", {{"name", "c"}, {"arguments", ""}}}}}}}},
           {"finish_reason", "tool_calls"}}}}};
    const json calls = from_upstream(body, "m")["tool_calls"];
    ASSERT_EQ(calls.size(), 3u);
    EXPECT_EQ(calls[0]["arguments"], json::object());
    EXPECT_NE(calls[0]["arguments_error"].get<std::string>().find("not valid JSON"),
              std::string::npos);
    EXPECT_EQ(calls[1]["arguments"], json::object());
    EXPECT_NE(calls[1]["arguments_error"].get<std::string>().find("not a JSON object"),
              std::string::npos);
    EXPECT_EQ(calls[2]["arguments"], json::object());
    EXPECT_FALSE(calls[2].contains("arguments_error"));
}

TEST(OpenAiFormat, StopReasons) {
    auto with = [](const std::string& finish, bool tools) {
        json message = {{"content", "t"}};
        if (tools)
            message["tool_calls"] = {
                {{"id", "x"}, {"function", {{"name", "n"}, {"arguments", "{}"}}}}};
        return from_upstream({{"choices", {{{"message", message}, {"finish_reason", finish}}}}},
                             "m")["stop"];
    };
    EXPECT_EQ(with("length", false), "max_tokens");
    EXPECT_EQ(with("stop", false), "end");
    EXPECT_EQ(with("content_filter", false), "end");
    EXPECT_EQ(with("stop", true), "tool_calls");  // Ollama says "stop" while calling tools
}

TEST(OpenAiFormat, ContentPartsAreJoined) {
    const json body = {
        {"choices",
         {{{"message",
            {{"content",
              {{{"type", "text"}, {"text", "a"}}, {{"type", "text"}, {"text", "b"}}}}}}}}}};
    EXPECT_EQ(from_upstream(body, "m")["text"], "ab");
}

TEST(OpenAiFormat, AnswerWithoutChoicesIsABadGateway) {
    EXPECT_EQ(code_of([] {
                  from_upstream({{"object", "list"}}, "m");
              }),
              platform::Code::bad_gateway);
    EXPECT_EQ(code_of([] {
                  from_upstream({{"choices", json::array()}}, "m");
              }),
              platform::Code::bad_gateway);
    EXPECT_EQ(code_of([] {
                  from_upstream({{"choices", {{{"text", "legacy"}}}}}, "m");
              }),
              platform::Code::bad_gateway);
}

}  // namespace
