// The host side of ABI 1.5 through the real host: model_complete picks its provider per call
// (the profile's, config model.provider switched at run time, the environment, an unloaded one →
// 503 naming it) and call_tools lends the caller's tools (anonymous, an account, a token scoped to
// notes; withheld endpoints and the calling plugin's own left out); token restrictions follow
// calls made as the caller, and the agent is governed by its capability (decision 30); an
// isolated plugin uses both. The test-only plugins: model-echo (a provider answering the last
// user message) and modelprobe (Host::complete, Request::tools(), Host::call as the caller).
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "fake_model_server.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
std::string detail(const HttpResult& r) {
    auto j = json::parse(r.body, nullptr, false);
    return j.is_object() && j.contains("Detail") ? j["Detail"].get<std::string>() : r.body;
}

const std::string kAdminSecret = "admin-secret-for-model-tests";

struct HostSetup {
    std::string auth = "auth: {plugin: auth-noop, config: {admins: [admin]}}";
    std::string model = "model: {plugin: model-echo}";  // "" = no profile choice
    std::string plugins = "all";
    std::string extra;  // more top-level YAML
    std::map<std::string, std::string> env;
};

class ModelHost : public ::testing::Test {
protected:
    void start(const HostSetup& s) {
        const std::string path = dir.path() + "/model-host.yaml";
        std::ofstream(path)
            << "name: model-host\n"
               "clock: real\n"
               "plugins: "
            << s.plugins
            << "\n"
               "test_plugins: true\n"
               "privileged: [registry, clock, config, store, broker, network, auth-local]\n"
               "providers:\n"
               "  store: {plugin: store-memory}\n"
               "  broker: {plugin: broker-memory}\n"
               "  events: {plugin: events-memory}\n"
               "  "
            << s.auth << "\n"
            << (s.model.empty() ? "" : "  " + s.model + "\n") << "outbound:\n  allow: [\""
            << upstream.allow_entry() << "\"]\n"
            << s.extra;
        HostProcess::Options o;
        o.profile = path;
        for (const char* v : {"OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL",
                              "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_MODEL"})
            o.env[v] = "";  // empty counts as unset: the developer's own keys never leak in
        o.env["PLATFORM_ADMIN_SECRET"] = kAdminSecret;
        for (const auto& [k, v] : s.env) o.env[k] = v;
        host = std::make_unique<HostProcess>(o);
        host->start();
        api = std::make_unique<HttpClient>("127.0.0.1", host->api_port());
    }

    HttpResult complete(const json& request, const std::string& who = "ann") {
        return api->post_json("/api/v1/modelprobe/complete", {{"request", request}},
                              who.empty() ? Headers{} : bearer(who));
    }
    static json ask(const std::string& text) {
        return {{"messages", {{{"role", "user"}, {"content", text}}}},
                {"context", {{"account", "ann"}, {"timezone", "UTC"}}}};
    }
    void config_set(const std::string& path, const json& value) {
        auto r = api->post_json("/config/set", {{"path", path}, {"value", value}}, bearer("admin"));
        ASSERT_EQ(r.status, 200) << r.body;
    }
    // modelprobe/tools as `credential` ("" = anonymous): the tool entries, after checking each shape.
    json tools(const std::string& credential) {
        auto r = api->post_json("/api/v1/modelprobe/tools", json::object(),
                                credential.empty() ? Headers{} : bearer(credential));
        EXPECT_EQ(r.status, 200) << r.body;
        if (r.status != 200) return json::array();
        json list = r.json()["data"]["tools"];
        for (const auto& t : list) {
            for (const char* k : {"name", "title", "description", "service", "method"})
                EXPECT_TRUE(t.contains(k) && t[k].is_string()) << k << " in " << t.dump();
            EXPECT_TRUE(t["inputSchema"].is_object()) << t.dump();
            EXPECT_FALSE(has(t.value("service", ""), "modelprobe"))
                << "its own service: " << t.dump();
        }
        return list;
    }
    static std::set<std::string> names(const json& list) {
        std::set<std::string> out;
        for (const auto& t : list) out.insert(t.value("name", ""));
        return out;
    }

    FakeModelServer upstream;
    TempDir dir;
    std::unique_ptr<HostProcess> host;
    std::unique_ptr<HttpClient> api;
};

