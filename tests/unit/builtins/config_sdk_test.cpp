// platform/sdk/config.hpp against a fake host whose calls to "config" reach the real config
// service (plugins/config) loaded in the same fake host: typed getters coerce and never fail,
// structured reads fail on a type mismatch.
#include <gtest/gtest.h>

#include <map>
#include <platform/sdk/config.hpp>
#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

struct Limits {
    int max = 0;
    std::string name;
};
void from_json(const json& j, Limits& l) {
    j.at("max").get_to(l.max);
    j.at("name").get_to(l.name);
}

class ConfigSdkTest : public ::testing::Test {
protected:
    void SetUp() override {
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& request, const std::string& account) -> Reply {
            calls.push_back(service + " " + method + " as " + account);
            if (service != "config" || method != "Config.Get") {
                Reply none;
                none.code = PLATFORM_NOT_FOUND;
                return none;
            }
            return service_plugin.call("get", request, account);
        };
        for (auto& [path, value] : std::map<std::string, json>{
                 {"app.name", "Notes"},
                 {"app.limit", "42"},
                 {"app.limit_num", 42},
                 {"app.ratio", "2.5"},
                 {"app.float", 7.9},
                 {"app.on", "true"},
                 {"app.one", "1"},
                 {"app.off", "off"},
                 {"app.flag", false},
                 {"app.word", "abc"},
                 {"app.list", json::array({1, 2})},
                 {"app.limits", json({{"max", 5}, {"name", "five"}})},
                 {"app.bad_limits", json({{"max", "many"}, {"name", 3}})}}) {
            Reply r = service_plugin.call("set", {{"path", path}, {"value", value}}, "admin");
            ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
        }
        Reply r = service_plugin.call(
            "set", {{"path", "app.api_key"}, {"value", "k-123"}, {"secret", true}}, "admin");
        ASSERT_EQ(r.code, PLATFORM_OK) << r.body;
    }

    FakeHost host;
    FakePlugin service_plugin = host.load(platform_plugin_entry);
    platform::Host sdk_host{host.api(), host.ctx()};
    platform::Config cfg{sdk_host};
    std::vector<std::string> calls;
};

TEST_F(ConfigSdkTest, ReadsThroughConfigGetAsTheServiceAccount) {
    EXPECT_EQ(cfg.string("app.name", "def"), "Notes");
    ASSERT_FALSE(calls.empty());
    EXPECT_EQ(calls.back(), "config Config.Get as service");
    platform::ConfigValue v = cfg.get("app.name");
    EXPECT_TRUE(v.exists());
    EXPECT_EQ(v.code(), platform::Code::ok);
    EXPECT_EQ(v.path(), "app.name");
}

TEST_F(ConfigSdkTest, TypedGettersCoerceBestEffort) {
    EXPECT_EQ(cfg.integer("app.limit", 0), 42);  // "42"
    EXPECT_EQ(cfg.integer("app.limit_num", 0), 42);
    EXPECT_EQ(cfg.integer("app.float", 0), 7);  // truncated
    EXPECT_EQ(cfg.integer("app.ratio", 0), 2);  // "2.5"
    EXPECT_DOUBLE_EQ(cfg.number("app.ratio", 0), 2.5);
    EXPECT_DOUBLE_EQ(cfg.number("app.limit", 0), 42);
    EXPECT_TRUE(cfg.boolean("app.on", false));   // "true"
    EXPECT_TRUE(cfg.boolean("app.one", false));  // "1"
    EXPECT_FALSE(cfg.boolean("app.off", true));  // "off"
    EXPECT_FALSE(cfg.boolean("app.flag", true));
    EXPECT_TRUE(cfg.boolean("app.limit_num", false));  // non-zero number
    EXPECT_EQ(cfg.string("app.limit_num"), "42");      // numbers as their JSON text
    EXPECT_EQ(cfg.string("app.list"), "[1,2]");
}

TEST_F(ConfigSdkTest, TypedGettersAlwaysReturnAUsableValue) {
    EXPECT_EQ(cfg.integer("app.word", 7), 7);  // "abc" is no integer
    EXPECT_DOUBLE_EQ(cfg.number("app.word", 1.5), 1.5);
    EXPECT_TRUE(cfg.boolean("app.word", true));
    EXPECT_EQ(cfg.integer("app.list", 3), 3);
    EXPECT_EQ(cfg.string("app.missing", "fallback"), "fallback");
    EXPECT_EQ(cfg.integer("app.missing", -1), -1);
    EXPECT_FALSE(cfg.boolean("app.missing"));
    platform::ConfigValue missing = cfg.get("app.missing");
    EXPECT_FALSE(missing.exists());
    EXPECT_EQ(missing.code(), platform::Code::not_found);
    EXPECT_NE(missing.error().find("app.missing"), std::string::npos) << missing.error();
    // A bad path and an unreachable service give defaults too.
    EXPECT_EQ(cfg.string("bad..path", "d"), "d");
    EXPECT_EQ(cfg.get("bad..path").code(), platform::Code::invalid_argument);
    host.on_call = nullptr;  // no config service at all
    EXPECT_EQ(cfg.integer("app.limit", 9), 9);
    EXPECT_EQ(cfg.get("app.limit").code(), platform::Code::not_found);
}

TEST_F(ConfigSdkTest, StructuredReadsFailOnATypeMismatch) {
    Limits l = cfg.scan<Limits>("app.limits");
    EXPECT_EQ(l.max, 5);
    EXPECT_EQ(l.name, "five");
    EXPECT_EQ(cfg.object("app.limits"), json({{"max", 5}, {"name", "five"}}));
    EXPECT_EQ(cfg.scan<std::vector<int>>("app.list"), (std::vector<int>{1, 2}));
    EXPECT_EQ(cfg.scan<int>("app.limit_num"), 42);

    try {
        cfg.scan<Limits>("app.bad_limits");
        FAIL() << "expected a type mismatch";
    } catch (const platform::Error& e) {
        EXPECT_EQ(e.code(), platform::Code::invalid_argument);
        EXPECT_NE(std::string(e.what()).find("app.bad_limits"), std::string::npos) << e.what();
    }
    EXPECT_THROW(cfg.scan<int>("app.limit"), platform::Error);  // "42" is a string: scan is strict
    EXPECT_THROW(cfg.object("app.name"), platform::Error);
    EXPECT_THROW(cfg.scan<std::vector<int>>("app.limits"), platform::Error);

    // Missing values give the default, not an error.
    EXPECT_EQ(cfg.object("app.missing"), json::object());
    Limits def = cfg.scan<Limits>("app.missing", Limits{3, "three"});
    EXPECT_EQ(def.max, 3);
}

TEST_F(ConfigSdkTest, SecretsNeedDecrypt) {
    EXPECT_EQ(cfg.string("app.api_key"), "[secret]");
    EXPECT_EQ(cfg.decrypt().string("app.api_key"), "k-123");
    EXPECT_EQ(cfg.object("app").at("api_key"), "[secret]");
    EXPECT_EQ(cfg.decrypt().object("app").at("api_key"), "k-123");
}

}  // namespace
