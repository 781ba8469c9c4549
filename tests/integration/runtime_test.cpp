// The runtime (issue 8, docs/decisions.md 27): `platform run|update|kill|status|logs` against the
// real host. Sources are the SDK's hello example copied to a temp folder (uploaded by the CLI), a
// git repository made here with `git init`, crashy (tests/plugins/crashy) as an out-of-tree
// folder, a folder that does not compile, and the C, Rust and Go examples of plugin-sdk/examples.
// Every wait polls a condition under a deadline.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <thread>

#include "build_tree.hpp"
#include "command.hpp"
#include "eventually.hpp"
#include "fake_model_server.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "local_files.hpp"
#include "mcp_client.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;
namespace fs = std::filesystem;

namespace {

constexpr int kBuildSeconds = 240;  // a cold build on a loaded 2-core machine

// A copy of plugin-sdk/examples/hello in <parent>/<name>.
std::string hello_folder(const std::string& parent, const std::string& name) {
    const std::string dir = parent + "/" + name;
    fs::create_directories(dir);
    for (const char* f : {"hello.cpp", "CMakeLists.txt"})
        fs::copy_file(platform::test::source_dir() + "/plugin-sdk/examples/hello/" + f,
                      dir + "/" + f);
    return dir;
}

class Runtime : public SharedHostTest {
protected:
    // The test profile with the scripted model server as the agent's model (OpenAI's format).
    static void SetUpTestSuite() {
        model = new FakeModelServer();
        auto options = platform::test::model_server_host(*model, suite_dir() + "/runtime.yaml",
                                                         platform::test::test_profile_text());
        // Debian's toolchains (never a rustup or golang.org install also on PATH), and Go's build
        // cache kept between runs (decision 84).
        options.env["PATH"] = "/usr/bin:/bin";
        options.env["GOCACHE"] = platform::test::build_dir() + "/runtime-languages-cache/go-build";
        start_host(options);
    }
    static void TearDownTestSuite() {
        stop_host();
        delete model;
    }
    CommandResult platform(std::vector<std::string> args, const std::string& token = "admin") {
        // run and update wait for the build
        return run_cli(*host, home_.path(), token, std::move(args), {}, kBuildSeconds + 60);
    }
    static json rpc(const std::string& method, const json& request, int* status = nullptr,
                    const std::string& token = "admin") {
        HttpClient c("127.0.0.1", host->proxy_port());
        auto r =
            c.post_json("/rpc", {{"service", "runtime"}, {"method", method}, {"request", request}},
                        {{"Authorization", "Bearer " + token}});
        if (status) *status = r.status;
        return r.json();
    }
    static json record(const std::string& name) {
        int status = 0;
        json r = rpc("Runtime.Status", {{"name", name}}, &status);
        return status == 200 && !r["services"].empty() ? r["services"][0] : json();
    }
    // Waits until the service's status is `want` (or error, which fails unless wanted).
    static json wait_status(const std::string& name, const std::string& want) {
        json rec;
        eventually(
            [&] {
                rec = record(name);
                const std::string s = rec.is_object() ? rec.value("status", "") : "";
                return s == want || s == "error";
            },
            kBuildSeconds);
        EXPECT_EQ(rec.is_object() ? rec.value("status", "") : "", want) << rec.dump() << "\n"
                                                                        << logs(name);
        return rec;
    }
    static std::string logs(const std::string& name) {
        json r = rpc("Runtime.Logs", {{"name", name}, {"lines", 200}});
        std::string out;
        for (const auto& l : r.value("lines", json::array())) out += l.get<std::string>() + "\n";
        return out;
    }
    static std::string greet(const std::string& service, int* status = nullptr) {
        HttpClient c("127.0.0.1", host->api_port());
        auto r = c.get("/api/v1/" + service + "/greet?name=Ada");
        if (status) *status = r.status;
        return r.status == 200 ? r.json()["data"].value("message", "") : r.body;
    }
    static FakeModelServer* model;
    TempDir home_, src_;
};
FakeModelServer* Runtime::model = nullptr;

// Every tool's name, all pages of tools/list.
std::vector<std::string> tool_names(McpClient& mcp) {
    std::vector<std::string> out;
    for (const auto& [name, _] : mcp.tools()) out.push_back(name);
    return out;
}
bool has(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

TEST_F(Runtime, FolderRunUpdateKill) {
    const std::string dir = hello_folder(src_.path(), "hello");
    auto run = platform({"run", dir});
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_EQ(run.out, "");  // progress goes to stderr: stdout stays clean for scripts
    for (const char* step : {"hello: uploading ", "hello: building", "hello: running"})
        EXPECT_NE(run.err.find(step), std::string::npos) << step << " in\n" << run.err;
    EXPECT_EQ(record("hello")["status"], "running");  // run came back once it served
    json rec = wait_status("hello", "running");
    EXPECT_EQ(rec["version"], "1.0.0");
    EXPECT_EQ(rec["metadata"]["owner"], "admin");
    EXPECT_EQ(rec["source"], dir);
    EXPECT_EQ(greet("hello"), "Hello, Ada!");

    auto status = platform({"status"});
    EXPECT_EQ(status.code, 0) << status.err;
    EXPECT_NE(status.out.find("NAME"), std::string::npos);
    EXPECT_TRUE(std::regex_search(
        status.out,
        std::regex("hello\\s+1\\.0\\.0\\s+\\S+\\s+running\\s+[0-9a-f]{7}\\s+\\d+s ago\\s+"
                   "owner=admin, group=go\\.core\\.api")))
        << status.out;
    auto logs = platform({"logs", "hello"});
    EXPECT_EQ(logs.code, 0) << logs.err;
    EXPECT_NE(logs.out.find("runtime: running go.core.api.v1.hello"), std::string::npos)
        << logs.out;
    EXPECT_LE(std::count(logs.out.begin(), logs.out.end(), '\n'), 15);

    // Edit and update: the new answer replaces the old one.
    replace_in(dir + "/hello.cpp", "\"Hello, \"", "\"Howdy, \"");
    auto update = platform({"update", dir});
    ASSERT_EQ(update.code, 0) << update.err;
    EXPECT_NE(update.err.find("hello: updating"), std::string::npos) << update.err;
    EXPECT_EQ(greet("hello"), "Howdy, Ada!") << Runtime::logs("hello");
    EXPECT_NE(record("hello")["build"], rec["build"]);

    // A failed build keeps the old worker serving and records the error.
    replace_in(dir + "/hello.cpp", "return {{\"message\"", "return {{undeclared_thing");
    auto failed = platform({"update", dir});
    EXPECT_EQ(failed.code, 1) << failed.err;
    EXPECT_TRUE(std::regex_search(failed.err,
                                  std::regex("\nerror: build failed: \\S*hello\\.cpp:\\d+:\\d+: "
                                             "error: .*undeclared_thing")))
        << failed.err;
    EXPECT_NE(failed.err.find("The previous build still serves"), std::string::npos) << failed.err;
    ASSERT_TRUE(record("hello")["metadata"].contains("error")) << Runtime::logs("hello");
    EXPECT_EQ(record("hello")["status"], "running");
    EXPECT_NE(record("hello")["metadata"]["error"].get<std::string>().find("undeclared_thing"),
              std::string::npos);
    EXPECT_EQ(greet("hello"), "Howdy, Ada!");

    auto kill = platform({"kill", "hello"});
    ASSERT_EQ(kill.code, 0) << kill.err;
    int code = 0;
    greet("hello", &code);
    EXPECT_EQ(code, 404);
    EXPECT_EQ(platform({"status"}).out.find("hello"), std::string::npos);
    EXPECT_EQ(platform({"logs", "hello"}).code, 5);
}

// A service started with `platform run` is an MCP tool and one the agent may use, from the moment
// it runs until it is killed; open sessions hear notifications/tools/list_changed both times.
TEST_F(Runtime, RunServicesAreMcpAndAgentToolsUntilKilled) {
    McpClient mcp(host->api_port(), "admin");
    const json init = mcp.initialize();
    EXPECT_EQ(init["capabilities"]["tools"]["listChanged"], true) << init;
    EventStream events(host->api_port(), mcp.headers());
    ASSERT_EQ(events.status(), 200);
    EXPECT_FALSE(has(tool_names(mcp), "toolhello_greet"));

    ASSERT_EQ(platform({"run", hello_folder(src_.path(), "toolhello")}).code, 0);
    wait_status("toolhello", "running");
    EXPECT_TRUE(events.wait_for("notifications/tools/list_changed", 10000)) << events.received();
    EXPECT_TRUE(has(tool_names(mcp), "toolhello_greet"));
    const json called = mcp.call_tool("toolhello_greet", {{"name", "Ada"}});
    EXPECT_EQ(called["structuredContent"]["message"], "Hello, Ada!") << called;

    // The agent offers it to the model and runs the model's call to it.
    HttpClient api("127.0.0.1", host->api_port());
    auto use = api.post_json("/rpc",
                             {{"service", "config"},
                              {"method", "Config.Set"},
                              {"request", {{"path", "model.provider"}, {"value", "openai"}}}},
                             {{"Authorization", "Bearer admin"}});
    ASSERT_EQ(use.status, 200) << use.body;
    model->enqueue(FakeModelServer::kOpenAiPath,
                   FakeModelServer::ok(FakeModelServer::openai_tool_call(
                       "call_1", "toolhello_greet", {{"name", "Grace"}})));
    model->enqueue(FakeModelServer::kOpenAiPath,
                   FakeModelServer::ok(FakeModelServer::openai_text("It said hello.")));
    auto ask = api.post_json("/api/v1/agent/ask", {{"prompt", "greet Grace"}},
                             {{"Authorization", "Bearer admin"}});
    ASSERT_EQ(ask.status, 200) << ask.body;
    auto seen = model->requests(FakeModelServer::kOpenAiPath);
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_TRUE(has(FakeModelServer::openai_tool_names(seen[0].body), "toolhello_greet"));
    EXPECT_NE(seen[1].body["messages"].back().dump().find("Hello, Grace!"), std::string::npos)
        << seen[1].body["messages"].back();

    // Killed: gone from tools/list, tools/call and the agent's offer.
    ASSERT_EQ(platform({"kill", "toolhello"}).code, 0);
    EXPECT_TRUE(events.wait_for("notifications/tools/list_changed", 10000, 2)) << events.received();
    EXPECT_FALSE(has(tool_names(mcp), "toolhello_greet"));
    const json gone =
        mcp.request("tools/call", {{"name", "toolhello_greet"}, {"arguments", {{"name", "Ada"}}}});
    EXPECT_TRUE(gone.contains("error")) << gone;
    model->enqueue(FakeModelServer::kOpenAiPath,
                   FakeModelServer::ok(FakeModelServer::openai_text("Nothing to use.")));
    ask = api.post_json("/api/v1/agent/ask", {{"prompt", "greet Grace again"}},
                        {{"Authorization", "Bearer admin"}});
    ASSERT_EQ(ask.status, 200) << ask.body;
    seen = model->requests(FakeModelServer::kOpenAiPath);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_FALSE(has(FakeModelServer::openai_tool_names(seen[2].body), "toolhello_greet"));
    EXPECT_TRUE(has(FakeModelServer::openai_tool_names(seen[2].body), "notes_add"));
}

TEST_F(Runtime, CompileErrorIsStatusError) {
    const std::string dir = hello_folder(src_.path(), "broken");
    replace_in(dir + "/hello.cpp", "class Hello {", "class Hello { int x = missing_symbol_here;");
    auto run = platform({"run", dir});
    EXPECT_EQ(run.code, 1) << run.err;
    EXPECT_TRUE(std::regex_search(
        run.err,
        std::regex(
            "\nerror: build failed: \\S*hello\\.cpp:\\d+:\\d+: error: .*missing_symbol_here")))
        << run.err;
    json rec = wait_status("broken", "error");
    const std::string error = rec["metadata"].value("error", "");
    EXPECT_NE(error.find("error:"), std::string::npos) << error;
    EXPECT_NE(error.find("missing_symbol_here"), std::string::npos) << error;
    auto status = platform({"status", "broken"});
    EXPECT_NE(status.out.find("error=build failed: "), std::string::npos) << status.out;
    EXPECT_NE(status.out.find("missing_symbol_here"), std::string::npos) << status.out;
    auto logs = platform({"logs", "-n", "100", "broken"});
    EXPECT_NE(logs.out.find("missing_symbol_here"), std::string::npos) << logs.out;
    EXPECT_EQ(platform({"kill", "broken"}).code, 0);
}

TEST_F(Runtime, GitRepositoryAtBranchAndCommit) {
    const std::string repo = hello_folder(src_.path(), "repo");
    auto git = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"/usr/bin/env", "git", "-C", repo, "-c", "user.name=t", "-c",
                                   "user.email=t@example.com"});
        auto r = run_command(args, {}, 30);
        EXPECT_EQ(r.code, 0) << r.err;
        return r.out.substr(0, r.out.find('\n'));
    };
    git({"init", "-q", "-b", "main"});
    git({"add", "."});
    git({"commit", "-q", "-m", "hello"});
    const std::string first = git({"rev-parse", "HEAD"});
    git({"checkout", "-q", "-b", "feature"});
    replace_in(repo + "/hello.cpp", "\"Hello, \"", "\"Hi, \"");
    git({"commit", "-q", "-am", "hi"});

    ASSERT_EQ(platform({"run", "--detach", "--name", "atbranch", repo + "@feature"}).code, 0);
    ASSERT_EQ(platform({"run", "--detach", "--name", "atcommit",
                        "file://" + repo + "@" + first.substr(0, 10)})
                  .code,
              0);
    json branch = wait_status("atbranch", "running");
    json commit = wait_status("atcommit", "running");
    EXPECT_EQ(greet("atbranch"), "Hi, Ada!");
    EXPECT_EQ(greet("atcommit"), "Hello, Ada!");
    EXPECT_EQ(commit["build"], first.substr(0, 7));
    EXPECT_EQ(commit["ref"], first.substr(0, 10));

    // update pulls the branch's new commit; at a commit it only restarts.
    replace_in(repo + "/hello.cpp", "\"Hi, \"", "\"Hey, \"");
    git({"commit", "-q", "-am", "hey"});
    auto detached = platform({"update", "--detach", "atbranch"});
    ASSERT_EQ(detached.code, 0) << detached.err;
    EXPECT_NE(detached.err.find("atbranch: queued"), std::string::npos) << detached.err;
    EXPECT_EQ(record("atbranch")["status"], "updating");  // the old build serves meanwhile
    EXPECT_EQ(greet("atbranch"), "Hi, Ada!");
    EXPECT_TRUE(eventually([] { return greet("atbranch") == "Hey, Ada!"; }, kBuildSeconds))
        << logs("atbranch");
    wait_status("atbranch", "running");
    EXPECT_EQ(record("atbranch")["build"], git({"rev-parse", "--short=7", "HEAD"}));
    ASSERT_EQ(platform({"update", "atcommit"}).code, 0);
    EXPECT_TRUE(eventually(
        [] {
            return logs("atcommit").find("restarting (the ref is a commit)") != std::string::npos;
        },
        60));
    EXPECT_TRUE(eventually([] { return greet("atcommit") == "Hello, Ada!"; }, 60));
    EXPECT_EQ(platform({"kill", "atbranch"}).code, 0);
    EXPECT_EQ(platform({"kill", "atcommit"}).code, 0);
}

