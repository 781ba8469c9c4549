// Start-up failures name their cause: unknown profile, YAML error with file and line, unknown
// provider plugin with file, line and key, values of the wrong type or shape, plugins that do not
// exist or cannot start, a port already in use. Each exits 1, never a crash. SIGTERM exits 0.
#include <gtest/gtest.h>

#include <fstream>

#include "host_process.hpp"
#include "http_client.hpp"

using namespace platform::test;

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

// The kubernetes profile needs PLATFORM_POSTGRES_URL and PLATFORM_NATS_URL (decision 72): without
// one the server stops naming the variable and its flag, before any provider tries to connect; a
// flag sets the variable the profile reads; a bad value stops the command naming the flag.
TEST(Startup, KubernetesProfileNamesTheMissingSetting) {
    HostProcess::Options o = with_profile("kubernetes");
    o.env = {{"PLATFORM_POSTGRES_URL", ""}, {"PLATFORM_NATS_URL", ""}};
    HostProcess none(o);
    EXPECT_EQ(none.run_to_exit(), 1);
    EXPECT_NE(none.log().find("kubernetes.yaml:30: PLATFORM_POSTGRES_URL is not set"),
              std::string::npos)
        << none.log();
    EXPECT_NE(none.log().find("--postgres_url"), std::string::npos) << none.log();
    EXPECT_EQ(none.log().find("store-postgres:"), std::string::npos) << none.log();  // not tried

    o.args = {"--postgres_url", "postgresql://platform@127.0.0.1:1/platform"};
    HostProcess no_nats(o);
    EXPECT_EQ(no_nats.run_to_exit(), 1);
    EXPECT_NE(no_nats.log().find("PLATFORM_NATS_URL is not set"), std::string::npos)
        << no_nats.log();
    EXPECT_NE(no_nats.log().find("--nats_url"), std::string::npos) << no_nats.log();

    o.args = {"--nats_url", "http://nats:4222"};
    HostProcess bad(o);
    EXPECT_EQ(bad.run_to_exit(), 2);
    EXPECT_NE(bad.log().find("--nats_url"), std::string::npos) << bad.log();
    EXPECT_NE(bad.log().find("nats://host:port"), std::string::npos) << bad.log();
    o.args = {};
    o.env["PLATFORM_NODE_ID"] = "bad id";
    HostProcess bad_id(o);
    EXPECT_EQ(bad_id.run_to_exit(), 2);
    EXPECT_NE(bad_id.log().find("PLATFORM_NODE_ID: 'bad id'"), std::string::npos) << bad_id.log();
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
    EXPECT_NE(host.log().find(file + ":5: providers.store.plugin: unknown plugin 'store-nosuch'"),
              std::string::npos)
        << host.log();

    std::ofstream(file) << "name: p\nclokc: real\n";
    HostProcess typo(with_profile(file));
    EXPECT_EQ(typo.run_to_exit(), 1);
    EXPECT_NE(typo.log().find(file + ":2: clokc: unknown key"), std::string::npos) << typo.log();
}

// Bad profiles (issue 11): each is refused with one line naming file, line and key, and exit 1 —
// also those found after the providers started (a clean teardown, not a crash).
TEST(Startup, BadValuesAndPluginsNameFileLineAndKey) {
    const std::string providers =
        "providers:\n  store: {plugin: store-memory}\n  broker: {plugin: broker-memory}\n"
        "  auth: {plugin: auth-noop}\n";
    const std::string other_providers =
        "  broker: {plugin: broker-memory}\n  auth: {plugin: auth-noop}\n";
    const struct {
        std::string yaml, expect;
    } cases[] = {
        {"name: [a, b]\n" + providers, ":1: name: must be a string"},
        {"name: p\ndescription: {text: x}\n" + providers, ":2: description: must be a string"},
        {"name: p\nproviders:\n  store: {plugin: [store-memory]}\n" + other_providers,
         ":3: providers.store.plugin: must be a string"},
        {"name: p\nhttp: {max_connections: lots}\n" + providers,
         ":2: http.max_connections: must be an integer"},
        {"name: p\nsettings: {call_timeout_ms: [1]}\n" + providers,
         ":2: settings.call_timeout_ms: must be an integer"},
        {"name: p\nplugins: [notes, nosuch]\n" + providers, ":2: plugins: unknown plugin 'nosuch'"},
        {"name: p\nisolation: {nosuch: process}\n" + providers,
         ":2: isolation.nosuch: unknown plugin 'nosuch'"},
        {"name: p\nproviders:\n  store: {plugin: notes}\n" + other_providers,
         ":3: providers.store.plugin: 'notes' is not a store provider"},
        {"name: p\nproviders:\n  store: {plugin: store-sqlite, config: {path: /proc/none/s.db}}\n" +
             other_providers,
         ":3: providers.store: store-sqlite: on_create failed"},
    };
    TempDir dir;
    const std::string file = dir.path() + "/bad.yaml";
    for (const auto& c : cases) {
        SCOPED_TRACE(c.yaml);
        std::ofstream(file) << c.yaml;
        HostProcess host(with_profile(file));
        EXPECT_EQ(host.run_to_exit(), 1) << host.log();
        EXPECT_NE(host.log().find(file + c.expect), std::string::npos) << host.log();
        EXPECT_EQ(host.log().find("listening"), std::string::npos) << host.log();
    }
}

