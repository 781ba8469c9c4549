// The parts the HTTP model providers share (plugins/common/model): settings layers, URL hosts,
// upstream error messages, the retry wait, the neutral request's checks and tool arguments.
#include <gtest/gtest.h>

#include <map>

#include "../support/model_completion.hpp"
#include "common/model/model_settings.hpp"
#include "common/model/neutral.hpp"
#include "common/model/upstream_call.hpp"

namespace {

using namespace common::model;
using nlohmann::json;

const SettingNames kNames{"openai", "OPENAI", "https://api.openai.com/v1", "gpt-4o-mini"};

auto env_of(std::map<std::string, std::string> vars) {
    return [vars](const std::string& name) {
        auto it = vars.find(name);
        return it == vars.end() ? std::string() : it->second;
    };
}

TEST(ModelSettings, FirstNonEmptyLayerWins) {
    const auto none = merge_settings(kNames, json::object(), json::object(), env_of({}));
    EXPECT_EQ(none.base_url, "https://api.openai.com/v1");
    EXPECT_EQ(none.model, "gpt-4o-mini");
    EXPECT_EQ(none.api_key, "");
    EXPECT_EQ(none.timeout_ms, 60000);
    EXPECT_EQ(none.key_setting, "model.openai.api_key (or OPENAI_API_KEY)");
    EXPECT_EQ(none.base_setting, "model.openai.base_url (or OPENAI_BASE_URL)");

    const auto env = merge_settings(kNames, json::object(), json::object(),
                                    env_of({{"OPENAI_BASE_URL", "http://h:1/v1//"},
                                            {"OPENAI_API_KEY", "k"},
                                            {"OPENAI_MODEL", "m"}}));
    EXPECT_EQ(env.base_url, "http://h:1/v1");
    EXPECT_EQ(env.api_key, "k");
    EXPECT_EQ(env.model, "m");

    const auto layered =
        merge_settings(kNames, {{"model", ""}, {"api_key", "svc"}, {"timeout_ms", "2500"}},
                       {{"model", "prof"}, {"api_key", "prof-key"}, {"timeout_ms", 100}},
                       env_of({{"OPENAI_MODEL", "envm"}, {"OPENAI_BASE_URL", "http://e/v1"}}));
    EXPECT_EQ(layered.api_key, "svc");
    EXPECT_EQ(layered.model, "prof");  // "" in the config service counts as unset
    EXPECT_EQ(layered.base_url, "http://e/v1");
    EXPECT_EQ(layered.timeout_ms, 2500);
}

TEST(ModelSettings, UrlHost) {
    EXPECT_EQ(url_host("https://api.openai.com/v1"), "api.openai.com");
    EXPECT_EQ(url_host("https://API.Anthropic.com"), "api.anthropic.com");
    EXPECT_EQ(url_host("http://127.0.0.1:8080/v1"), "127.0.0.1");
    EXPECT_EQ(url_host("http://[::1]:11434"), "::1");
    EXPECT_EQ(url_host("http://user@api.openai.com:443/x"), "api.openai.com");
}

TEST(UpstreamCall, ErrorMessagesOfEveryShape) {
    EXPECT_EQ(upstream_error_message(R"({"error":{"message":"bad key","type":"x"}})"), "bad key");
    EXPECT_EQ(upstream_error_message(
                  R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"),
              "Overloaded");
    EXPECT_EQ(upstream_error_message(R"({"error":"model not found"})"), "model not found");
    EXPECT_EQ(upstream_error_message(R"({"message":"nope"})"), "nope");
    EXPECT_EQ(upstream_error_message("plain text"), "plain text");
    EXPECT_EQ(upstream_error_message(""), "(empty body)");
    EXPECT_EQ(upstream_error_message(std::string(300, 'x')).size(), 203u);
}

TEST(UpstreamCall, RetryWaitIsRetryAfterCappedAtTwoSeconds) {
    EXPECT_EQ(retry_wait_ms(json::object()), 250);
    EXPECT_EQ(retry_wait_ms({{"retry-after", "1"}}), 1000);
    EXPECT_EQ(retry_wait_ms({{"retry-after", "0.5"}}), 500);
    EXPECT_EQ(retry_wait_ms({{"retry-after", "120"}}), 2000);
    EXPECT_EQ(retry_wait_ms({{"retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"}}), 250);
    EXPECT_TRUE(connection_refused(
        "Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server"));
    EXPECT_FALSE(connection_refused("Could not resolve host: nowhere.invalid"));
}

TEST(Neutral, ArgumentsObject) {
    std::string problem;
    EXPECT_EQ(arguments_object({{"a", 1}}, &problem), (json{{"a", 1}}));
    EXPECT_EQ(arguments_object("{\"a\":1}", &problem), (json{{"a", 1}}));
    EXPECT_TRUE(problem.empty());
    EXPECT_EQ(arguments_object("{oops", &problem), json::object());
    EXPECT_FALSE(problem.empty());
    problem.clear();
    EXPECT_EQ(arguments_object(json::array({1}), &problem), json::object());
    EXPECT_FALSE(problem.empty());
}

TEST(Neutral, SystemTextFoldsSystemMessages) {
    const json req = {
        {"system", "A"},
        {"messages",
         {{{"role", "system"}, {"content", "B"}}, {{"role", "user"}, {"content", "C"}}}}};
    EXPECT_EQ(system_text(req), "A\n\nB");
    EXPECT_EQ(content_text(nullptr), "");
    EXPECT_EQ(content_text({{"k", 1}}), "{\"k\":1}");
}

TEST(Neutral, ReplyFieldsReadLeniently) {
    const json body = {{"id", "x1"}, {"n", 3}, {"usage", {{"in", 7}, {"out", "8"}}}};
    EXPECT_EQ(string_or(body, "id", "fallback"), "x1");
    EXPECT_EQ(string_or(body, "n", "fallback"), "fallback");  // not a string
    EXPECT_EQ(string_or(json::array(), "id", "fallback"), "fallback");
    EXPECT_EQ(token_count(body["usage"], "in"), 7);
    EXPECT_EQ(token_count(body["usage"], "out"), 0);  // not an integer
    EXPECT_EQ(token_count(nullptr, "in"), 0);
    EXPECT_EQ(json_text(std::string("a\xff")), "\"a\xef\xbf\xbd\"");  // invalid UTF-8 replaced
}

TEST(Neutral, ReplyStopIsToolCallsThenTheLimitThenEnd) {
    const json call = {{"id", "c"}, {"name", "t"}, {"arguments", json::object()}};
    EXPECT_EQ(neutral_reply("", json::array({call}), true, "m", 1, 2)["stop"], "tool_calls");
    EXPECT_EQ(neutral_reply("hi", json::array(), true, "m", 1, 2)["stop"], "max_tokens");
    EXPECT_EQ(neutral_reply("hi", json::array(), false, "m", 1, 2),
              plugin_test::text_reply("hi", "m", 1, 2));
}

}  // namespace