// A run plugin is always isolated: its segfault is a 503 for that call only.
TEST_F(Runtime, CrashOfARunPluginIsContained) {
    const std::string dir = src_.path() + "/crashy";
    fs::create_directories(dir);
    fs::copy_file(platform::test::source_dir() + "/tests/plugins/crashy/crashy.cpp",
                  dir + "/crashy.cpp");
    write_text(
        dir + "/CMakeLists.txt",
        "cmake_minimum_required(VERSION 3.22)\nproject(crashy CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
        "find_package(PlatformSDK 0.1 REQUIRED)\nplatform_add_plugin(crashy SOURCES crashy.cpp)\n");
    hello_folder(src_.path(), "calm");
    ASSERT_EQ(platform({"run", dir}).code, 0);
    ASSERT_EQ(platform({"run", src_.path() + "/calm"}).code, 0);
    wait_status("crashy", "running");
    wait_status("calm", "running");

    std::atomic<bool> crashed{false};
    std::atomic<int> others_ok{0}, others_failed{0};
    std::thread crash([&] {
        HttpClient c("127.0.0.1", host->api_port());
        auto r = c.post_json("/api/v1/crashy/segfault", json::object());
        EXPECT_EQ(r.status, 503) << r.body;
        crashed = true;
    });
    std::vector<std::thread> others;
    for (int t = 0; t < 4; ++t)
        others.emplace_back([&, t] {
            HttpClient c("127.0.0.1", host->api_port());
            for (int i = 0; i < 20; ++i) {
                auto r =
                    t % 2 ? c.get("/api/v1/calm/greet?name=Ada") : c.get("/registry/listServices");
                (r.status == 200 ? others_ok : others_failed)++;
            }
        });
    crash.join();
    for (auto& t : others) t.join();
    EXPECT_TRUE(crashed);
    EXPECT_EQ(others_failed, 0);
    EXPECT_EQ(others_ok, 80);
    HttpClient c("127.0.0.1", host->api_port());
    EXPECT_TRUE(eventually([&] { return c.get("/api/v1/crashy/ok").status == 200; }, 30));
    EXPECT_EQ(record("crashy")["status"], "running");
    EXPECT_EQ(platform({"kill", "crashy"}).code, 0);
    EXPECT_EQ(platform({"kill", "calm"}).code, 0);
}

