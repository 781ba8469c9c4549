// Start-up failures name their cause: unknown profile, YAML error with file and line, unknown
// provider plugin with file, line and key, a port already in use. SIGTERM exits 0.
#include "host_process.hpp"
#include "http_client.hpp"

#include <gtest/gtest.h>

#include <fstream>

using platform::test::HostProcess;
using platform::test::TempDir;

namespace {

HostProcess::Options with_profile(const std::string& profile) {
    HostProcess::Options o;
    o.profile = profile;
    return o;
}

TEST(Startup, UnknownProfileIsNamed) {
    HostProcess host(with_profile("nosuch"));
    EXPECT_EQ(host.run_to_exit(), 1);
    EXPECT_NE(host.log().find("unknown profile 'nosuch'"), std::string::npos) << host.log();
}

TEST(Startup, YamlErrorNamesFileAndLine) {
    TempDir dir;
    std::string file = dir.path() + "/broken.yaml";
    std::ofstream(file) << "name: broken\nproviders:\n  store: [unclosed\n";
    HostProcess host(with_profile(file));
    EXPECT_EQ(host.run_to_exit(), 1);
    EXPECT_NE(host.log().find(file + ":"), std::string::npos) << host.log();
    EXPECT_NE(host.log().find("YAML error"), std::string::npos) << host.log();
}

TEST(Startup, UnknownKeyAndUnknownProviderNameFileLineAndKey) {
    TempDir dir;
    std::string file = dir.path() + "/p.yaml";
    std::ofstream(file) << "name: p\nclock: real\nproviders:\n  store:\n    plugin: store-nosuch\n"
                           "  broker:\n    plugin: broker-memory\n  auth:\n    plugin: auth-noop\n";
    HostProcess host(with_profile(file));
    EXPECT_EQ(host.run_to_exit(), 1);
    EXPECT_NE(host.log().find(file + ":5: providers.store.plugin: unknown plugin 'store-nosuch'"), std::string::npos)
        << host.log();

    std::ofstream(file) << "name: p\nclokc: real\n";
    HostProcess typo(with_profile(file));
    EXPECT_EQ(typo.run_to_exit(), 1);
    EXPECT_NE(typo.log().find(file + ":2: clokc: unknown key"), std::string::npos) << typo.log();
}

TEST(Startup, PortInUseIsAnErrorNotACrash) {
    HostProcess first;
    first.start();
    HostProcess::Options o;
    o.args = {"--api_address", "127.0.0.1:" + std::to_string(first.api_port())};
    HostProcess second(o);
    EXPECT_EQ(second.run_to_exit(), 1) << second.log();
    EXPECT_EQ(first.stop(), 0);
}

}  // namespace
