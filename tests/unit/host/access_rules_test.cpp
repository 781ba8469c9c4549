// micro's rule-verification table (util/auth/rules/rules_test.go), case for case, plus parsing.
#include <gtest/gtest.h>

#include <platform/host/core/access_rules.hpp>

using namespace platform::host;

namespace {

AccessRule rule(std::string scope, const std::string& resource, bool granted = true,
                int64_t priority = 0) {
    std::string error;
    auto r = parse_rule({{"id", "r"},
                         {"scope", scope},
                         {"resource", resource},
                         {"access", granted ? "GRANTED" : "DENIED"},
                         {"priority", priority}},
                        error);
    EXPECT_TRUE(r) << error;
    return *r;
}

RuleResource resource(const std::string& type, const std::string& name,
                      const std::string& endpoint) {
    return RuleResource{type, {name}, {endpoint}};
}

struct Case {
    const char* name;
    std::vector<AccessRule> rules;
    bool has_account;
    RuleAccount account;
    RuleResource res;
    std::string ns;
    Verdict want;
};

const RuleResource srv = resource("service", "go.micro.service.foo", "Foo.Bar");
const RuleResource web = resource("service", "go.micro.web.foo", "/foo/bar");
const std::string all = "*:*:*";
const Verdict ok = Verdict::granted, forbidden = Verdict::forbidden;

std::vector<Case> cases() {
    RuleAccount empty{};
    RuleAccount needed{"", "", {"neededscope"}};
    RuleAccount foo{"", "foo", {}};
    RuleAccount admin{"admin", "foo-bar-baz", {"admin"}};
    RuleResource runtime = resource("service", "runtime", "Runtime.Read");
    return {
        {"NoRules", {}, false, {}, srv, "", forbidden},
        {"CatchallPublicAccount", {rule("", all)}, true, empty, srv, "", ok},
        {"CatchallPublicNoAccount", {rule("", all)}, false, {}, srv, "", ok},
        {"CatchallPrivateAccount", {rule("*", all)}, true, empty, srv, "", ok},
        {"CatchallPrivateNoAccount", {rule("*", all)}, false, {}, srv, "", forbidden},
        {"CatchallServiceRuleMatch",
         {rule("*", "service:go.micro.service.foo:*")},
         true,
         empty,
         srv,
         "",
         ok},
        {"CatchallServiceRuleNoMatch",
         {rule("*", "service:wrongname:*")},
         true,
         empty,
         srv,
         "",
         forbidden},
        {"ExactRuleValidScope",
         {rule("neededscope", "service:go.micro.service.foo:Foo.Bar")},
         true,
         needed,
         srv,
         "",
         ok},
        {"ExactRuleInvalidScope",
         {rule("invalidscope", "service:go.micro.service.foo:Foo.Bar")},
         true,
         needed,
         srv,
         "",
         forbidden},
        {"CatchallDenyWithAccount", {rule("*", all, false)}, true, empty, srv, "", forbidden},
        {"CatchallDenyWithNoAccount", {rule("*", all, false)}, true, empty, srv, "", forbidden},
        {"RulePriorityGrantFirst",
         {rule("*", all, true, 1), rule("*", all, false, 0)},
         true,
         empty,
         srv,
         "",
         ok},
        {"RulePriorityDenyFirst",
         {rule("*", all, true, 0), rule("*", all, false, 1)},
         true,
         empty,
         srv,
         "",
         forbidden},
        {"WebExactEndpointValid",
         {rule("*", "service:go.micro.web.foo:/foo/bar")},
         true,
         empty,
         web,
         "",
         ok},
        {"WebExactEndpointInalid",
         {rule("*", "service:go.micro.web.foo:invalidendpoint")},
         true,
         empty,
         web,
         "",
         forbidden},
        {"WebWildcardEndpoint",
         {rule("*", "service:go.micro.web.foo:*")},
         true,
         empty,
         web,
         "",
         ok},
        {"WebWildcardPathEndpointValid",
         {rule("*", "service:go.micro.web.foo:/foo/*")},
         true,
         empty,
         web,
         "",
         ok},
        {"WebWildcardPathEndpointInvalid",
         {rule("*", "service:go.micro.web.foo:/bar/*")},
         true,
         empty,
         web,
         "",
         forbidden},
        {"CrossNamespaceForbidden", {rule("*", all)}, true, foo, srv, "bar", forbidden},
        {"CrossNamespaceNilAccountForbidden", {rule("*", all)}, true, empty, srv, "bar", forbidden},
        {"CrossNamespacePublic", {rule("", all)}, true, foo, srv, "bar", ok},
        {"CrossNamespacePublicNilAccount", {rule("", all)}, true, empty, srv, "bar", ok},
        {"CrossNamespaceCrossIssuerTrue",
         {rule("+", "service:runtime:*", true, 1)},
         true,
         admin,
         runtime,
         "my-user-ns",
         ok},
        {"CrossNamespaceCrossIssuerFalse",
         {rule("*", "service:runtime:*", true, 1)},
         true,
         admin,
         runtime,
         "my-user-ns",
         forbidden},
    };
}

}  // namespace