// A folder of C files with no CMakeLists.txt and no Makefile (plugin-sdk/examples/hello-c without
// its Makefile; with it, make builds it: RuntimeLanguages.*) is built with cc against the SDK's
// abi.h and plugin.map, *_test.c left out, and served.
TEST_F(Runtime, PlainCFolderIsBuiltWithCc) {
    const std::string dir = src_.path() + "/hello-c";
    fs::create_directories(dir);
    for (const char* f : {"hello.c", "hello_test.c"})
        fs::copy_file(platform::test::source_dir() + "/plugin-sdk/examples/hello-c/" + f,
                      dir + "/" + f);
    auto run = platform({"run", dir});
    ASSERT_EQ(run.code, 0) << run.err;
    wait_status("hello-c", "running");
    EXPECT_EQ(greet("hello-c"), "Hello, Ada!") << logs("hello-c");
    HttpClient c("127.0.0.1", host->api_port());
    auto count = [&](const std::string& who) {
        auto r = c.post_json("/api/v1/hello-c/count", json::object(),
                             {{"Authorization", "Bearer " + who}});
        return r.status == 200 ? r.json()["data"].value("count", -1) : -r.status;
    };
    EXPECT_EQ(count("alice"), 1);
    EXPECT_EQ(count("alice"), 2);
    EXPECT_EQ(count("bob"), 1);
    EXPECT_NE(logs("hello-c").find("$ cc -O2 -fPIC -shared ... -o <build>/plugins/hello-c.so "
                                   "hello.c\n"),
              std::string::npos)
        << logs("hello-c");  // hello_test.c is not part of the plugin
    EXPECT_EQ(platform({"kill", "hello-c"}).code, 0);
}

