// micro's dynamic-flag table (client/cli/util/dynamic_test.go) against parse_flags:
// arrays in four forms, booleans, literal and nested underscores, coercion by the schema.
#include <gtest/gtest.h>

#include "dynamic.hpp"

using nlohmann::json;
using platform::cli::MethodInfo;
using platform::cli::parse_flags;
using platform::cli::UsageError;

namespace {

MethodInfo method(json properties) {
    MethodInfo m;
    m.schema = {{"type", "object"}, {"properties", std::move(properties)}};
    return m;
}

json array_of(const char* type) {
    return {{"type", "array"}, {"items", {{"type", type}}}};
}

struct Case {
    const char* name;
    std::vector<std::string> args;
    json expected;
};

TEST(ParseFlags, MicrosTable) {
    const MethodInfo m = method({{"ss", array_of("string")},
                                 {"bs", array_of("boolean")},
                                 {"is", array_of("integer")},
                                 {"fs", array_of("number")},
                                 {"b", {{"type", "boolean"}}},
                                 {"user_email", {{"type", "string"}}},
                                 {"user_name", {{"type", "string"}}},
                                 {"user_friend_email", {{"type", "string"}}}});
    const std::vector<Case> cases = {
        {"strings =comma", {"--ss=a,b"}, {{"ss", {"a", "b"}}}},
        {"strings comma", {"--ss", "a,b"}, {{"ss", {"a", "b"}}}},
        {"strings =repeated", {"--ss=a", "--ss=b"}, {{"ss", {"a", "b"}}}},
        {"strings repeated", {"--ss", "a", "--ss", "b"}, {{"ss", {"a", "b"}}}},
        {"bools =comma", {"--bs=true,false"}, {{"bs", {true, false}}}},
        {"bools comma", {"--bs", "true,false"}, {{"bs", {true, false}}}},
        {"bools =repeated", {"--bs=true", "--bs=false"}, {{"bs", {true, false}}}},
        {"bools repeated", {"--bs", "true", "--bs", "false"}, {{"bs", {true, false}}}},
        {"ints =comma", {"--is=10,20"}, {{"is", {10, 20}}}},
        {"ints comma", {"--is", "10,20"}, {{"is", {10, 20}}}},
        {"ints =repeated", {"--is=10", "--is=20"}, {{"is", {10, 20}}}},
        {"ints repeated", {"--is", "10", "--is", "20"}, {{"is", {10, 20}}}},
        {"floats =comma", {"--fs=10.1,20.2"}, {{"fs", {10.1, 20.2}}}},
        {"floats comma", {"--fs", "10.1,20.2"}, {{"fs", {10.1, 20.2}}}},
        {"floats =repeated", {"--fs=10.1", "--fs=20.2"}, {{"fs", {10.1, 20.2}}}},
        {"floats repeated", {"--fs", "10.1", "--fs", "20.2"}, {{"fs", {10.1, 20.2}}}},
        {"json array", {"--is", "[1,2]"}, {{"is", {1, 2}}}},
        {"literal underscore", {"--user_email=someemail"}, {{"user_email", "someemail"}}},
        {"two literals",
         {"--user_email=someemail", "--user_name=somename"},
         {{"user_email", "someemail"}, {"user_name", "somename"}}},
        {"bare bool", {"--b"}, {{"b", true}}},
        {"bare bool then flag", {"--b", "--ss", "a"}, {{"b", true}, {"ss", {"a"}}}},
        {"bool false", {"--b", "false"}, {{"b", false}}},
        {"bool =false", {"--b=false"}, {{"b", false}}},
        {"three-part literal", {"--user_friend_email=hi"}, {{"user_friend_email", "hi"}}},
        {"value with =", {"--user_name=a=b"}, {{"user_name", "a=b"}}},
    };
    for (const auto& c : cases) EXPECT_EQ(parse_flags(m, c.args), c.expected) << c.name;
}

TEST(ParseFlags, NestedFieldsAreFlattenedWithUnderscores) {
    const MethodInfo m = method(
        {{"service", {{"type", "string"}}},
         {"user",
          {{"type", "object"},
           {"properties", {{"email", {{"type", "string"}}}, {"name", {{"type", "string"}}}}}}},
         {"options",
          {{"type", "object"},
           {"properties", {{"domain", {{"type", "string"}}}, {"ttl", {{"type", "integer"}}}}}}}});
    EXPECT_EQ(parse_flags(m, {"--user_email=someemail"}),
              (json{{"user", {{"email", "someemail"}}}}));
    EXPECT_EQ(parse_flags(m, {"--user_email=e", "--user_name=n"}),
              (json{{"user", {{"email", "e"}, {"name", "n"}}}}));
    EXPECT_EQ(parse_flags(m, {"--service=serviceName", "--options_domain=domainExample"}),
              (json{{"service", "serviceName"}, {"options", {{"domain", "domainExample"}}}}));
    EXPECT_EQ(parse_flags(m, {"--options_ttl", "5"}), (json{{"options", {{"ttl", 5}}}}));
    EXPECT_EQ(parse_flags(m, {"--options", R"({"domain":"x"})"}),
              (json{{"options", {{"domain", "x"}}}}));
}

TEST(ParseFlags, BadInputIsAUsageError) {
    const MethodInfo m = method(
        {{"n", {{"type", "integer"}}}, {"b", {{"type", "boolean"}}}, {"s", {{"type", "string"}}}});
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"--zz", "1"}, {"--n", "ten"}, {"--n=1.5"}, {"--b=maybe"}, {"--s"}, {"positional"}}) {
        EXPECT_THROW(parse_flags(m, args), UsageError) << args[0];
    }
    try {
        parse_flags(m, {"--colour", "red"});
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "Unknown flag: --colour");
    }
}

