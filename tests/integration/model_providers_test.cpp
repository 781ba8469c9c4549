// The HTTP model providers (plugins/model-openai, plugins/model-anthropic) in the real host, against
// the scripted fake model server (support/fake_model_server.hpp). The test-only `modelprobe` plugin
// calls Host::complete; the profile is profiles/test.yaml with the provider chosen under
// `providers: model:` and the fake server's 127.0.0.1:port on outbound.allow. Asserted: the exact
// upstream requests of a two-step tool exchange (tool schemas, the tool call and its result,
// headers), the translated answers, settings from the config service, and the errors: upstream
// 500 → 502 with its message, malformed JSON → 502, no key for the public endpoint → 503 naming
// the setting, no answer within model.openai.timeout_ms → 408; a 429 is retried once.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "build_tree.hpp"
#include "fake_model_server.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

namespace fs = std::filesystem;

// The error message of an /api/v1 answer ({"error": {"code", "message"}}).
std::string detail(const HttpResult& r) {
    auto j = json::parse(r.body, nullptr, false);
    return j.is_object() && j.contains("error") && j["error"].is_object()
               ? j["error"].value("message", r.body)
               : r.body;
}

// The result of an /api/v1 answer ({"data": ...}).
json data(const HttpResult& r) {
    return r.json().at("data");
}

const json kSchema = {
    {"type", "object"},
    {"properties", {{"title", {{"type", "string"}}}, {"text", {{"type", "string"}}}}},
    {"required", {"title"}}};
const json kTools = {
    {{"name", "notes_add"}, {"description", "Adds a note"}, {"input_schema", kSchema}}};

// The neutral request of the first step: the user asks, tools offered.
json first_request() {
    return {{"system", "You keep notes."},
            {"messages", {{{"role", "user"}, {"content", "Remember the boiler code 4512"}}}},
            {"tools", kTools},
            {"max_tokens", 256}};
}

// The second step: the model's tool call and its result appended.
json second_request(const json& tool_call) {
    json r = first_request();
    r["messages"].push_back({{"role", "assistant"}, {"content", ""}, {"tool_calls", {tool_call}}});
    r["messages"].push_back({{"role", "tool"},
                             {"tool_call_id", tool_call["id"]},
                             {"name", "notes_add"},
                             {"content", "{\"title\":\"boiler\"}"},
                             {"is_error", false}});
    return r;
}

class ModelProviders : public ::testing::Test {
protected:
    // Starts the host with model-<provider> and `env` (unset provider variables are set empty, so
    // the developer's own OPENAI_API_KEY... never leaks in).
    void start(const std::string& provider, std::map<std::string, std::string> env) {
        std::ifstream in(fs::path(platform::test::source_dir()) / "profiles" / "test.yaml");
        ASSERT_TRUE(in);
        std::stringstream text;
        text << in.rdbuf();
        std::string yaml = text.str();
        const size_t at = yaml.find("\nproviders:\n");
        ASSERT_NE(at, std::string::npos);
        yaml.insert(at + 12, "  model:\n    plugin: model-" + provider + "\n");
        const std::string profile = dir.path() + "/model-providers-test.yaml";
        std::ofstream(profile) << yaml << "\noutbound:\n  allow: [\"" << model.allow_entry()
                               << "\"]\n";
        HostProcess::Options o;
        o.profile = profile;
        for (const char* v : {"OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL",
                              "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_MODEL"})
            o.env[v] = "";
        for (auto& [k, v] : env) o.env[k] = v;
        host = std::make_unique<HostProcess>(o);
        host->start();
        api = std::make_unique<HttpClient>("127.0.0.1", host->api_port());
    }

    HttpResult complete(const json& request) {
        return api->post_json("/api/v1/modelprobe/complete", {{"request", request}},
                              {{"Authorization", "Bearer ann"}});
    }

    void config_set(const std::string& path, const json& value, bool secret = false) {
        auto r =
            api->post_json("/config/set", {{"path", path}, {"value", value}, {"secret", secret}},
                           {{"Authorization", "Bearer admin"}});
        ASSERT_EQ(r.status, 200) << r.body;
    }

    FakeModelServer model;
    TempDir dir;
    std::unique_ptr<HostProcess> host;
    std::unique_ptr<HttpClient> api;
};