// A Cargo folder and a Go folder (plugin-sdk/examples/hello-rust and hello-go as they are) are
// built with cargo and go build -buildmode=c-shared, offline, and served; the Rust plugin's panic
// is a 500 and the next call a 200.
TEST_F(Runtime, CargoAndGoFoldersAreBuiltWithTheirTools) {
    if (access("/usr/bin/cargo", X_OK) != 0 || access("/usr/bin/go", X_OK) != 0)
        GTEST_SKIP() << "needs cargo and go: apt-get install cargo rustc golang-go";
    for (const char* name : {"hello-rust", "hello-go"}) {
        const std::string dir = src_.path() + "/" + name;
        fs::copy(platform::test::source_dir() + "/plugin-sdk/examples/" + name, dir,
                 fs::copy_options::recursive);
        auto run = platform({"run", dir});
        ASSERT_EQ(run.code, 0) << run.err;
        wait_status(name, "running");
        EXPECT_EQ(greet(name), "Hello, Ada!") << logs(name);
        HttpClient c("127.0.0.1", host->api_port());
        auto r = c.post_json(std::string("/api/v1/") + name + "/count", json::object(),
                             {{"Authorization", "Bearer alice"}});
        EXPECT_EQ(r.status, 200) << r.body;
        EXPECT_EQ(r.status == 200 ? r.json()["data"].value("count", -1) : -1, 1) << r.body;
    }
    HttpClient c("127.0.0.1", host->api_port());
    auto panic = c.get("/api/v1/hello-rust/greet?name=panic");
    EXPECT_EQ(panic.status, 500) << panic.body;
    EXPECT_NE(panic.body.find("greet was asked to panic"), std::string::npos) << panic.body;
    EXPECT_EQ(greet("hello-rust"), "Hello, Ada!");
    EXPECT_NE(logs("hello-go").find("$ go build -buildmode=c-shared"), std::string::npos);
    EXPECT_NE(logs("hello-rust").find("$ cargo build --release --offline"), std::string::npos);
    EXPECT_EQ(platform({"kill", "hello-rust"}).code, 0);
    EXPECT_EQ(platform({"kill", "hello-go"}).code, 0);
}

