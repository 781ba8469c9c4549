// Process isolation (docs/decisions.md 25): a profile written here runs
// `crashy` (tests/plugins/crashy) and `notes` in platform-worker processes. A crash, an abort or a
// hang fails only that plugin's call (503, or 504 by the deadline for a hang), the worker comes
// back with a new pid, and the host and every other plugin keep answering.
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

#include "build_tree.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

// The `test` profile's providers, with crashy's folder added and two plugins in workers.
std::string write_profile(const TempDir& dir) {
    const std::string path = dir.path() + "/isolation.yaml";
    std::ofstream(path) << "name: isolation\n"
                           "clock: manual\n"
                           "plugins: all\n"
                           "test_plugins: true\n"
                           "plugin_path: [\""
                        << platform::test::test_plugin_dir()
                        << "/crashy\"]\n"
                           "privileged: [registry, clock, config, store, broker, network]\n"
                           "isolation: {crashy: process, notes: process}\n"
                           "providers:\n"
                           "  store: {plugin: store-memory}\n"
                           "  broker: {plugin: broker-memory}\n"
                           "  events: {plugin: events-memory}\n"
                           "  auth: {plugin: auth-noop, config: {admins: [admin]}}\n";
    return path;
}

// The `platform` child of this test process (HostProcess forks it).
int host_pid() {
    DIR* d = ::opendir("/proc");
    int found = 0;
    while (dirent* e = d ? ::readdir(d) : nullptr) {
        const int pid = std::atoi(e->d_name);
        if (pid <= 0) continue;
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        if (close == std::string::npos || line.find("(platform)") == std::string::npos) continue;
        int ppid = 0;
        char state = 0;
        std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid);
        if (ppid == ::getpid()) found = pid;
    }
    if (d) ::closedir(d);
    return found;
}

struct Isolated {
    TempDir dir;
    HostProcess host{HostProcess::Options{write_profile(dir), "", {}, {}}};
    Isolated() { host.start(); }
};

json crashy_pid(HttpClient& c) {
    HttpResult r = c.get("/api/v1/crashy/pid");
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["data"];
}

// Polls crashy/pid until it answers from a process other than `old` (a bounded wait on a condition).
int64_t wait_for_new_worker(HttpClient& c, int64_t old) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < until) {
        HttpResult r = c.get("/api/v1/crashy/pid");
        if (r.status == 200 && r.json()["data"]["pid"].get<int64_t>() != old)
            return r.json()["data"]["pid"];
        EXPECT_TRUE(r.status == 200 || r.status == 503) << r.status << " " << r.body;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "crashy did not come back in a new worker within 30 s";
    return old;
}

// While `crash` runs, 4 threads call an in-process plugin (clock) and the isolated notes; every
// one of those calls must succeed.
void crash_while_others_work(const Isolated& iso, const std::function<void(HttpClient&)>& crash) {
    std::atomic<bool> crashed{false};
    std::atomic<int> ok{0}, failed{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            HttpClient c("127.0.0.1", iso.host.api_port());
            const std::string who = "worker-" + std::to_string(t);
            for (int i = 0; i < 5 || !crashed; ++i) {
                HttpResult r =
                    i % 2 ? c.get("/clock/now")
                          : c.post_json("/api/v1/notes/add",
                                        {{"title", "n" + std::to_string(i)}, {"text", "x"}},
                                        bearer(who));
                (r.status == 200 ? ok : failed).fetch_add(1);
                if (r.status != 200) ADD_FAILURE() << r.status << " " << r.body;
            }
        });
    HttpClient c("127.0.0.1", iso.host.api_port());
    crash(c);
    crashed = true;
    for (auto& t : threads) t.join();
    EXPECT_GE(ok.load(), 20);
    EXPECT_EQ(failed.load(), 0);
}

void expect_restarting(const HttpResult& r) {
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_EQ(r.json()["error"]["code"], "unavailable");
    EXPECT_NE(r.json()["error"]["message"].get<std::string>().find("restarting"), std::string::npos)
        << r.body;
}

