// profile.hpp: YAML profiles — parsing, ${VAR} expansion, and errors naming file, line and key.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <platform/host/core/profile.hpp>
#include <string>
#include <vector>

#include "../support/scratch_dir.hpp"
#include "build_tree.hpp"

namespace {

namespace fs = std::filesystem;
using platform::host::load_profile;
using platform::host::Profile;
using platform::host::ProfileError;

// The three providers every profile must choose (appended to most test profiles).
const char* kRequiredProviders =
    "providers:\n"
    "  store: {plugin: store-memory}\n"
    "  broker: {plugin: broker-memory}\n"
    "  auth: {plugin: auth-noop}\n";

class ProfileTest : public ::testing::Test {
protected:
    std::string write(const std::string& name, const std::string& text) {
        fs::path p = fs::path(dir_) / name;
        std::ofstream(p) << text;
        return p.string();
    }

    // The ProfileError message of loading `path`, or "" when it loaded.
    static std::string error_of(const std::string& path,
                                const std::vector<std::string>& dirs = {}) {
        try {
            load_profile(path, dirs);
        } catch (const ProfileError& e) {
            return e.what();
        }
        return "";
    }

    plugin_test::TempDir tmp_;
    const std::string dir_ = tmp_.path().string();
};

TEST_F(ProfileTest, ValidProfileParses) {
    auto file = write("custom.yaml",
                      "name: custom\n"
                      "description: a test profile\n"
                      "clock: manual\n"
                      "plugins: [notes, docs]\n"
                      "test_plugins: true\n"
                      "plugin_path: [/opt/a, /opt/b]\n"
                      "privileged: [registry, clock]\n"
                      "providers:\n"
                      "  store:\n"
                      "    plugin: store-sqlite\n"
                      "    config: {path: /tmp/x.db, wal: true, pool: 4}\n"
                      "  broker: {plugin: broker-memory}\n"
                      "  auth:\n"
                      "    plugin: auth-noop\n"
                      "    config:\n"
                      "      anonymous_account: admin\n"
                      "plugin_config:\n"
                      "  notes: {limit: 10, label: \"007\"}\n"
                      "settings:\n"
                      "  call_timeout_ms: 1234\n"
                      "  max_call_timeout_ms: 5678\n");
    Profile p = load_profile(file, {});
    EXPECT_EQ(p.name, "custom");
    EXPECT_EQ(p.file, file);
    EXPECT_EQ(p.description, "a test profile");
    EXPECT_TRUE(p.manual_clock);
    EXPECT_FALSE(p.all_plugins);
    EXPECT_EQ(p.plugins, (std::vector<std::string>{"notes", "docs"}));
    EXPECT_TRUE(p.test_plugins);
    EXPECT_EQ(p.plugin_path, (std::vector<std::string>{"/opt/a", "/opt/b"}));
    EXPECT_EQ(p.privileged, (std::set<std::string>{"registry", "clock"}));
    ASSERT_EQ(p.providers.size(), 3u);
    EXPECT_EQ(p.providers.at("store").plugin, "store-sqlite");
    EXPECT_EQ(p.providers.at("store").config,
              (nlohmann::json{{"path", "/tmp/x.db"}, {"wal", true}, {"pool", 4}}));
    EXPECT_EQ(p.providers.at("store").where, file + ":10");
    EXPECT_EQ(p.providers.at("broker").plugin, "broker-memory");
    EXPECT_EQ(p.providers.at("broker").config, nlohmann::json::object());
    EXPECT_EQ(p.providers.at("auth").config, (nlohmann::json{{"anonymous_account", "admin"}}));
    EXPECT_EQ(p.plugin_config, (nlohmann::json{{"notes", {{"limit", 10}, {"label", "007"}}}}));
    EXPECT_EQ(p.call_timeout_ms, 1234);
    EXPECT_EQ(p.max_call_timeout_ms, 5678);
    EXPECT_EQ(p.plugins_where, file + ":4");
}

TEST_F(ProfileTest, DefaultsAndNameFromFile) {
    auto file =
        write("minimal.yaml", std::string("clock: real\nplugins: all\n") + kRequiredProviders);
    Profile p = load_profile(file, {});
    EXPECT_EQ(p.name, "minimal");
    EXPECT_FALSE(p.manual_clock);
    EXPECT_TRUE(p.all_plugins);
    EXPECT_TRUE(p.plugins.empty());
    EXPECT_FALSE(p.test_plugins);
    EXPECT_EQ(p.call_timeout_ms, 30000);
    EXPECT_EQ(p.max_call_timeout_ms, 300000);
}

TEST_F(ProfileTest, ExpandsEnvironmentVariables) {
    ASSERT_EQ(setenv("PROFILE_TEST_HOME", "/srv/platform", 1), 0);
    ASSERT_EQ(setenv("PROFILE_TEST_DIR", "/opt/plugins", 1), 0);
    unsetenv("PROFILE_TEST_UNSET");
    auto file = write("env.yaml",
                      "plugin_path: [\"${PROFILE_TEST_DIR}/extra\"]\n"
                      "providers:\n"
                      "  store:\n"
                      "    plugin: store-sqlite\n"
                      "    config:\n"
                      "      path: \"${PROFILE_TEST_HOME}/data/store.db\"\n"
                      "      bare: ${PROFILE_TEST_HOME}/x\n"
                      "      missing: \"[${PROFILE_TEST_UNSET}]\"\n"
                      "  broker: {plugin: broker-memory}\n"
                      "  auth: {plugin: auth-noop}\n");
    Profile p = load_profile(file, {});
    const auto& cfg = p.providers.at("store").config;
    EXPECT_EQ(cfg.at("path"), "/srv/platform/data/store.db");
    EXPECT_EQ(cfg.at("bare"), "/srv/platform/x");
    EXPECT_EQ(cfg.at("missing"), "[]");
    EXPECT_EQ(p.plugin_path, (std::vector<std::string>{"/opt/plugins/extra"}));
    unsetenv("PROFILE_TEST_HOME");
    unsetenv("PROFILE_TEST_DIR");
}

TEST_F(ProfileTest, UnknownTopLevelKeyNamesFileLineAndKey) {
    auto file = write("bad-key.yaml", std::string("name: x\nclock: real\n") + kRequiredProviders +
                                          "colour: blue\n");
    // line 1 name, 2 clock, 3-6 providers, 7 colour
    std::string msg = error_of(file);
    EXPECT_NE(msg.find(file + ":7: colour:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("unknown key"), std::string::npos) << msg;
}

struct BadCase {
    const char* label;
    std::string yaml;
    std::string expect;  // substring of the message after "<file>:"
};

TEST_F(ProfileTest, InvalidValuesNameLineAndKey) {
    const std::string providers_tail =
        "  broker: {plugin: broker-memory}\n  auth: {plugin: auth-noop}\n";
    const BadCase cases[] = {
        {"bad clock", std::string("clock: sometimes\n") + kRequiredProviders,
         ":1: clock: must be real or manual"},
        {"store without plugin", "providers:\n  store:\n    config: {path: x}\n" + providers_tail,
         ":3: providers.store: needs a `plugin` key"},
        {"unknown provider kind",
         std::string("providers:\n  store: {plugin: store-memory}\n  cache: {plugin: redis}\n") +
             providers_tail,
         ":3: providers.cache: unknown provider kind"},
        {"unknown provider field",
         "providers:\n  store: {plugin: store-memory, size: 3}\n" + providers_tail,
         ":2: providers.store.size: unknown key"},
        {"test_plugins not boolean", std::string("test_plugins: maybe\n") + kRequiredProviders,
         ":1: test_plugins: must be true or false"},
        {"privileged not a list", std::string("privileged: registry\n") + kRequiredProviders,
         ":1: privileged: must be a list of strings"},
        {"negative timeout", std::string(kRequiredProviders) + "settings:\n  call_timeout_ms: -5\n",
         ":6: settings.call_timeout_ms: must be positive"},
        {"non-integer timeout",
         std::string(kRequiredProviders) + "settings:\n  call_timeout_ms: soon\n",
         ":6: settings.call_timeout_ms: must be an integer"},
        {"unknown setting", std::string(kRequiredProviders) + "settings:\n  retries: 3\n",
         ":6: settings.retries: unknown setting"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.label);
        auto file = write("bad.yaml", c.yaml);
        std::string msg = error_of(file);
        EXPECT_NE(msg.find(file + c.expect), std::string::npos) << msg;
    }
}

TEST_F(ProfileTest, MissingRequiredProviderIsNamed) {
    const struct {
        const char* missing;
        const char* yaml;
    } cases[] = {
        {"store", "providers:\n  broker: {plugin: broker-memory}\n  auth: {plugin: auth-noop}\n"},
        {"broker", "providers:\n  store: {plugin: store-memory}\n  auth: {plugin: auth-noop}\n"},
        {"auth",
         "providers:\n  store: {plugin: store-memory}\n  broker: {plugin: broker-memory}\n"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.missing);
        auto file = write("missing.yaml", c.yaml);
        std::string msg = error_of(file);
        EXPECT_NE(msg.find(file + ": providers." + c.missing + ": missing"), std::string::npos)
            << msg;
    }
    // No providers at all: the first required one is named.
    auto file = write("none.yaml", "name: none\n");
    EXPECT_NE(error_of(file).find("providers.store: missing"), std::string::npos) << error_of(file);
}

TEST_F(ProfileTest, YamlSyntaxErrorNamesFileAndLine) {
    auto file = write("syntax.yaml", "name: x\nclock: real\nproviders: {store: [unclosed\n");
    std::string msg = error_of(file);
    EXPECT_EQ(msg.rfind(file + ":", 0), 0u) << msg;
    EXPECT_NE(msg.find("YAML error"), std::string::npos) << msg;
    // The error is on line 3 or reported at the end of input (line 4); never line 0/1.
    EXPECT_TRUE(msg.find(file + ":3:") == 0 || msg.find(file + ":4:") == 0) << msg;
}

TEST_F(ProfileTest, MissingFileByPath) {
    std::string path = dir_ + "/nope.yaml";
    std::string msg = error_of(path);
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("not found"), std::string::npos) << msg;
}

TEST_F(ProfileTest, UnknownNameListsSearchedFolders) {
    std::string other = dir_ + "/other";
    std::string msg = error_of("no-such-profile", {dir_, other});
    EXPECT_NE(msg.find("no-such-profile"), std::string::npos) << msg;
    EXPECT_NE(msg.find(dir_), std::string::npos) << msg;
    EXPECT_NE(msg.find(other), std::string::npos) << msg;
}

TEST_F(ProfileTest, InvalidNameIsRefused) {
    std::string msg = error_of("bad name!", {dir_});
    EXPECT_NE(msg.find("invalid name"), std::string::npos) << msg;
}

TEST_F(ProfileTest, FoundByNameInSearchDirsInOrder) {
    fs::create_directories(dir_ + "/first");
    fs::create_directories(dir_ + "/second");
    write("second/mine.yaml", std::string("description: second\n") + kRequiredProviders);
    Profile p = load_profile("mine", {dir_ + "/missing", dir_ + "/first", dir_ + "/second"});
    EXPECT_EQ(p.name, "mine");
    EXPECT_EQ(p.description, "second");
    EXPECT_EQ(p.file, dir_ + "/second/mine.yaml");

    // An earlier folder wins.
    write("first/mine.yaml", std::string("description: first\n") + kRequiredProviders);
    p = load_profile("mine", {dir_ + "/missing", dir_ + "/first", dir_ + "/second"});
    EXPECT_EQ(p.description, "first");
}

TEST_F(ProfileTest, RepositoryProfilesLoad) {
    ASSERT_EQ(setenv("PLATFORM_HOME", dir_.c_str(), 1), 0);
    Profile local = load_profile(platform::test::source_dir() + "/profiles/local.yaml", {});
    EXPECT_EQ(local.name, "local");
    EXPECT_FALSE(local.manual_clock);
    EXPECT_TRUE(local.all_plugins);
    EXPECT_EQ(local.providers.at("store").plugin, "store-sqlite");
    EXPECT_EQ(local.providers.at("store").config.at("path"), dir_ + "/data/store.db");
    EXPECT_EQ(local.providers.at("auth").plugin, "auth-local");

    Profile test = load_profile("test", {platform::test::source_dir() + "/profiles"});
    EXPECT_EQ(test.name, "test");
    EXPECT_TRUE(test.manual_clock);
    EXPECT_TRUE(test.test_plugins);
    EXPECT_EQ(test.providers.at("store").plugin, "store-memory");
    EXPECT_EQ(test.providers.at("broker").plugin, "broker-memory");
    EXPECT_EQ(test.providers.at("auth").plugin, "auth-noop");
    EXPECT_TRUE(test.privileged.count("clock"));

    // kubernetes needs its two URLs (ReplicaSettings.* in replica_settings_test.cpp says more).
    ASSERT_EQ(setenv("PLATFORM_POSTGRES_URL", "postgresql://platform@db/platform", 1), 0);
    ASSERT_EQ(setenv("PLATFORM_NATS_URL", "nats://nats:4222", 1), 0);
    Profile kubernetes = load_profile("kubernetes", {platform::test::source_dir() + "/profiles"});
    EXPECT_EQ(kubernetes.name, "kubernetes");
    EXPECT_EQ(kubernetes.providers.at("store").plugin, "store-postgres");
    EXPECT_EQ(kubernetes.providers.at("auth").plugin, "auth-local");
    unsetenv("PLATFORM_POSTGRES_URL");
    unsetenv("PLATFORM_NATS_URL");
    unsetenv("PLATFORM_HOME");
}

}  // namespace