// A plugin must export exactly one entry symbol (decision 84): a C folder without it is a build
// error; a CMake folder that skips platform_add_plugin and exports a helper too is served, the
// helper counted in the log.
TEST_F(Runtime, OnlyTheEntrySymbolIsRequiredAlone) {
    const std::string c_dir = src_.path() + "/noentry";
    fs::create_directories(c_dir);
    fs::copy_file(platform::test::source_dir() + "/plugin-sdk/examples/hello-c/hello.c",
                  c_dir + "/hello.c");
    replace_in(c_dir + "/hello.c", "* platform_plugin_entry(", "* platform_plugin_entri(");
    auto run = platform({"run", c_dir});
    EXPECT_EQ(run.code, 1) << run.err;
    EXPECT_NE(run.err.find("noentry.so exports no platform_plugin_entry"), std::string::npos)
        << run.err;
    EXPECT_EQ(platform({"kill", "noentry"}).code, 0);

    const std::string cmake_dir = src_.path() + "/leaky";
    fs::create_directories(cmake_dir);
    fs::copy_file(platform::test::source_dir() + "/plugin-sdk/examples/hello-c/hello.c",
                  cmake_dir + "/hello.c");
    write_text(cmake_dir + "/extra.c", "int leaked_helper(void) { return 1; }\n");
    write_text(cmake_dir + "/CMakeLists.txt",
               "cmake_minimum_required(VERSION 3.22)\nproject(leaky C CXX)\n"
               "find_package(PlatformSDK 0.1 REQUIRED)\n"
               "add_library(leaky MODULE hello.c extra.c)\n"
               "target_link_libraries(leaky PRIVATE Platform::abi)\n"
               "set_target_properties(leaky PROPERTIES PREFIX \"\" LIBRARY_OUTPUT_DIRECTORY "
               "${PLATFORM_PLUGIN_OUTPUT_DIR})\n");
    run = platform({"run", cmake_dir});
    EXPECT_EQ(run.code, 0) << run.err;
    EXPECT_EQ(greet("leaky"), "Hello, Ada!") << logs("leaky");
    EXPECT_NE(logs("leaky").find("leaky.so exports platform_plugin_entry and 1 other symbols (not "
                                 "entry-like; allowed)"),
              std::string::npos)
        << logs("leaky");
    EXPECT_EQ(platform({"kill", "leaky"}).code, 0);
}

