// runtime/plugins (docs/decisions.md 82) against the real host: a profile written here runs crashy
// (tests/plugins/crashy) in a platform-worker, and the plugin path holds a file that is no library
// and a second copy of notes. An admin sees every plugin with its state — each registered service
// loaded or isolated, the broken file and the copy refused with their reasons, crashy's restarts
// counted after a crash; an account gets 403, an anonymous caller 401.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "build_tree.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class RuntimePlugins : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        namespace fs = std::filesystem;
        const std::string extra = suite_dir() + "/extra";
        fs::create_directories(extra);
        std::ofstream(extra + "/garbage.so") << std::string(200, '#') << " not a shared object\n";
        fs::copy_file(platform::test::plugin_dir() + "/notes.so", extra + "/notes-copy.so");
        const std::string profile = suite_dir() + "/plugins.yaml";
        std::ofstream(profile) << "name: plugin-states\n"
                                  "clock: manual\n"
                                  "plugins: all\n"
                                  "test_plugins: true\n"
                                  "plugin_path: [\""
                               << platform::test::test_plugin_dir()
                               << "/crashy\"]\n"
                                  "privileged: [registry, clock, config, store, broker, network]\n"
                                  "isolation: {crashy: process}\n"
                                  "providers:\n"
                                  "  store: {plugin: store-memory}\n"
                                  "  broker: {plugin: broker-memory}\n"
                                  "  events: {plugin: events-memory}\n"
                                  "  auth: {plugin: auth-noop, config: {admins: [admin]}}\n";
        HostProcess::Options o;
        o.profile = profile;
        o.env["PLATFORM_PLUGIN_PATH"] = extra;
        start_host(o);
    }

    HttpResult plugins(const std::string& account) {
        return api.post_json("/runtime/plugins", json::object(),
                             account.empty() ? Headers{} : as(account));
    }
    // The entry whose file ends with `/<file>`, or null.
    static json by_file(const json& list, const std::string& file) {
        for (const auto& p : list) {
            const std::string f = p.value("file", "");
            if (f.size() > file.size() &&
                f.compare(f.size() - file.size() - 1, std::string::npos, "/" + file) == 0)
                return p;
        }
        return nullptr;
    }
    static json by_id(const json& list, const std::string& id) {
        for (const auto& p : list)
            if (p.value("id", "") == id) return p;
        return nullptr;
    }
};

TEST_F(RuntimePlugins, AnAdminSeesEveryRegisteredServiceLoadedOrIsolated) {
    auto r = plugins("admin");
    ASSERT_EQ(r.status, 200) << r.body;
    const json body = r.json();
    EXPECT_EQ(body["profile"], "plugin-states");
    const json& list = body["plugins"];
    ASSERT_TRUE(list.is_array());

    std::set<std::string> serving;
    for (const auto& p : list) {
        const std::string state = p.value("state", "");
        EXPECT_TRUE(state == "loaded" || state == "isolated" || state == "refused" ||
                    state == "unused")
            << p.dump();
        if ((state == "loaded" || state == "isolated") && !p["service"].get<std::string>().empty())
            serving.insert(p["service"].get<std::string>());
    }
    // Every service the registry lists is served by a plugin listed as loaded or isolated.
    auto services = api.post_json("/registry/listServices", json::object(), as("admin"));
    ASSERT_EQ(services.status, 200) << services.body;
    size_t count = 0;
    const json registered = services.json();
    for (const auto& s : registered["services"]) {
        EXPECT_TRUE(serving.count(s["name"].get<std::string>())) << s["name"] << "\n"
                                                                 << list.dump(1);
        ++count;
    }
    EXPECT_GT(count, 10u);

    const json notes = by_file(list, "notes.so");
    ASSERT_TRUE(notes.is_object()) << list.dump(1);
    EXPECT_EQ(notes["id"], "notes");
    EXPECT_EQ(notes["state"], "loaded");
    EXPECT_EQ(notes["kind"], "service");
    EXPECT_EQ(notes["service"], "go.core.api.v1.notes");
    EXPECT_FALSE(notes.contains("reason"));

    const json runtime = by_id(list, "runtime");
    ASSERT_TRUE(runtime.is_object()) << list.dump(1);
    EXPECT_EQ(runtime["state"], "loaded");
    EXPECT_EQ(runtime["file"], "<built-in runtime>");
    EXPECT_EQ(runtime["service"], "go.core.api.runtime");

    const json store = by_id(list, "store-memory");
    ASSERT_TRUE(store.is_object());
    EXPECT_EQ(store["kind"], "store");
    EXPECT_EQ(store["state"], "loaded");
    // A store provider the profile did not choose is found but unused, and says so.
    const json sqlite = by_id(list, "store-sqlite");
    ASSERT_TRUE(sqlite.is_object());
    EXPECT_EQ(sqlite["state"], "unused");
    EXPECT_EQ(sqlite["reason"], "the profile chose another store provider");
}