TEST_F(ModelHost, TheProfilesProviderAnswersAndConfigSwitchesItAtRunTime) {
    start({});
    auto echo = complete(ask("hello there"));
    ASSERT_EQ(echo.status, 200) << echo.body << host->log();
    const json answer = echo.json()["data"];
    EXPECT_EQ(answer["text"], "hello there");
    EXPECT_EQ(answer["model"], "echo");
    EXPECT_EQ(answer["context"]["account"], "ann");  // the request reached the provider whole

    config_set("model.provider", "openai");  // loaded, but without a key for api.openai.com
    auto openai = complete(ask("hello"));
    EXPECT_EQ(openai.status, 503) << openai.body;
    EXPECT_TRUE(has(detail(openai), "model.openai.api_key")) << openai.body;

    config_set("model.provider", "nonesuch");
    auto unknown = complete(ask("hello"));
    EXPECT_EQ(unknown.status, 503) << unknown.body;
    EXPECT_TRUE(has(detail(unknown), "model-nonesuch")) << unknown.body;
    EXPECT_TRUE(has(detail(unknown), "model.provider")) << unknown.body;

    config_set("model.provider", "echo");
    auto back = complete(ask("again"));
    ASSERT_EQ(back.status, 200) << back.body;
    EXPECT_EQ(back.json()["data"]["text"], "again");

    auto failing = complete(ask("fail:13"));  // the provider's own error passes through
    EXPECT_EQ(failing.status, 502) << failing.body;
    EXPECT_TRUE(has(detail(failing), "model-echo was told to fail")) << failing.body;

    const std::string metrics = api->get("/metrics").body;
    EXPECT_TRUE(has(metrics, "platform_model_calls_total{provider=\"model-echo\",code=\"ok\"} 2"))
        << metrics;
    EXPECT_TRUE(has(
        metrics, "platform_model_calls_total{provider=\"model-nonesuch\",code=\"unavailable\"} 1"))
        << metrics;
}

TEST_F(ModelHost, RequestsWithoutMessagesAreRefusedNamingThem) {
    start({});
    for (const json& bad :
         {json{{"messages", "hi"}}, json{{"system", "x"}}, json::array(), json("text")}) {
        auto r = complete(bad);
        EXPECT_EQ(r.status, 400) << bad.dump() << " " << r.body;
        EXPECT_TRUE(has(detail(r), "messages")) << r.body;
    }
}

TEST_F(ModelHost, TheEnvironmentChoosesOpenAiAndConfigStillWins) {
    HostSetup s;
    s.env = {{"OPENAI_BASE_URL", upstream.url("/v1")}, {"OPENAI_API_KEY", "sk-test"}};
    start(s);
    upstream.enqueue(FakeModelServer::kOpenAiPath,
                     FakeModelServer::ok(FakeModelServer::openai_text("from the upstream")));
    auto r = complete(ask("hello"));
    ASSERT_EQ(r.status, 200) << r.body << host->log();
    EXPECT_EQ(r.json()["data"]["text"], "from the upstream");
    EXPECT_EQ(upstream.requests(FakeModelServer::kOpenAiPath).size(), 1u);

    config_set("model.provider", "echo");
    auto echo = complete(ask("hello"));
    ASSERT_EQ(echo.status, 200) << echo.body;
    EXPECT_EQ(echo.json()["data"]["model"], "echo");
    EXPECT_EQ(upstream.requests(FakeModelServer::kOpenAiPath).size(), 1u);
}

TEST_F(ModelHost, WithoutAProviderTheAnswerSaysHowToGetOne) {
    HostSetup none;
    none.model = "";
    none.plugins = "[modelprobe]";
    start(none);
    auto r = complete(ask("hello"), "");
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_TRUE(has(detail(r), "no model provider is loaded")) << r.body;
    EXPECT_TRUE(has(detail(r), "model-builtin")) << r.body;
}

TEST_F(ModelHost, AnUnloadedProviderChosenByTheEnvironmentIsNamed) {
    HostSetup s;
    s.plugins = "[modelprobe, model-echo]";
    s.env = {{"ANTHROPIC_API_KEY", "k"}};
    start(s);
    auto r = complete(ask("hello"), "");
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_TRUE(has(detail(r), "model-anthropic")) << r.body;
    EXPECT_TRUE(has(detail(r), "ANTHROPIC_API_KEY")) << r.body;
}

TEST_F(ModelHost, ToolsFollowTheCallerAndLeaveOutWithheldAndOwn) {
    start({});
    const json anonymous = tools("");
    EXPECT_FALSE(names(anonymous).count("notes_add"))
        << anonymous.dump();  // owner endpoints need an account

    const json ann = tools("ann");
    const auto seen = names(ann);
    EXPECT_TRUE(seen.count("notes_add")) << ann.dump();
    EXPECT_TRUE(seen.count("events_list")) << ann.dump();
    EXPECT_FALSE(seen.count("events_delete")) << "withheld from the agent: " << ann.dump();
    EXPECT_GT(ann.size(), anonymous.size());
    json notes_add;
    for (const auto& t : ann)
        if (t["name"] == "notes_add") notes_add = t;
    ASSERT_TRUE(notes_add.is_object()) << ann.dump();
    EXPECT_TRUE(ends_with(notes_add["service"], ".v1.notes")) << notes_add.dump();
    EXPECT_EQ(notes_add["method"], "Notes.Add");
    EXPECT_TRUE(notes_add["inputSchema"]["properties"].contains("title")) << notes_add.dump();
    // service/method are what call_service takes: calling them as ann works.
    auto called = api->post_json("/api/v1/modelprobe/call",
                                 {{"service", notes_add["service"]},
                                  {"method", notes_add["method"]},
                                  {"request", {{"title", "t"}, {"text", "x"}}}},
                                 bearer("ann"));
    ASSERT_EQ(called.status, 200) << called.body;
    EXPECT_EQ(called.json()["data"]["code"], 0) << called.body;
}