TEST_F(Runtime, BadInputNamesTheArgument) {
    int status = 0;
    json r = rpc("Runtime.Run", json::object(), &status);
    EXPECT_EQ(status, 400);
    EXPECT_NE(r.dump().find("source"), std::string::npos) << r;
    r = rpc("Runtime.Run", {{"source", "/nowhere"}, {"name", "Bad Name"}}, &status);
    EXPECT_EQ(status, 400);
    EXPECT_NE(r.dump().find("name:"), std::string::npos) << r;
    r = rpc("Runtime.Run", {{"source", "shortname"}}, &status);
    EXPECT_EQ(status, 400);
    EXPECT_NE(r.dump().find("git.baseurl"), std::string::npos) << r;
    r = rpc("Runtime.Run", {{"source", "x"}, {"name", "x"}, {"archive", "!!"}}, &status);
    EXPECT_EQ(status, 400);
    EXPECT_NE(r.dump().find("archive:"), std::string::npos) << r;
    rpc("Runtime.Kill", {{"name", "nothing-here"}}, &status);
    EXPECT_EQ(status, 404);
    rpc("Runtime.Status", json::object(), &status, "bob");  // neither admin nor the runtime scope
    EXPECT_EQ(status, 403);
    EXPECT_EQ(platform({"kill", "nothing-here"}).code, 5);
    EXPECT_EQ(platform({"run"}).code, 2);
    // A mistyped local path is the CLI's error, before anything reaches the server.
    for (const std::string& typo : {std::string("./helo"), src_.path() + "/nowhere@main"}) {
        auto missing = platform({"run", typo});
        EXPECT_EQ(missing.code, 2) << missing.err;
        EXPECT_NE(missing.err.find("source: no folder "), std::string::npos) << missing.err;
    }
    EXPECT_EQ(platform({"update", "../nowhere"}).code, 2);
    EXPECT_EQ(platform({"status"}).out.find("helo"), std::string::npos);
    EXPECT_EQ(platform({"run", "--timeout", "soon", "."}).code, 2);
}