TEST(ParseFlags, RetryRuleFollowsTheDescriptor) {
    MethodInfo m;
    m.verb = "GET";
    EXPECT_TRUE(platform::cli::retryable(m));
    m.verb = "POST";
    EXPECT_FALSE(platform::cli::retryable(m));
    m.flags = "destructive,idempotent";
    EXPECT_TRUE(platform::cli::retryable(m));
    m.flags = "read_only";
    EXPECT_TRUE(platform::cli::retryable(m));
    m.flags = "metered,action";
    EXPECT_FALSE(platform::cli::retryable(m));
}

}  // namespace

// An optional object's required fields are needed only when it is given, in help and in checks.
TEST(RequiredArguments, NestedFieldsOfAnOptionalObjectAreRequiredOnlyWithIt) {
    MethodInfo m = method(
        {{"service", {{"type", "string"}}},
         {"options",
          {{"type", "object"},
           {"properties", {{"domain", {{"type", "string"}}}, {"ttl", {{"type", "integer"}}}}},
           {"required", {"domain"}}}},
         {"user",
          {{"type", "object"},
           {"properties", {{"email", {{"type", "string"}}}}},
           {"required", {"email"}}}}});
    m.name = "get";
    m.schema["required"] = {"service", "user"};
    m.order = {"service", "options", "user"};
    using platform::cli::missing_required;
    EXPECT_EQ(missing_required(m, json::object()), "--service");
    EXPECT_EQ(missing_required(m, {{"service", "s"}}), "--user");
    EXPECT_EQ(missing_required(m, {{"service", "s"}, {"user", json::object()}}), "--user_email");
    EXPECT_EQ(missing_required(m, {{"service", "s"}, {"user", {{"email", "e"}}}}), "");
    EXPECT_EQ(missing_required(
                  m, {{"service", "s"}, {"user", {{"email", "e"}}}, {"options", {{"ttl", 5}}}}),
              "--options_domain");

    platform::cli::ServiceInfo s;
    s.name = s.typed = "svc";
    s.methods = {m};
    const std::string help = platform::cli::method_help(s, m);
    auto line_of = [&](const std::string& flag) {
        const size_t at = help.find("  " + flag + " ");
        return at == std::string::npos ? std::string() : help.substr(at, help.find('\n', at) - at);
    };
    EXPECT_NE(line_of("--user_email").find("required"), std::string::npos) << help;
    EXPECT_EQ(line_of("--options_domain").find("required"), std::string::npos) << help;
    EXPECT_FALSE(line_of("--options_domain").empty()) << help;
}

TEST(ParseFlags, AReaderSeesEveryGivenValue) {
    const MethodInfo m = method({{"s", {{"type", "string"}}}, {"b", {{"type", "boolean"}}}});
    std::vector<std::string> seen;
    auto read = [&](const std::string& flag, const std::string& value) {
        seen.push_back(flag + "=" + value);
        return value == "@f" ? std::string("from file") : value;
    };
    EXPECT_EQ(parse_flags(m, {"--s", "@f", "--b"}, read), (json{{"s", "from file"}, {"b", true}}));
    EXPECT_EQ(seen, (std::vector<std::string>{"s=@f"}));
}