TEST_F(ModelHost, APluginInAWorkerUsesTheModelAndTheTools) {
    HostSetup s;
    s.extra = "isolation: {modelprobe: process}\n";
    start(s);
    auto r = complete(ask("from a worker"));
    ASSERT_EQ(r.status, 200) << r.body << host->log();
    EXPECT_EQ(r.json()["data"]["text"], "from a worker");
    auto bad = complete(json{{"messages", 1}});
    EXPECT_EQ(bad.status, 400) << bad.body;
    EXPECT_TRUE(has(detail(bad), "messages")) << bad.body;

    const auto seen = names(tools("ann"));
    EXPECT_TRUE(seen.count("notes_add"));
    EXPECT_FALSE(seen.count("events_delete"));
    EXPECT_FALSE(names(tools("")).count("notes_add"));
}

// auth-local: real accounts and personal tokens scoped to services and capabilities.
class ScopedTokens : public ModelHost {
protected:
    void SetUp() override {
        HostSetup s;
        s.auth = "auth: {plugin: auth-local, config: {admin_secret: \"${PLATFORM_ADMIN_SECRET}\"}}";
        start(s);
        admin = login("admin", kAdminSecret);
        auto made = api->post_json("/auth/createAccount",
                                   {{"id", "dave"}, {"secret", "dave-secret-1"}}, bearer(admin));
        ASSERT_EQ(made.status, 200) << made.body;
        dave = login("dave", "dave-secret-1");
    }
    std::string login(const std::string& id, const std::string& secret) {
        auto r = api->post_json("/auth/token", {{"id", id}, {"secret", secret}});
        EXPECT_EQ(r.status, 200) << r.body;
        return r.json().value("access_token", "");
    }
    std::string token(const json& request) {
        auto r = api->post_json("/auth/createToken", request, bearer(dave));
        EXPECT_EQ(r.status, 200) << r.body;
        return r.json().value("token", "");
    }
    int call_as(const std::string& credential, const std::string& service,
                const std::string& method) {
        auto r = api->post_json("/api/v1/modelprobe/call",
                                {{"service", service}, {"method", method}}, bearer(credential));
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"]["code"].get<int>() : -1;
    }
    std::string admin, dave;
};

TEST_F(ScopedTokens, ATokenScopedToNotesSeesOnlyNotesTools) {
    const json full = tools(dave);
    EXPECT_TRUE(names(full).count("events_list")) << full.dump();

    const std::string notes =
        token({{"services", {"notes", "modelprobe"}}, {"capabilities", {"agent"}}});
    const json scoped = tools(notes);
    EXPECT_TRUE(names(scoped).count("notes_add")) << scoped.dump();
    EXPECT_FALSE(names(scoped).count("events_list")) << scoped.dump();
    for (const auto& t :
         scoped)  // notes, and the agent and recall its capability opens (decision 30)
        EXPECT_TRUE(ends_with(t["service"], ".v1.notes") || ends_with(t["service"], ".v1.agent") ||
                    ends_with(t["service"], ".v1.recall"))
            << t.dump();

    // Calls made as the caller keep the token's restrictions (the agent's tool steps).
    EXPECT_EQ(call_as(notes, "notes", "Notes.List"), 0);
    EXPECT_EQ(call_as(notes, "v1.events", "Events.List"), 4);  // PLATFORM_PERMISSION_DENIED
    EXPECT_EQ(call_as(dave, "v1.events", "Events.List"), 0);
}

TEST_F(ScopedTokens, TheAgentIsGovernedByItsCapabilityNotTheServicesList) {
    const std::string with_agent = token({{"services", {"notes"}}, {"capabilities", {"agent"}}});
    const std::string without = token({{"services", {"notes"}}, {"capabilities", {"actions"}}});
    auto allowed = api->get("/api/v1/agent/list", bearer(with_agent));
    EXPECT_EQ(allowed.status, 200) << allowed.body;
    auto refused = api->get("/api/v1/agent/list", bearer(without));
    EXPECT_EQ(refused.status, 403) << refused.body;
    EXPECT_TRUE(has(refused.body, "`agent` capability")) << refused.body;
    // Surface A: POST /agent and /agent/<name> too; and the inbox has its own capability.
    EXPECT_EQ(api->post_json("/agent", {{"prompt", "hi"}}, bearer(without)).status, 403);
    EXPECT_EQ(api->post_json("/agent/assistant", {{"prompt", "hi"}}, bearer(without)).status, 403);
    EXPECT_EQ(api->get("/api/v1/inbox/list", bearer(with_agent)).status, 403);
    const std::string inbox_only = token({{"services", {"notes"}}, {"capabilities", {"inbox"}}});
    EXPECT_EQ(api->get("/api/v1/inbox/list", bearer(inbox_only)).status,
              200);  // reads through the agent's internals
    auto other = api->post_json("/api/v1/modelprobe/tools", json::object(), bearer(with_agent));
    EXPECT_EQ(other.status, 403) << other.body;  // the list still limits the catalogue
    EXPECT_TRUE(has(other.body, "scoped to notes")) << other.body;
}

}  // namespace