TEST(Isolation, NotesInAWorkerWorkAsInProcess) {
    Isolated iso;
    HttpClient c("127.0.0.1", iso.host.api_port());
    ASSERT_EQ(c.post_json("/api/v1/notes/add", {{"title", "secret"}, {"text", "alice's"}},
                          bearer("alice"))
                  .status,
              200);
    HttpResult got = c.get("/api/v1/notes/get?title=secret", bearer("alice"));
    ASSERT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(got.json()["data"]["text"], "alice's");
    auto list = c.get("/api/v1/notes/list", bearer("alice")).json()["data"]["notes"];
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0]["title"], "secret");
    // Owner scoping holds through the proxied store: another account sees nothing.
    EXPECT_EQ(c.get("/api/v1/notes/get?title=secret", bearer("bob")).status, 404);
    EXPECT_EQ(c.get("/api/v1/notes/list", bearer("bob")).json()["data"]["notes"].size(), 0u);
    EXPECT_EQ(c.get("/api/v1/notes/list").status, 401);

    McpClient mcp(iso.host.api_port(), "alice");
    mcp.initialize();
    std::set<std::string> tools;
    for (json page = mcp.request("tools/list");;
         page = mcp.request("tools/list", {{"cursor", page["result"]["nextCursor"]}})) {
        ASSERT_TRUE(page.contains("result")) << page;
        for (const auto& t : page["result"]["tools"]) tools.insert(t["name"].get<std::string>());
        if (!page["result"].contains("nextCursor")) break;
    }
    EXPECT_TRUE(tools.count("notes_add"));
    EXPECT_TRUE(tools.count("crashy_ok"));
    const json added = mcp.call_tool("notes_add", {{"title", "via mcp"}, {"text", "t"}});
    EXPECT_FALSE(added.value("isError", false)) << added;

    // Each plugin runs in its own process, a child of the host.
    const json crashy = crashy_pid(c);
    const int host = host_pid();
    ASSERT_GT(host, 0);
    EXPECT_NE(crashy["pid"].get<int>(), host);
    EXPECT_EQ(crashy["ppid"].get<int>(), host);
    EXPECT_EQ(iso.host.stop(), 0);
    EXPECT_EQ(::kill(crashy["pid"].get<int>(), 0), -1) << "the worker outlived the host";
}

TEST(Isolation, SegfaultFailsOnlyItsCallAndTheWorkerRestarts) {
    Isolated iso;
    HttpClient c("127.0.0.1", iso.host.api_port());
    const int64_t before = crashy_pid(c)["pid"];
    crash_while_others_work(iso, [](HttpClient& me) {
        expect_restarting(me.post_json("/api/v1/crashy/segfault", json::object()));
    });
    // A call during the restart answers at once: 503, or 200 once the new worker is up.
    const auto t0 = std::chrono::steady_clock::now();
    const int status = c.get("/api/v1/crashy/ok").status;
    EXPECT_TRUE(status == 503 || status == 200) << status;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
    const int64_t after = wait_for_new_worker(c, before);
    EXPECT_NE(after, before);
    EXPECT_EQ(c.get("/api/v1/crashy/ok").status, 200);
    EXPECT_EQ(::kill(host_pid(), 0), 0);
    EXPECT_EQ(c.get("/").status, 200);
    EXPECT_EQ(iso.host.stop(), 0);
}

TEST(Isolation, AbortFailsOnlyItsCallAndTheWorkerRestarts) {
    Isolated iso;
    HttpClient c("127.0.0.1", iso.host.api_port());
    const int64_t before = crashy_pid(c)["pid"];
    crash_while_others_work(iso, [](HttpClient& me) {
        expect_restarting(me.post_json("/api/v1/crashy/abort", json::object()));
    });
    EXPECT_NE(wait_for_new_worker(c, before), before);
    EXPECT_EQ(c.get("/api/v1/crashy/ok").status, 200);
    EXPECT_EQ(c.get("/api/v1/notes/list", bearer("worker-0")).status, 200);
    EXPECT_EQ(iso.host.stop(), 0);
}

TEST(Isolation, HangIsADeadlineAndTheWorkerIsReplaced) {
    Isolated iso;
    HttpClient c("127.0.0.1", iso.host.api_port());
    const int64_t before = crashy_pid(c)["pid"];
    HttpResult r = c.post("/api/v1/crashy/hang", "{}",
                          {{"Content-Type", "application/json"}, {"Timeout", "1"}});
    EXPECT_EQ(r.status, 504) << r.body;
    EXPECT_EQ(r.json()["error"]["code"], "deadline_exceeded");
    EXPECT_EQ(c.get("/clock/now").status, 200);
    // The wedged handler outlives its call: the worker is killed and a new one serves.
    EXPECT_NE(wait_for_new_worker(c, before), before);
    EXPECT_EQ(c.get("/api/v1/crashy/ok").status, 200);
    EXPECT_EQ(iso.host.stop(), 0);
}

}  // namespace