TEST(AccessRules, MicrosTwentyFourCases) {
    auto table = cases();
    ASSERT_EQ(table.size(), 24u);
    for (const auto& c : table) {
        Verdict got = verify_access(c.rules, c.has_account ? &c.account : nullptr, c.res, c.ns);
        EXPECT_EQ(got, c.want) << c.name;
    }
}

TEST(AccessRules, DefaultRuleIsPublicOnEverything) {
    auto rules = default_rules();
    ASSERT_EQ(rules.size(), 1u);
    EXPECT_EQ(rules[0].id, "default");
    EXPECT_EQ(verify_access(rules, nullptr, srv, "go.core.api"), Verdict::granted);
}

TEST(AccessRules, LockdownRecipe) {
    // micro's testServerLockdown: `*` on everything, auth stays public, the default rule deleted.
    std::vector<AccessRule> rules{rule("*", all), rule("", "service:auth:*")};
    RuleAccount alice{"alice", "go.core.api", {}};
    EXPECT_EQ(verify_access(rules, nullptr, srv, "go.core.api"), Verdict::forbidden);
    EXPECT_EQ(verify_access(rules, &alice, srv, "go.core.api"), Verdict::granted);
    EXPECT_EQ(
        verify_access(rules, nullptr, resource("service", "auth", "Auth.Token"), "go.core.api"),
        Verdict::granted);
}

TEST(AccessRules, NamesAndEndpointsCompareCaseInsensitivelyAndByAlias) {
    RuleResource notes{"service", {"v1.notes", "notes"}, {"Notes.Add", "add"}};
    RuleAccount a{"a", "ns", {}};
    EXPECT_EQ(verify_access({rule("*", "service:notes:notes.add")}, &a, notes, "ns"),
              Verdict::granted);
    EXPECT_EQ(verify_access({rule("*", "service:V1.NOTES:add")}, &a, notes, "ns"),
              Verdict::granted);
    EXPECT_EQ(verify_access({rule("*", "service:tasks:*")}, &a, notes, "ns"), Verdict::forbidden);
}

TEST(AccessRules, ParseRefusesMalformedRules) {
    std::string error;
    EXPECT_FALSE(parse_rule({{"id", "x"}, {"resource", "service:notes"}}, error));
    EXPECT_NE(error.find("type:name:endpoint"), std::string::npos);
    EXPECT_FALSE(parse_rule({{"id", "x"}, {"resource", "*:*:*"}, {"access", "maybe"}}, error));
    EXPECT_NE(error.find("GRANTED or DENIED"), std::string::npos);
    EXPECT_FALSE(parse_rule({{"resource", "*:*:*"}}, error));
    EXPECT_FALSE(parse_rule({{"id", "x"}, {"resource", "*:*:*"}, {"priority", "high"}}, error));
    auto r = parse_rule(
        {{"id", "p"}, {"scope", "<public>"}, {"resource", "*:*:*"}, {"access", "denied"}}, error);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->scope, "");
    EXPECT_FALSE(r->granted);
}
