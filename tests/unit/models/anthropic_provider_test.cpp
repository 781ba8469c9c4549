// model-anthropic through the SDK's fake host (model_harness.hpp): settings, headers, URL and
// errors (the retry rule and the error shapes are plugins/common/model's, tested with model-openai).
#include "model_harness.hpp"

namespace {

using models_test::ModelHarness;
using nlohmann::json;
using plugin_test::text_reply;

const json kAsk = {{"system", "S"}, {"messages", {{{"role", "user"}, {"content", "hi"}}}}};

json text_answer(const std::string& text) {
    return {{"type", "message"},
            {"model", "claude-served"},
            {"content", {{{"type", "text"}, {"text", text}}}},
            {"stop_reason", "end_turn"},
            {"usage", {{"input_tokens", 8}, {"output_tokens", 4}}}};
}

struct AnthropicProvider : ::testing::Test {
    ModelHarness h{"ANTHROPIC"};
};

TEST_F(AnthropicProvider, DefaultsAreAnthropicWithKeyAndVersionHeaders) {
    h.env("_API_KEY", "sk-ant-1");
    h.answer(200, text_answer("Hello."));
    auto c = h.complete(kAsk);
    ASSERT_EQ(c.code, PLATFORM_OK) << c.text;
    EXPECT_EQ(c.answer(), text_reply("Hello.", "claude-served", 8, 4));
    ASSERT_EQ(h.sent.size(), 1u);
    EXPECT_EQ(h.sent[0].url, "https://api.anthropic.com/v1/messages");
    EXPECT_EQ(h.sent[0].headers["x-api-key"], "sk-ant-1");
    EXPECT_EQ(h.sent[0].headers["anthropic-version"], "2023-06-01");
    EXPECT_FALSE(h.sent[0].headers.contains("Authorization"));
    EXPECT_TRUE(h.sent[0].flags & PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(h.sent[0].body,
              (json{{"model", "claude-sonnet-4-5"},
                    {"max_tokens", 1024},
                    {"system", "S"},
                    {"messages",
                     {{{"role", "user"}, {"content", {{{"type", "text"}, {"text", "hi"}}}}}}}}));
}

TEST_F(AnthropicProvider, PublicEndpointWithoutKeyIsUnavailable) {
    auto c = h.complete(kAsk);
    EXPECT_EQ(c.code, PLATFORM_UNAVAILABLE);
    EXPECT_EQ(c.text, "model.anthropic.api_key (or ANTHROPIC_API_KEY) is not set");
    EXPECT_TRUE(h.sent.empty());
}

TEST_F(AnthropicProvider, ConfigServiceSettingsAndABaseUrlEndingInV1) {
    h.env("_API_KEY", "env-key");
    h.config_service = {{"model",
                         {{"anthropic",
                           {{"base_url", "http://127.0.0.1:7/v1"},
                            {"model", "claude-test"},
                            {"api_key", "cfg-key"}}}}}};
    h.answer(200, text_answer("ok"));
    ASSERT_EQ(h.complete(kAsk).code, PLATFORM_OK);
    EXPECT_EQ(h.sent[0].url, "http://127.0.0.1:7/v1/messages");
    EXPECT_EQ(h.sent[0].headers["x-api-key"], "cfg-key");
    EXPECT_EQ(h.sent[0].body["model"], "claude-test");
}

TEST_F(AnthropicProvider, UpstreamErrors) {
    h.env("_BASE_URL", "http://127.0.0.1:7");
    h.answer(500, {{"type", "error"},
                   {"error", {{"type", "api_error"}, {"message", "Internal server error"}}}});
    auto c = h.complete(kAsk);
    EXPECT_EQ(c.code, PLATFORM_BAD_GATEWAY);
    EXPECT_EQ(c.text, "anthropic answered 500: Internal server error");
    h.answer(401,
             {{"type", "error"},
              {"error", {{"type", "authentication_error"}, {"message", "invalid x-api-key"}}}});
    c = h.complete(kAsk);
    EXPECT_EQ(c.text,
              "anthropic answered 401: invalid x-api-key (check model.anthropic.api_key (or "
              "ANTHROPIC_API_KEY))");
    h.answer_raw(200, "{\"content\": [");
    c = h.complete(kAsk);
    EXPECT_EQ(c.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(c.text.find("anthropic answered malformed JSON"), std::string::npos) << c.text;
    EXPECT_EQ(h.sent.size(), 3u);
    EXPECT_FALSE(h.sent[0].headers.contains("x-api-key"));  // a non-public base URL needs no key
}

}  // namespace
