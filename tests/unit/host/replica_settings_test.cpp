// The settings replicas need (decision 72): PLATFORM_POSTGRES_URL, PLATFORM_NATS_URL and
// PLATFORM_NODE_ID read and checked by Settings::from_environment; the node id kept in
// $PLATFORM_HOME/node-id (node_id.hpp); `${VAR:?why}` in profiles; the kubernetes profile;
// `shared` in the rate-limit sections.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <platform/host/core/node_id.hpp>
#include <platform/host/core/profile.hpp>
#include <platform/host/core/settings.hpp>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/scratch_dir.hpp"
#include "build_tree.hpp"

namespace {

using namespace platform::host;
namespace fs = std::filesystem;

class ReplicaSettings : public ::testing::Test {
protected:
    void SetUp() override {
        for (const char* v : {"PLATFORM_POSTGRES_URL", "PLATFORM_NATS_URL", "PLATFORM_NODE_ID"})
            unsetenv(v);
    }
    void TearDown() override { SetUp(); }
    static std::string refusal() {
        try {
            Settings::from_environment();
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "";
    }
    // The ProfileError of loading `path`, or "" when it loads.
    static std::string profile_error(const std::string& path) {
        try {
            load_profile(path, {});
        } catch (const ProfileError& e) {
            return e.what();
        }
        return "";
    }
    std::string write(const std::string& name, const std::string& text) {
        const fs::path p = tmp_.path() / name;
        std::ofstream(p) << text;
        return p.string();
    }
    plugin_test::TempDir tmp_;
};

TEST_F(ReplicaSettings, UnsetByDefaultAndReadFromTheEnvironment) {
    Settings s = Settings::from_environment();
    EXPECT_EQ(s.postgres_url, "");
    EXPECT_EQ(s.nats_url, "");
    EXPECT_EQ(s.node_id, "");
    setenv("PLATFORM_POSTGRES_URL", "postgresql://platform:pw@db:5432/platform", 1);
    setenv("PLATFORM_NATS_URL", "nats://nats-0:4222,nats://nats-1:4222", 1);
    setenv("PLATFORM_NODE_ID", "pod-7.replica_a", 1);
    s = Settings::from_environment();
    EXPECT_EQ(s.postgres_url, "postgresql://platform:pw@db:5432/platform");
    EXPECT_EQ(s.nats_url, "nats://nats-0:4222,nats://nats-1:4222");
    EXPECT_EQ(s.node_id, "pod-7.replica_a");
    setenv("PLATFORM_POSTGRES_URL", "host=db port=5432 dbname=platform user=platform", 1);
    EXPECT_EQ(Settings::from_environment().postgres_url,
              "host=db port=5432 dbname=platform user=platform");
}

TEST_F(ReplicaSettings, BadValuesStopTheServerNamingTheVariable) {
    for (const char* bad : {"mysql://db/x", "just-a-host", "=value", "postgresql://db\n/x"}) {
        setenv("PLATFORM_POSTGRES_URL", bad, 1);
        EXPECT_EQ(refusal().rfind("PLATFORM_POSTGRES_URL: ", 0), 0u) << bad << ": " << refusal();
    }
    // The value may hold a password: the message never repeats it.
    setenv("PLATFORM_POSTGRES_URL", "mysql://u:hunter2@db/x", 1);
    EXPECT_EQ(refusal().find("hunter2"), std::string::npos) << refusal();
    unsetenv("PLATFORM_POSTGRES_URL");
    for (const char* bad : {"http://nats:4222", "nats://", "nats://n:0", "nats://n:99999",
                            "nats://n:4222/x", "n:4222", "nats://a:4222,redis://b"}) {
        setenv("PLATFORM_NATS_URL", bad, 1);
        EXPECT_EQ(refusal().rfind("PLATFORM_NATS_URL: ", 0), 0u) << bad << ": " << refusal();
    }
    unsetenv("PLATFORM_NATS_URL");
    for (const char* bad : {"-lead", "has space", "slash/id", "ünïcode",
                            "x123456789012345678901234567890123456789012345678901234567890abcd"}) {
        setenv("PLATFORM_NODE_ID", bad, 1);
        EXPECT_EQ(refusal().rfind("PLATFORM_NODE_ID: ", 0), 0u) << bad << ": " << refusal();
    }
    EXPECT_EQ(postgres_url_problem(""), std::nullopt);
    EXPECT_EQ(nats_url_problem(""), std::nullopt);
    EXPECT_EQ(nats_url_problem("tls://user:pw@[::1]:4222"), std::nullopt);
}

TEST_F(ReplicaSettings, NodeIdIsCreatedOnceInTheHomeWithMode0600) {
    const std::string home = (tmp_.path() / "home").string();
    std::string warning;
    const std::string id = stable_node_id("", home, &warning);
    EXPECT_TRUE(std::regex_match(id, std::regex("node-[0-9a-f]{16}"))) << id;
    EXPECT_EQ(warning, "");
    struct stat st {};
    ASSERT_EQ(stat((home + "/node-id").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    // A restart keeps it; another home (another replica) gets its own.
    EXPECT_EQ(stable_node_id("", home), id);
    EXPECT_NE(stable_node_id("", (tmp_.path() / "other").string()), id);
    // PLATFORM_NODE_ID wins and leaves the file alone.
    EXPECT_EQ(stable_node_id("pod-1", home), "pod-1");
    EXPECT_EQ(stable_node_id("", home), id);
    // Without a home: an id for this process only.
    EXPECT_NE(stable_node_id("", ""), stable_node_id("", ""));
}

TEST_F(ReplicaSettings, HostsStartingTogetherOnOneHomeAgreeOnOneId) {
    const std::string home = (tmp_.path() / "shared").string();
    fs::create_directories(home);
    std::vector<std::future<std::string>> starts;
    for (int i = 0; i < 8; ++i)
        starts.push_back(std::async(std::launch::async, [&] { return stable_node_id("", home); }));
    const std::string first = starts[0].get();
    for (size_t i = 1; i < starts.size(); ++i) EXPECT_EQ(starts[i].get(), first);
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(home)) files += e.is_regular_file();
    EXPECT_EQ(files, 1u);  // no temporary file left behind
}

TEST_F(ReplicaSettings, AFileHoldingNoNodeIdIsNamed) {
    const std::string home = tmp_.path().string();
    write("node-id", "not an id!\n");
    try {
        stable_node_id("", home);
        FAIL() << "a bad node-id file was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(home + "/node-id"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("PLATFORM_NODE_ID"), std::string::npos) << e.what();
    }
}

TEST_F(ReplicaSettings, RequiredVariablesStopTheProfileNamingThem) {
    const std::string providers =
        "providers:\n"
        "  store: {plugin: store-memory, config: {dsn: \"${PLATFORM_TEST_DSN:?set it or pass "
        "--dsn}\"}}\n"
        "  broker: {plugin: broker-memory}\n"
        "  auth: {plugin: auth-noop}\n";
    const std::string file = write("needs.yaml", providers);
    unsetenv("PLATFORM_TEST_DSN");
    EXPECT_EQ(profile_error(file),
              file + ":2: PLATFORM_TEST_DSN is not set (set it or pass --dsn)");
    setenv("PLATFORM_TEST_DSN", "", 1);  // empty counts as unset
    EXPECT_NE(profile_error(file).find("PLATFORM_TEST_DSN is not set"), std::string::npos);
    setenv("PLATFORM_TEST_DSN", "x=y", 1);
    EXPECT_EQ(load_profile(file, {}).providers.at("store").config.at("dsn"), "x=y");
    unsetenv("PLATFORM_TEST_DSN");
}

TEST_F(ReplicaSettings, KubernetesProfileLoadsWithBothUrlsAndNamesTheMissingOne) {
    const std::string file = platform::test::source_dir() + "/profiles/kubernetes.yaml";
    std::string e = profile_error(file);
    EXPECT_NE(e.find("PLATFORM_POSTGRES_URL is not set"), std::string::npos) << e;
    EXPECT_NE(e.find("--postgres_url"), std::string::npos) << e;
    setenv("PLATFORM_POSTGRES_URL", "postgresql://platform@127.0.0.1:5432/platform", 1);
    e = profile_error(file);
    EXPECT_NE(e.find("PLATFORM_NATS_URL is not set"), std::string::npos) << e;
    EXPECT_NE(e.find("--nats_url"), std::string::npos) << e;
    setenv("PLATFORM_NATS_URL", "nats://127.0.0.1:4222", 1);
    Profile p = load_profile("kubernetes", {platform::test::source_dir() + "/profiles"});
    EXPECT_EQ(p.name, "kubernetes");
    EXPECT_FALSE(p.manual_clock);
    EXPECT_TRUE(p.all_plugins);
    EXPECT_EQ(p.providers.at("store").plugin, "store-postgres");
    EXPECT_EQ(p.providers.at("store").config.at("dsn"),
              "postgresql://platform@127.0.0.1:5432/platform");
    EXPECT_EQ(p.providers.at("broker").plugin, "broker-nats");
    EXPECT_EQ(p.providers.at("broker").config.at("url"), "nats://127.0.0.1:4222");
    EXPECT_EQ(p.providers.at("events").plugin, "events-nats");
    EXPECT_EQ(p.providers.at("events").config.at("url"), "nats://127.0.0.1:4222");
    EXPECT_EQ(p.providers.at("auth").plugin, "auth-local");
    EXPECT_TRUE(p.http.rate_limit.enabled() && p.http.rate_limit.shared);
    EXPECT_TRUE(p.http.account_rate_limit.enabled() && p.http.account_rate_limit.shared);
    // The same privileged plugins as `local`.
    setenv("PLATFORM_HOME", tmp_.path().c_str(), 1);
    Profile local = load_profile(platform::test::source_dir() + "/profiles/local.yaml", {});
    unsetenv("PLATFORM_HOME");
    EXPECT_EQ(p.privileged, local.privileged);
    EXPECT_EQ(p.providers.at("auth").config, local.providers.at("auth").config);
}

TEST_F(ReplicaSettings, RateLimitSharedIsTrueOrFalse) {
    const std::string providers =
        "providers:\n"
        "  store: {plugin: store-memory}\n"
        "  broker: {plugin: broker-memory}\n"
        "  auth: {plugin: auth-noop}\n";
    Profile p = load_profile(write("on.yaml",
                                   "http:\n  rate_limit: {requests_per_second: 5, shared: true}\n"
                                   "  account_rate_limit: {requests_per_second: 2}\n" +
                                       providers),
                             {});
    EXPECT_TRUE(p.http.rate_limit.shared);
    EXPECT_FALSE(p.http.account_rate_limit.shared);
    const std::string bad =
        write("bad.yaml",
              "http:\n  account_rate_limit: {requests_per_second: 5, shared: yes}\n" + providers);
    EXPECT_EQ(profile_error(bad),
              bad + ":2: http.account_rate_limit.shared: must be true or false");
    const std::string unknown = write(
        "unknown.yaml", "http:\n  rate_limit: {requests_per_second: 5, share: true}\n" + providers);
    EXPECT_NE(profile_error(unknown).find("expected requests_per_second, burst, shared"),
              std::string::npos)
        << profile_error(unknown);
}

}  // namespace