// A port in use names the address, the setting and the flag that chose it, for either port.
TEST(Startup, PortInUseNamesTheAddressAndTheSettingThatChoseIt) {
    HostProcess first;
    first.start();
    const std::string api = "127.0.0.1:" + std::to_string(first.api_port());
    HostProcess::Options o;
    o.args = {"--api_address", api};
    HostProcess second(o);
    EXPECT_EQ(second.run_to_exit(), 1) << second.log();
    EXPECT_NE(second.log().find("api address " + api +
                                " (PLATFORM_API_ADDRESS, or `platform server --api_address`): "
                                "cannot listen: address already in use"),
              std::string::npos)
        << second.log();

    const std::string proxy = "127.0.0.1:" + std::to_string(first.proxy_port());
    HostProcess::Options p;
    p.args = {"--proxy_address", proxy};
    HostProcess third(p);
    EXPECT_EQ(third.run_to_exit(), 1) << third.log();
    EXPECT_NE(third.log().find("proxy address " + proxy +
                               " (PLATFORM_PROXY_ADDRESS, or `platform server --proxy_address`)"),
              std::string::npos)
        << third.log();
    EXPECT_EQ(first.stop(), 0);
}

// The HTTP I/O threads (PLATFORM_HTTP_IO_THREADS / --http_io_threads): the startup line names
// how many; 0 (the default) is one per core the process may use; a bad value stops the server
// naming the setting.
TEST(Startup, HttpIoThreadsAreASetting) {
    HostProcess::Options one;
    one.env = {{"PLATFORM_HTTP_IO_THREADS", "1"}};
    HostProcess a(one);
    a.start();
    EXPECT_NE(a.log().find(" io_threads=1"), std::string::npos) << a.log();
    HttpClient ca("127.0.0.1", a.api_port());
    EXPECT_EQ(ca.get("/").status, 200);
    HttpClient pa("127.0.0.1", a.proxy_port());
    EXPECT_EQ(pa.get("/").status, 200);
    EXPECT_EQ(a.stop(), 0);

    HostProcess::Options flag;
    flag.env = {{"PLATFORM_HTTP_IO_THREADS", "1"}};
    flag.args = {"--http_io_threads", "3"};  // the flag wins
    HostProcess b(flag);
    b.start();
    EXPECT_NE(b.log().find(" io_threads=3"), std::string::npos) << b.log();
    EXPECT_EQ(HttpClient("127.0.0.1", b.api_port()).get("/").status, 200);
    EXPECT_EQ(b.stop(), 0);

    HostProcess::Options bad;
    bad.env = {{"PLATFORM_HTTP_IO_THREADS", "many"}};
    HostProcess c(bad);
    EXPECT_EQ(c.run_to_exit(), 2);
    EXPECT_NE(c.log().find("PLATFORM_HTTP_IO_THREADS: 'many'"), std::string::npos) << c.log();
    HostProcess::Options negative;
    negative.args = {"--http_io_threads", "-1"};
    HostProcess d(negative);
    EXPECT_EQ(d.run_to_exit(), 2);
    EXPECT_NE(d.log().find("--http_io_threads"), std::string::npos) << d.log();
}

}  // namespace