// A short name is cloned from <config git.baseurl>/<name>.
TEST_F(Runtime, ShortNameResolvesUnderGitBaseurl) {
    ASSERT_EQ(platform({"config", "set", "git.baseurl", "file://" + src_.path() + "/repos/"}).code,
              0);
    auto run = platform({"run", "nosuchrepo"});
    EXPECT_EQ(run.code, 1) << run.err;
    EXPECT_NE(run.err.find("git clone file://" + src_.path() + "/repos/nosuchrepo failed"),
              std::string::npos)
        << run.err;
    json rec = wait_status("nosuchrepo", "error");
    EXPECT_EQ(rec["url"], "file://" + src_.path() + "/repos/nosuchrepo");
    EXPECT_NE(rec["metadata"]
                  .value("error", "")
                  .find("git clone file://" + src_.path() + "/repos/nosuchrepo failed"),
              std::string::npos)
        << rec;
    EXPECT_EQ(platform({"kill", "nosuchrepo"}).code, 0);
    EXPECT_EQ(platform({"config", "del", "git.baseurl"}).code, 0);
}

TEST_F(Runtime, LogsFollowStreamsServerSentEvents) {
    hello_folder(src_.path(), "follow");
    ASSERT_EQ(platform({"run", src_.path() + "/follow"}).code, 0);
    wait_status("follow", "running");
    HttpClient c("127.0.0.1", host->proxy_port());
    auto r = c.post_json(
        "/rpc",
        {{"service", "runtime"},
         {"method", "Runtime.Logs"},
         {"request", {{"name", "follow"}, {"lines", 2}, {"follow", true}}}},
        {{"Authorization", "Bearer admin"}, {"Accept", "text/event-stream"}, {"Timeout", "2"}});
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("content-type"), "text/event-stream");
    EXPECT_NE(r.body.find("data: {\"line\":\"runtime: running go.core.api.v1.follow"),
              std::string::npos)
        << r.body;
    EXPECT_NE(r.body.find("event: error"), std::string::npos) << r.body;  // the deadline ends it

    // The CLI: `logs -f` prints the last line, then the lines of an update as they come (it runs
    // until killed: stopped once it has printed the update's link step and then the new worker's
    // start, or after 30 s without output).
    const std::string running = "runtime: running go.core.api.v1.follow";
    CommandResult follow;
    std::thread tail([&] {
        follow =
            run_command({HostProcess::binary(), "logs", "-f", "-n", "1", "follow"},
                        {{"PLATFORM_HOME", home_.path()},
                         {"PLATFORM_ENV", ""},
                         {"PLATFORM_TOKEN", "admin"},
                         {"PLATFORM_PROXY", "127.0.0.1:" + std::to_string(host->proxy_port())}},
                        30, [&](const CommandResult& so_far) {
                            const size_t link = so_far.out.find("Linking CXX");
                            return link != std::string::npos &&
                                   so_far.out.find(running, link) != std::string::npos &&
                                   so_far.out.back() == '\n';
                        });
    });
    ASSERT_EQ(platform({"update", "follow"}).code, 0);
    tail.join();
    // The update's compile takes seconds, the CLI connects in milliseconds: it sees the link step.
    EXPECT_NE(follow.out.find("Linking CXX shared module plugins/hello.so"), std::string::npos)
        << follow.out;
    EXPECT_NE(follow.out.rfind(running), std::string::npos) << follow.out;
    EXPECT_GT(follow.out.rfind(running), follow.out.find("Linking CXX")) << follow.out;
    EXPECT_EQ(platform({"kill", "follow"}).code, 0);
}

