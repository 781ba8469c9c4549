// ABI 1.5 in the host, without a server: the token restrictions that decide which assistant
// services and tools a personal token reaches (Admission::check_token, decision 30), and the
// order in which model_complete picks its provider (pick_model, model_choice.hpp).
#include <gtest/gtest.h>

#include <map>
#include <platform/host/core/admission.hpp>
#include <platform/host/core/model_choice.hpp>
#include <platform/host/core/plugin.hpp>
#include <platform/host/core/service_registry.hpp>
#include <set>

using namespace platform::host;

namespace {

ServiceEntry service(const std::string& relative) {
    return ServiceEntry{"go.core.api." + relative, relative, nullptr};
}

Endpoint endpoint(const std::string& method, uint64_t flags = 0) {
    Endpoint ep(Schema::compile({{"type", "object"}}));
    ep.method = method;
    ep.name = "x";
    ep.flags = flags;
    return ep;
}

Identity token(std::vector<std::string> services,
               std::optional<std::vector<std::string>> capabilities) {
    Identity who;
    who.id = "dave";
    who.credential_kind = "personal";
    who.services = std::move(services);
    who.capabilities = std::move(capabilities);
    return who;
}

bool allowed(const Identity& who, const std::string& relative, uint64_t flags = 0) {
    const ServiceEntry svc = service(relative);
    const Endpoint ep = endpoint("X.Y", flags);
    return !Admission::check_token(who, svc, ep);
}

std::string refusal(const Identity& who, const std::string& relative) {
    const ServiceEntry svc = service(relative);
    const Endpoint ep = endpoint("X.Y");
    auto r = Admission::check_token(who, svc, ep);
    return r ? r->body : "";
}

}  // namespace

TEST(TokenRestrictions, ServicesListLimitsTheCatalogueButNotTheAssistantServices) {
    const Identity notes_agent = token({"notes"}, std::vector<std::string>{"agent"});
    EXPECT_TRUE(allowed(notes_agent, "v1.notes"));
    EXPECT_FALSE(allowed(notes_agent, "v1.calendar"));
    EXPECT_NE(refusal(notes_agent, "v1.calendar").find("scoped to notes"), std::string::npos);
    EXPECT_TRUE(allowed(notes_agent, "v1.agent"));   // governed by its capability, not the list
    EXPECT_TRUE(allowed(notes_agent, "v1.recall"));  // the agent's conversations: `agent`
    EXPECT_FALSE(allowed(notes_agent, "v1.work"));   // no `work` capability
    EXPECT_NE(refusal(notes_agent, "v1.work").find("`work` capability"), std::string::npos);
    EXPECT_FALSE(allowed(notes_agent, "v1.inbox"));
}

TEST(TokenRestrictions, AssistantServicesStillNeedTheirCapability) {
    const Identity notes_only = token({"notes"}, std::vector<std::string>{"actions"});
    EXPECT_FALSE(allowed(notes_only, "v1.agent"));
    EXPECT_NE(refusal(notes_only, "v1.agent").find("`agent` capability"), std::string::npos);
    EXPECT_FALSE(allowed(notes_only, "v1.recall"));
    const Identity everything = token({}, std::nullopt);  // absent capabilities: every one
    for (const char* s : {"v1.agent", "v1.work", "v1.inbox", "v1.recall", "v1.notes"})
        EXPECT_TRUE(allowed(everything, s)) << s;
    EXPECT_FALSE(allowed(token({"notes", "agent"}, std::vector<std::string>{}),
                         "v1.agent"));  // listing it is not enough
}

TEST(TokenRestrictions, ActionsAndServicesTokensAreUnchanged) {
    const Identity no_actions = token({"notes"}, std::vector<std::string>{"agent"});
    EXPECT_FALSE(allowed(no_actions, "v1.notes", PLATFORM_FLAG_ACTION));
    Identity services = token({}, std::nullopt);
    services.credential_kind = "services";
    EXPECT_FALSE(allowed(services, "registry"));
    EXPECT_TRUE(allowed(services, "v1.notes"));
}