TEST_F(RuntimePlugins, RefusedPluginsShowTheirReasons) {
    auto r = plugins("admin");
    ASSERT_EQ(r.status, 200) << r.body;
    const json list = r.json()["plugins"];

    const json garbage = by_file(list, "garbage.so");
    ASSERT_TRUE(garbage.is_object()) << list.dump(1);
    EXPECT_EQ(garbage["state"], "refused");
    EXPECT_EQ(garbage["id"], "");
    EXPECT_NE(garbage["reason"].get<std::string>().find("not an ELF file"), std::string::npos)
        << garbage.dump();
    // The log line and the record say the same.
    EXPECT_NE(host->log().find("garbage.so refused: " + garbage["reason"].get<std::string>()),
              std::string::npos)
        << host->log();

    const json copy = by_file(list, "notes-copy.so");
    ASSERT_TRUE(copy.is_object()) << list.dump(1);
    EXPECT_EQ(copy["state"], "refused");
    EXPECT_EQ(copy["id"], "notes");
    EXPECT_EQ(copy["reason"].get<std::string>().rfind("id 'notes' already loaded from ", 0), 0u)
        << copy.dump();
}

TEST_F(RuntimePlugins, AnIsolatedPluginCountsItsRestarts) {
    auto first = plugins("admin");
    ASSERT_EQ(first.status, 200) << first.body;
    json crashy = by_id(first.json()["plugins"], "crashy");
    ASSERT_TRUE(crashy.is_object()) << first.body;
    EXPECT_EQ(crashy["state"], "isolated");
    EXPECT_EQ(crashy["service"], "go.core.api.v1.crashy");
    const int before = crashy["restarts"].get<int>();

    const int64_t pid = api.get("/api/v1/crashy/pid").json()["data"]["pid"];
    EXPECT_EQ(api.post_json("/api/v1/crashy/segfault", json::object()).status, 503);
    // Polls until the worker is back (a bounded wait on a condition).
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        auto now = api.get("/api/v1/crashy/pid");
        if (now.status == 200 && now.json()["data"]["pid"].get<int64_t>() != pid) break;
        ASSERT_LT(std::chrono::steady_clock::now(), until) << "crashy did not come back";
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    auto after = plugins("admin");
    ASSERT_EQ(after.status, 200) << after.body;
    crashy = by_id(after.json()["plugins"], "crashy");
    EXPECT_EQ(crashy["state"], "isolated");
    EXPECT_EQ(crashy["restarts"].get<int>(), before + 1) << crashy.dump();
    EXPECT_NE(crashy.value("last_exit", "").find("signal 11"), std::string::npos) << crashy.dump();
}

TEST_F(RuntimePlugins, AnAccountGets403AndAnonymous401) {
    auto bob = plugins("bob");
    EXPECT_EQ(bob.status, 403) << bob.body;
    EXPECT_NE(bob.body.find("needs the admin scope"), std::string::npos) << bob.body;
    EXPECT_EQ(bob.body.find("crashy"), std::string::npos);  // nothing of the list leaks
    EXPECT_EQ(plugins("").status, 401);
    // Over /rpc as well, and the catalogue does not serve the built-in.
    HttpClient c("127.0.0.1", host->proxy_port());
    auto rpc = c.post_json(
        "/rpc",
        {{"service", "runtime"}, {"method", "Runtime.Plugins"}, {"request", json::object()}},
        as("bob"));
    EXPECT_EQ(rpc.status, 403) << rpc.body;
    EXPECT_EQ(api.get("/api/v1/runtime/plugins", as("admin")).status, 404);
}

}  // namespace