TEST_F(ModelProviders, OpenAiToolCallThenTextAnswer) {
    start("openai", {{"OPENAI_BASE_URL", model.url("/v1")},
                     {"OPENAI_API_KEY", "sk-test"},
                     {"OPENAI_MODEL", "gpt-test"}});
    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::ok(FakeModelServer::openai_tool_call(
                      "call_1", "notes_add", {{"title", "boiler"}, {"text", "4512"}})));
    model.enqueue(FakeModelServer::kOpenAiPath, FakeModelServer::ok(FakeModelServer::openai_text(
                                                    "Noted: 4512.", "gpt-test-0613", 40, 6)));

    auto one = complete(first_request());
    ASSERT_EQ(one.status, 200) << one.body << host->log();
    const json call = {{"id", "call_1"},
                       {"name", "notes_add"},
                       {"arguments", {{"title", "boiler"}, {"text", "4512"}}}};
    EXPECT_EQ(data(one), (json{{"text", ""},
                               {"tool_calls", {call}},
                               {"stop", "tool_calls"},
                               {"model", "gpt-test"},
                               {"usage", {{"input_tokens", 11}, {"output_tokens", 7}}}}));

    auto two = complete(second_request(call));
    ASSERT_EQ(two.status, 200) << two.body;
    EXPECT_EQ(data(two), (json{{"text", "Noted: 4512."},
                               {"tool_calls", json::array()},
                               {"stop", "end"},
                               {"model", "gpt-test-0613"},
                               {"usage", {{"input_tokens", 40}, {"output_tokens", 6}}}}));

    const auto seen = model.requests(FakeModelServer::kOpenAiPath);
    ASSERT_EQ(seen.size(), 2u);
    for (const auto& r : seen) {
        EXPECT_EQ(r.method, "POST");
        EXPECT_EQ(r.header("authorization"), "Bearer sk-test");
        EXPECT_EQ(r.header("content-type"), "application/json");
    }
    const json tools = {
        {{"type", "function"},
         {"function",
          {{"name", "notes_add"}, {"description", "Adds a note"}, {"parameters", kSchema}}}}};
    const json system = {{"role", "system"}, {"content", "You keep notes."}};
    const json user = {{"role", "user"}, {"content", "Remember the boiler code 4512"}};
    EXPECT_EQ(seen[0].body, (json{{"model", "gpt-test"},
                                  {"messages", {system, user}},
                                  {"tools", tools},
                                  {"max_tokens", 256}}));
    const json assistant = {
        {"role", "assistant"},
        {"content", nullptr},
        {"tool_calls",
         {{{"id", "call_1"},
           {"type", "function"},
           {"function",
            {{"name", "notes_add"},
             {"arguments", json({{"text", "4512"}, {"title", "boiler"}}).dump()}}}}}}};
    const json result = {
        {"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "{\"title\":\"boiler\"}"}};
    EXPECT_EQ(seen[1].body, (json{{"model", "gpt-test"},
                                  {"messages", {system, user, assistant, result}},
                                  {"tools", tools},
                                  {"max_tokens", 256}}));
}

TEST_F(ModelProviders, OpenAiUpstreamFailures) {
    start("openai", {{"OPENAI_BASE_URL", model.url("/v1")}});
    model.enqueue(
        FakeModelServer::kOpenAiPath,
        FakeModelServer::status(500, FakeModelServer::openai_error("The model is on fire")));
    auto r = complete(first_request());
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_EQ(detail(r), "openai answered 500: The model is on fire");
    EXPECT_EQ(model.requests().size(), 1u);                      // a 500 is not retried
    EXPECT_EQ(model.requests()[0].header("authorization"), "");  // a local base URL needs no key

    model.enqueue(FakeModelServer::kOpenAiPath, FakeModelServer::malformed("{\"choices\": [", 200));
    r = complete(first_request());
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_TRUE(has(detail(r), "openai answered malformed JSON")) << r.body;

    // 429 is retried once, after Retry-After.
    auto busy = FakeModelServer::status(
        429, FakeModelServer::openai_error("Rate limit reached", "rate_limit_exceeded"));
    busy.headers.emplace_back("Retry-After", "0");
    model.enqueue(FakeModelServer::kOpenAiPath, busy);
    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::ok(FakeModelServer::openai_text("after the wait")));
    r = complete(first_request());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(data(r)["text"], "after the wait");
    EXPECT_EQ(model.requests().size(), 4u);
}

TEST_F(ModelProviders, OpenAiSettingsComeFromTheConfigServiceAtEachCompletion) {
    start("openai", {});
    auto r = complete(first_request());  // api.openai.com without a key: no request leaves
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(detail(r), "model.openai.api_key (or OPENAI_API_KEY) is not set");

    config_set("model.openai.base_url", model.url("/v1"));
    config_set("model.openai.model", "from-config");
    config_set("model.openai.api_key", "sk-sealed", true);
    model.enqueue(FakeModelServer::kOpenAiPath,
                  FakeModelServer::ok(FakeModelServer::openai_text("configured")));
    r = complete(first_request());
    ASSERT_EQ(r.status, 200) << r.body << host->log();
    EXPECT_EQ(data(r)["text"], "configured");
    ASSERT_EQ(model.requests().size(), 1u);
    EXPECT_EQ(model.requests()[0].header("authorization"), "Bearer sk-sealed");
    EXPECT_EQ(model.requests()[0].body["model"], "from-config");
}