// The runtime's objects are in the store: after a restart `status` lists them and they serve again.
TEST(RuntimeRestart, RunningServicesComeBack) {
    TempDir home, src, cli_home;
    const std::string profile = home.path() + "/persist.yaml";
    write_text(profile,
               "name: persist\nclock: manual\nplugins: all\nprivileged: [registry, config, store]\n"
               "providers:\n  store: {plugin: store-sqlite, config: {path: \"" +
                   home.path() +
                   "/store.db\"}}\n"
                   "  broker: {plugin: broker-memory}\n  events: {plugin: events-memory}\n"
                   "  auth: {plugin: auth-noop, config: {admins: [admin]}}\n");
    const std::string dir = hello_folder(src.path(), "again");
    auto cli = [&](HostProcess& h, std::vector<std::string> args) {
        args.insert(args.begin(), HostProcess::binary());
        return run_command(args,
                           {{"PLATFORM_HOME", cli_home.path()},
                            {"PLATFORM_ENV", ""},
                            {"PLATFORM_TOKEN", "admin"},
                            {"PLATFORM_PROXY", "127.0.0.1:" + std::to_string(h.proxy_port())}},
                           kBuildSeconds + 60);
    };
    auto answer = [](HostProcess& h) {
        HttpClient c("127.0.0.1", h.api_port());
        auto r = c.get("/api/v1/again/greet?name=Ada");
        return r.status == 200 ? r.json()["data"].value("message", "") : "";
    };
    {
        HostProcess first(HostProcess::Options{profile, home.path(), {}, {}});
        first.start();
        ASSERT_EQ(cli(first, {"run", dir}).code, 0);
        ASSERT_TRUE(eventually([&] { return answer(first) == "Hello, Ada!"; }, kBuildSeconds));
        EXPECT_EQ(first.stop(), 0);
    }
    HostProcess second(HostProcess::Options{profile, home.path(), {}, {}});
    second.start();
    EXPECT_NE(cli(second, {"status"}).out.find("again"), std::string::npos);
    EXPECT_TRUE(eventually([&] { return answer(second) == "Hello, Ada!"; }, kBuildSeconds))
        << second.log();
    EXPECT_TRUE(std::regex_search(cli(second, {"status"}).out,
                                  std::regex("again\\s+1\\.0\\.0\\s+\\S+\\s+running")));
    EXPECT_EQ(cli(second, {"kill", "again"}).code, 0);
}

}  // namespace
