// model-openai through the SDK's fake host (model_harness.hpp): settings, the request it sends,
// the retry rule and the error mapping.
#include "model_harness.hpp"

namespace {

using models_test::ModelHarness;
using nlohmann::json;
using plugin_test::text_reply;

const json kAsk = {{"messages", {{{"role", "user"}, {"content", "hi"}}}}};

json text_answer(const std::string& text) {
    return {
        {"model", "served"},
        {"choices",
         {{{"message", {{"role", "assistant"}, {"content", text}}}, {"finish_reason", "stop"}}}},
        {"usage", {{"prompt_tokens", 5}, {"completion_tokens", 2}}}};
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

struct OpenAiProvider : ::testing::Test {
    ModelHarness h{"OPENAI"};
};

TEST_F(OpenAiProvider, PostsToTheChatCompletionsOfTheEnvironmentsBaseUrl) {
    h.env("_BASE_URL", "http://127.0.0.1:9/v1/");
    h.env("_API_KEY", "sk-env");
    h.env("_MODEL", "llama3");
    h.answer(200, text_answer("Hello."));
    auto c = h.complete(kAsk);
    ASSERT_EQ(c.code, PLATFORM_OK) << c.text;
    EXPECT_EQ(c.answer(), text_reply("Hello.", "served", 5, 2));
    ASSERT_EQ(h.sent.size(), 1u);
    EXPECT_EQ(h.sent[0].method, "POST");
    EXPECT_EQ(h.sent[0].url, "http://127.0.0.1:9/v1/chat/completions");
    EXPECT_EQ(h.sent[0].headers["Authorization"], "Bearer sk-env");
    EXPECT_EQ(h.sent[0].headers["Content-Type"], "application/json");
    EXPECT_TRUE(h.sent[0].flags & PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(h.sent[0].timeout_ms, 60000);
    EXPECT_EQ(h.sent[0].body,
              (json{{"model", "llama3"}, {"messages", {{{"role", "user"}, {"content", "hi"}}}}}));
}

TEST_F(OpenAiProvider, ConfigServiceWinsOverProfileConfigWhichWinsOverTheEnvironment) {
    h.env("_BASE_URL", "http://env.example/v1");
    h.env("_MODEL", "env-model");
    h.env("_API_KEY", "env-key");
    h.config_service = {
        {"model", {{"openai", {{"base_url", "http://config.example/v1"}, {"timeout_ms", 1500}}}}}};
    h.load({{"model", "profile-model"}, {"base_url", "http://profile.example/v1"}});
    h.answer(200, text_answer("a"));
    ASSERT_EQ(h.complete(kAsk).code, PLATFORM_OK);
    EXPECT_EQ(h.sent[0].url, "http://config.example/v1/chat/completions");
    EXPECT_EQ(h.sent[0].body["model"], "profile-model");
    EXPECT_EQ(h.sent[0].headers["Authorization"], "Bearer env-key");
    EXPECT_EQ(h.sent[0].timeout_ms, 1500);

    // Read again at each completion: a later config change applies at once.
    h.config_service["model"]["openai"]["api_key"] = "config-key";
    h.answer(200, text_answer("b"));
    ASSERT_EQ(h.complete(kAsk).code, PLATFORM_OK);
    EXPECT_EQ(h.sent[1].headers["Authorization"], "Bearer config-key");
}

TEST_F(OpenAiProvider, DefaultsAreOpenAiAndNeedAKey) {
    auto c = h.complete(kAsk);
    EXPECT_EQ(c.code, PLATFORM_UNAVAILABLE) << c.text;
    EXPECT_EQ(c.text, "model.openai.api_key (or OPENAI_API_KEY) is not set");
    EXPECT_TRUE(h.sent.empty());
    h.env("_API_KEY", "sk-1");
    h.answer(200, text_answer("ok"));
    ASSERT_EQ(h.complete(kAsk).code, PLATFORM_OK);
    EXPECT_EQ(h.sent[0].url, "https://api.openai.com/v1/chat/completions");
    EXPECT_EQ(h.sent[0].body["model"], "gpt-4o-mini");
}

TEST_F(OpenAiProvider, LocalServersNeedNoKey) {
    h.env("_BASE_URL", "http://localhost:11434/v1");
    h.answer(200, text_answer("ok"));
    ASSERT_EQ(h.complete(kAsk).code, PLATFORM_OK);
    EXPECT_FALSE(h.sent[0].headers.contains("Authorization"));
}

TEST_F(OpenAiProvider, UpstreamErrorsAreBadGatewayWithTheUpstreamsMessage) {
    h.env("_BASE_URL", "http://127.0.0.1:9/v1");
    h.answer(500, {{"error", {{"message", "The server had an error"}, {"type", "server_error"}}}});
    auto c = h.complete(kAsk);
    EXPECT_EQ(c.code, PLATFORM_BAD_GATEWAY);
    EXPECT_EQ(c.text, "openai answered 500: The server had an error");
    EXPECT_EQ(h.sent.size(), 1u);  // 500 is not retried

    h.answer(401, {{"error", {{"message", "Incorrect API key provided"}}}});
    c = h.complete(kAsk);
    EXPECT_EQ(c.code, PLATFORM_BAD_GATEWAY);
    EXPECT_TRUE(has(c.text, "openai answered 401: Incorrect API key provided")) << c.text;
    EXPECT_TRUE(has(c.text, "model.openai.api_key (or OPENAI_API_KEY)")) << c.text;

    h.answer(404, {{"error", "model \"nope\" not found, try pulling it first"}});  // Ollama's shape
    c = h.complete(kAsk);
    EXPECT_EQ(c.text, "openai answered 404: model \"nope\" not found, try pulling it first");
}

TEST_F(OpenAiProvider, MalformedAnswersAreBadGateways) {
    h.env("_BASE_URL", "http://127.0.0.1:9/v1");
    h.answer_raw(200, "<html>proxy error</html>");
    auto c = h.complete(kAsk);
    EXPECT_EQ(c.code, PLATFORM_BAD_GATEWAY);
    EXPECT_TRUE(has(c.text, "openai answered malformed JSON")) << c.text;
    h.answer(200, {{"unexpected", true}});
    c = h.complete(kAsk);
    EXPECT_EQ(c.code, PLATFORM_BAD_GATEWAY);
    EXPECT_TRUE(has(c.text, "choices")) << c.text;
    EXPECT_EQ(h.sent.size(), 2u);  // never retried after a 200
}

TEST_F(OpenAiProvider, RetriesOnceOn429And503AndRefusedConnections) {
    h.env("_BASE_URL", "http://127.0.0.1:9/v1");
    h.answer(429, {{"error", {{"message", "slow down"}}}}, {{"retry-after", "0"}});
    h.answer(200, text_answer("after 429"));
    auto c = h.complete(kAsk);
    ASSERT_EQ(c.code, PLATFORM_OK) << c.text;
    EXPECT_EQ(c.answer()["text"], "after 429");
    EXPECT_EQ(h.sent.size(), 2u);

    h.answer(503, {{"error", {{"message", "overloaded"}}}}, {{"retry-after", "0"}});
    h.answer(503, {{"error", {{"message", "still overloaded"}}}}, {{"retry-after", "0"}});
    c = h.complete(kAsk);
    EXPECT_EQ(c.code, PLATFORM_BAD_GATEWAY);
    EXPECT_EQ(c.text, "openai answered 503: still overloaded");
    EXPECT_EQ(h.sent.size(), 4u);  // one retry, not more

    h.fail(PLATFORM_BAD_GATEWAY,
           "POST http://127.0.0.1:9/v1/chat/completions: Failed to connect to 127.0.0.1 port 9: "
           "Connection refused");
    h.answer(200, text_answer("after refusal"));
    c = h.complete(kAsk);
    ASSERT_EQ(c.code, PLATFORM_OK) << c.text;
    EXPECT_EQ(h.sent.size(), 6u);
}

TEST_F(OpenAiProvider, TimeoutsAreNotRetried) {
    h.env("_BASE_URL", "http://127.0.0.1:9/v1");
    h.fail(PLATFORM_TIMEOUT, "no complete response within 60000 ms");
    auto c = h.complete(kAsk);
    EXPECT_EQ(c.code, PLATFORM_TIMEOUT);
    EXPECT_TRUE(has(c.text, "model.openai.timeout_ms")) << c.text;
    EXPECT_EQ(h.sent.size(), 1u);
}

TEST_F(OpenAiProvider, ARefusedUrlNamesTheBaseUrlSetting) {
    h.env("_BASE_URL", "http://10.0.0.5/v1");
    h.fail(PLATFORM_PERMISSION_DENIED,
           "refused: 10.0.0.5 is a private address; operator upstreams there belong in "
           "outbound.allow");
    auto c = h.complete(kAsk);
    EXPECT_EQ(c.code, PLATFORM_UNAVAILABLE);
    EXPECT_TRUE(has(c.text, "model.openai.base_url (or OPENAI_BASE_URL)")) << c.text;
    EXPECT_TRUE(has(c.text, "outbound.allow")) << c.text;
}

TEST_F(OpenAiProvider, MalformedRequestsAreRefusedBeforeAnyFetch) {
    h.env("_BASE_URL", "http://127.0.0.1:9/v1");
    auto c = h.complete({{"messages", "hi"}});
    EXPECT_EQ(c.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(has(c.text, "messages")) << c.text;
    EXPECT_TRUE(h.sent.empty());
}

}  // namespace