namespace {

ModelPick pick(const std::string& configured, std::map<std::string, std::string> env,
               const std::string& profile, std::set<std::string> loaded) {
    ModelSources s;
    s.configured = configured;
    s.env = [env](const char* var) {
        auto it = env.find(var);
        return it == env.end() ? std::string() : it->second;
    };
    s.profile_choice = profile;
    return pick_model(s, [loaded](const std::string& id) { return loaded.count(id) > 0; });
}

}  // namespace

TEST(ModelChoice, ConfigThenEnvironmentThenProfileThenBuiltin) {
    const std::set<std::string> all{"model-builtin", "model-openai", "model-anthropic",
                                    "model-echo"};
    EXPECT_EQ(pick("anthropic", {{"OPENAI_API_KEY", "k"}}, "model-echo", all).plugin,
              "model-anthropic");
    EXPECT_EQ(pick("model-echo", {}, "", all).plugin, "model-echo");
    EXPECT_EQ(pick("", {{"OPENAI_BASE_URL", "http://127.0.0.1:1"}}, "model-echo", all).plugin,
              "model-openai");
    EXPECT_EQ(pick("", {{"OPENAI_API_KEY", "k"}, {"ANTHROPIC_API_KEY", "k"}}, "", all).plugin,
              "model-openai");
    EXPECT_EQ(pick("", {{"ANTHROPIC_BASE_URL", "http://x"}}, "model-echo", all).plugin,
              "model-anthropic");
    EXPECT_EQ(pick("", {{"OPENAI_API_KEY", ""}}, "model-echo", all).plugin,
              "model-echo");  // empty = unset
    EXPECT_EQ(pick("", {}, "", all).plugin, "model-builtin");
    EXPECT_EQ(pick("", {}, "", {"model-openai"}).plugin, "");
}

TEST(ModelChoice, SaysWhyItChose) {
    const std::set<std::string> none;
    EXPECT_EQ(pick("nonesuch", {}, "", none).plugin,
              "model-nonesuch");  // not loaded: the caller says so
    EXPECT_NE(pick("nonesuch", {}, "", none).because.find("model.provider = nonesuch"),
              std::string::npos);
    EXPECT_NE(pick("", {{"ANTHROPIC_API_KEY", "k"}}, "", none).because.find("ANTHROPIC_API_KEY"),
              std::string::npos);
    EXPECT_NE(pick("", {}, "model-echo", none).because.find("providers.model"), std::string::npos);
}

// model_complete's check of the request, done without building a document (decision 79): the
// same answers the parsed document gave.
TEST(ModelChoice, RequestNeedsAnObjectWithAMessagesArray) {
    const std::string not_object = "request: must be a JSON object with a `messages` array";
    const std::string no_messages = "messages: required, an array of {role, content}";
    EXPECT_EQ(model_request_problem(R"({"messages": []})"), "");
    EXPECT_EQ(model_request_problem(
                  R"({"system": "s", "tools": [{"name": "t", "input_schema": {"messages": 1}}],
                      "messages": [{"role": "user", "content": {"messages": null}}]})"),
              "");
    EXPECT_EQ(model_request_problem(""), not_object);
    EXPECT_EQ(model_request_problem("not json"), not_object);
    EXPECT_EQ(model_request_problem(R"({"messages": []} trailing)"), not_object);
    EXPECT_EQ(model_request_problem(R"({"messages": [})"), not_object);
    EXPECT_EQ(model_request_problem(R"([{"messages": []}])"), not_object);
    EXPECT_EQ(model_request_problem(R"("messages")"), not_object);
    EXPECT_EQ(model_request_problem("{}"), no_messages);
    EXPECT_EQ(model_request_problem(R"({"messages": {}})"), no_messages);
    EXPECT_EQ(model_request_problem(R"({"messages": "hi"})"), no_messages);
    EXPECT_EQ(model_request_problem(R"({"messages": null})"), no_messages);
    // only the top level counts, and a repeated member's last value (as a parse keeps it)
    EXPECT_EQ(model_request_problem(R"({"context": {"messages": []}})"), no_messages);
    EXPECT_EQ(model_request_problem(R"({"messages": [], "messages": 3})"), no_messages);
    EXPECT_EQ(model_request_problem(R"({"messages": 3, "messages": []})"), "");
}