TEST_F(ModelProviders, OpenAiTimeoutIs408AndNotRetried) {
    start("openai", {{"OPENAI_BASE_URL", model.url("/v1")}});
    config_set("model.openai.timeout_ms", 300);
    model.enqueue(FakeModelServer::kOpenAiPath, FakeModelServer::never());
    auto r = complete(first_request());
    EXPECT_EQ(r.status, 408) << r.body;
    EXPECT_TRUE(has(detail(r), "openai did not answer within 300 ms (model.openai.timeout_ms)"))
        << r.body;
    EXPECT_EQ(model.requests().size(), 1u);
}

TEST_F(ModelProviders, AnthropicToolUseThenTextAnswer) {
    start("anthropic", {{"ANTHROPIC_BASE_URL", model.url()},
                        {"ANTHROPIC_API_KEY", "sk-ant-test"},
                        {"ANTHROPIC_MODEL", "claude-test"}});
    model.enqueue(FakeModelServer::kAnthropicPath,
                  FakeModelServer::ok(FakeModelServer::anthropic_tool_use(
                      {{"toolu_1", "notes_add", {{"title", "boiler"}, {"text", "4512"}}, ""}},
                      "I'll note it.")));
    model.enqueue(
        FakeModelServer::kAnthropicPath,
        FakeModelServer::ok(FakeModelServer::anthropic_text("Noted.", "claude-test-1", 50, 3)));

    auto one = complete(first_request());
    ASSERT_EQ(one.status, 200) << one.body << host->log();
    const json call = {{"id", "toolu_1"},
                       {"name", "notes_add"},
                       {"arguments", {{"title", "boiler"}, {"text", "4512"}}}};
    EXPECT_EQ(data(one), (json{{"text", "I'll note it."},
                               {"tool_calls", {call}},
                               {"stop", "tool_calls"},
                               {"model", "claude-test"},
                               {"usage", {{"input_tokens", 13}, {"output_tokens", 9}}}}));
    auto two = complete(second_request(call));
    ASSERT_EQ(two.status, 200) << two.body;
    EXPECT_EQ(data(two), (json{{"text", "Noted."},
                               {"tool_calls", json::array()},
                               {"stop", "end"},
                               {"model", "claude-test-1"},
                               {"usage", {{"input_tokens", 50}, {"output_tokens", 3}}}}));

    const auto seen = model.requests(FakeModelServer::kAnthropicPath);
    ASSERT_EQ(seen.size(), 2u);
    for (const auto& r : seen) {
        EXPECT_EQ(r.header("x-api-key"), "sk-ant-test");
        EXPECT_EQ(r.header("anthropic-version"), "2023-06-01");
        EXPECT_EQ(r.header("authorization"), "");
    }
    const json tools = {
        {{"name", "notes_add"}, {"description", "Adds a note"}, {"input_schema", kSchema}}};
    const json user = {
        {"role", "user"},
        {"content", {{{"type", "text"}, {"text", "Remember the boiler code 4512"}}}}};
    EXPECT_EQ(seen[0].body, (json{{"model", "claude-test"},
                                  {"max_tokens", 256},
                                  {"system", "You keep notes."},
                                  {"messages", {user}},
                                  {"tools", tools}}));
    const json assistant = {{"role", "assistant"},
                            {"content",
                             {{{"type", "tool_use"},
                               {"id", "toolu_1"},
                               {"name", "notes_add"},
                               {"input", {{"title", "boiler"}, {"text", "4512"}}}}}}};
    const json result = {{"role", "user"},
                         {"content",
                          {{{"type", "tool_result"},
                            {"tool_use_id", "toolu_1"},
                            {"content", "{\"title\":\"boiler\"}"},
                            {"is_error", false}}}}};
    EXPECT_EQ(seen[1].body, (json{{"model", "claude-test"},
                                  {"max_tokens", 256},
                                  {"system", "You keep notes."},
                                  {"messages", {user, assistant, result}},
                                  {"tools", tools}}));
}

TEST_F(ModelProviders, AnthropicErrors) {
    start("anthropic", {{"ANTHROPIC_BASE_URL", model.url("/v1")}, {"ANTHROPIC_API_KEY", "k"}});
    model.enqueue(
        FakeModelServer::kAnthropicPath,
        FakeModelServer::status(500, FakeModelServer::anthropic_error("Internal server error")));
    auto r = complete(first_request());
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_EQ(detail(r), "anthropic answered 500: Internal server error");
    ASSERT_EQ(model.requests().size(), 1u);
    EXPECT_EQ(model.requests()[0].path, "/v1/messages");  // a base URL ending in /v1 is not doubled
}

TEST_F(ModelProviders, AnthropicWithoutAKeyIsUnavailable) {
    start("anthropic",
          {});  // the default base URL is api.anthropic.com: refused before any request
    auto r = complete(first_request());
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(detail(r), "model.anthropic.api_key (or ANTHROPIC_API_KEY) is not set");
}

}  // namespace
