// The runtime builds plugins in other languages (issue 32, docs/decisions.md 84): `platform run`
// on a Cargo, Go, Makefile or plain-C folder builds it with Debian's tool, checks the library
// exports exactly one entry symbol, and serves it. The sources are plugin-sdk/examples/hello-c,
// hello-rust and hello-go copied to a temp folder. Each test starts its own host with
// PATH=/usr/bin:/bin (Debian's toolchains, never a rustup or golang.org install also on the
// machine); a language's test is skipped, naming the package, when its toolchain is missing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "build_tree.hpp"
#include "command.hpp"
#include "eventually.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"
#include "local_files.hpp"
#include "mcp_client.hpp"
#include "owner_sweep.hpp"
#include "registry_sweep.hpp"

using nlohmann::json;
using namespace platform::test;
namespace fs = std::filesystem;

namespace {

constexpr int kBuildSeconds = 240;

// plugin-sdk/examples/<example> copied to <parent>/<name> (without what a local build left).
std::string example(const std::string& parent, const std::string& example,
                    const std::string& name) {
    const std::string dir = parent + "/" + name;
    fs::copy(source_dir() + "/plugin-sdk/examples/" + example, dir, fs::copy_options::recursive);
    for (const char* leftover : {"plugins", "target", "hello_test"})
        fs::remove_all(dir + "/" + leftover);
    return dir;
}

class RuntimeLanguages : public ::testing::Test {
protected:
    // A host whose PATH is `path`; Go's build cache is kept in the build tree between runs. On the
    // test profile unless `o` says otherwise.
    void start(const std::string& path = "/usr/bin:/bin", HostProcess::Options o = {}) {
        o.env["PATH"] = path;
        o.env["GOCACHE"] = platform::test::build_dir() + "/runtime-languages-cache/go-build";
        host_ = std::make_unique<HostProcess>(o);
        host_->start();
    }
    // The CLI as `token` (on the test profile a bearer text is the account id).
    CommandResult platform(std::vector<std::string> args, const std::string& token = "") {
        return run_cli(*host_, cli_home_.path(), token.empty() ? admin_ : token, std::move(args),
                       {}, kBuildSeconds + 60);
    }
    json record(const std::string& name) {
        HttpClient c("127.0.0.1", host_->proxy_port());
        auto r = c.post_json(
            "/rpc",
            {{"service", "runtime"}, {"method", "Runtime.Status"}, {"request", {{"name", name}}}},
            bearer(admin_));
        return r.status == 200 && !r.json()["services"].empty() ? r.json()["services"][0] : json();
    }
    std::string logs(const std::string& name) {
        auto r = platform({"logs", "-n", "200", name});
        return r.out + r.err;
    }
    std::string greet(const std::string& service, int* status = nullptr) {
        HttpClient c("127.0.0.1", host_->api_port());
        auto r = c.get("/api/v1/" + service + "/greet?name=Ada");
        if (status) *status = r.status;
        return r.status == 200 ? r.json()["data"].value("message", "") : r.body;
    }
    // Runs `dir`, expects it to serve greet, and that the log shows `tool_line` and the check.
    void run_and_greet(const std::string& dir, const std::string& name,
                       const std::string& tool_line) {
        auto run = platform({"run", dir});
        ASSERT_EQ(run.code, 0) << run.err << "\n" << logs(name);
        EXPECT_EQ(record(name)["status"], "running");
        EXPECT_EQ(greet(name), "Hello, Ada!") << logs(name);
        const std::string log = logs(name);
        EXPECT_NE(log.find(tool_line), std::string::npos) << log;
        EXPECT_NE(log.find(".so exports platform_plugin_entry"), std::string::npos) << log;
        EXPECT_NE(log.find("runtime: running go.core.api.v1." + name), std::string::npos) << log;
    }
    // Runs `dir` and expects the build to be refused with `message` (in the CLI's error and the
    // record's metadata.error).
    void expect_refused(const std::string& dir, const std::string& name,
                        const std::string& message) {
        auto run = platform({"run", dir});
        EXPECT_EQ(run.code, 1) << run.err;
        EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
        EXPECT_TRUE(eventually([&] { return record(name).value("status", "") == "error"; }, 30));
        EXPECT_NE(record(name)["metadata"].value("error", "").find(message), std::string::npos)
            << record(name);
        EXPECT_EQ(platform({"kill", name}).code, 0);
    }
    TempDir src_, cli_home_;
    std::unique_ptr<HostProcess> host_;
    std::string admin_ = "admin";  // the admin's bearer token
};

// hello-c with its Makefile (make PLATFORM_PREFIX=<the SDK>), then updated after an edit.
TEST_F(RuntimeLanguages, MakefileFolderRunsAndUpdates) {
    if (access("/usr/bin/make", X_OK) != 0) GTEST_SKIP() << "needs make: apt-get install make";
    start();
    const std::string dir = example(src_.path(), "hello-c", "hello-c");
    run_and_greet(dir, "hello-c", "make PLATFORM_PREFIX=");
    replace_in(dir + "/hello.c", "\"{\\\"message\\\":\\\"Hello, \"",
               "\"{\\\"message\\\":\\\"Howdy, \"");
    auto update = platform({"update", dir});
    ASSERT_EQ(update.code, 0) << update.err;
    EXPECT_EQ(greet("hello-c"), "Howdy, Ada!") << logs("hello-c");
}

// hello.c alone (no Makefile): one cc command; from a git repository, as the runtime clones it.
TEST_F(RuntimeLanguages, PlainCFilesFromGit) {
    start();
    const std::string repo = src_.path() + "/cgit";
    write_text(repo + "/hello.c", read_text(source_dir() + "/plugin-sdk/examples/hello-c/hello.c"));
    for (std::vector<std::string> args : {std::vector<std::string>{"init", "-q", "-b", "main"},
                                          {"add", "."},
                                          {"commit", "-q", "-m", "hello"}}) {
        args.insert(args.begin(), {"/usr/bin/git", "-C", repo, "-c", "user.name=t", "-c",
                                   "user.email=t@example.com"});
        auto r = run_command(args, {}, 30);
        ASSERT_EQ(r.code, 0) << r.err;
    }
    auto run = platform({"run", "--name", "cgit", "file://" + repo + "@main"});
    ASSERT_EQ(run.code, 0) << run.err << "\n" << logs("cgit");
    EXPECT_EQ(greet("cgit"), "Hello, Ada!") << logs("cgit");
    const std::string log = logs("cgit");
    EXPECT_NE(log.find("runtime: a C folder (*.c, no Makefile)"), std::string::npos) << log;
    EXPECT_NE(log.find("cgit.so exports platform_plugin_entry only"), std::string::npos) << log;
}

TEST_F(RuntimeLanguages, CargoFolderRuns) {
    if (access("/usr/bin/cargo", X_OK) != 0 || access("/usr/bin/rustc", X_OK) != 0)
        GTEST_SKIP() << "needs Debian's cargo: apt-get install cargo (scripts/deps.sh installs it)";
    start();
    run_and_greet(example(src_.path(), "hello-rust", "hello-rust"), "hello-rust",
                  "cargo build --release --offline");
    EXPECT_NE(logs("hello-rust").find("Compiling hello-rust v1.0.0"), std::string::npos);
}

TEST_F(RuntimeLanguages, GoFolderRuns) {
    if (access("/usr/bin/go", X_OK) != 0)
        GTEST_SKIP()
            << "needs Debian's Go: apt-get install golang-go (scripts/deps.sh installs it)";
    start();
    run_and_greet(example(src_.path(), "hello-go", "hello-go"), "hello-go",
                  "go build -buildmode=c-shared");
    // *.go files without go.mod are a Go folder too (one package, outside any module).
    const std::string loose = example(src_.path(), "hello-go", "loose-go");
    fs::remove(loose + "/go.mod");
    run_and_greet(loose, "loose-go", "runtime: a Go folder (go.mod or *.go)");
}

// A library with a second entry-like symbol (made by a Makefile without the version script), or
// with none, is refused before anything loads it.
TEST_F(RuntimeLanguages, EntrySymbolIsCheckedBeforeLoading) {
    start();
    const std::string two = src_.path() + "/twoentries";
    write_text(two + "/hello.c", read_text(source_dir() + "/plugin-sdk/examples/hello-c/hello.c"));
    write_text(two + "/v2.c",
               "#include <platform/abi.h>\n"
               "__attribute__((visibility(\"default\"))) const platform_plugin_desc_t*\n"
               "platform_plugin_entry_v2(const platform_entry_args_t* a) {\n"
               "    return platform_plugin_entry(a);\n}\n");
    write_text(two + "/Makefile",
               "plugins/twoentries.so: hello.c v2.c\n"
               "\tmkdir -p plugins\n"
               "\tcc -shared -fPIC -I$(PLATFORM_PREFIX)/include -o $@ hello.c v2.c\n");
    expect_refused(two, "twoentries",
                   "twoentries.so exports 2 entry-like symbols (platform_plugin_entry, "
                   "platform_plugin_entry_v2); a plugin exports exactly one entry symbol");

    const std::string none = src_.path() + "/noentry";
    write_text(none + "/answer.c", "int answer(void) { return 42; }\n");
    expect_refused(none, "noentry", "noentry.so exports no platform_plugin_entry");
}

// A folder whose tool is not on the host's PATH: the error names the Debian package.
TEST_F(RuntimeLanguages, MissingToolchainNamesThePackage) {
    TempDir bin;  // tar and gzip (to unpack the upload), nothing else
    for (const char* tool : {"tar", "gzip"})
        fs::create_symlink(std::string("/usr/bin/") + tool, bin.path() + "/" + tool);
    start(bin.path());
    const std::string rust = src_.path() + "/rusty", go = src_.path() + "/gopher",
                      c = src_.path() + "/maker";
    write_text(rust + "/Cargo.toml", "[package]\nname = \"rusty\"\nversion = \"1.0.0\"\n");
    write_text(go + "/go.mod", "module example.com/gopher\n\ngo 1.19\n");
    write_text(c + "/Makefile", "all:\n\ttrue\n");
    expect_refused(rust, "rusty",
                   "toolchain: cargo is not on the host's PATH; a Cargo folder is built with it: "
                   "apt-get install cargo");
    expect_refused(go, "gopher", "toolchain: go is not on the host's PATH; a Go");
    expect_refused(go, "gopher", "apt-get install golang-go");
    expect_refused(c, "maker", "toolchain: make is not on the host's PATH");
    expect_refused(c, "maker", "apt-get install make");
}

// The three examples on the `local` profile (auth-local: real accounts), each started by the admin
// with `platform run`: reachable over /api/v1, MCP and the CLI as an account; the registry-wide
// bad-input sweep (HTTP and MCP) and both ownership sweeps over their endpoints, as for every
// built-in plugin; a panic in the Rust example's handler answers 500 and the host stays up.
TEST_F(RuntimeLanguages, ExamplesOnTheLocalProfilePassTheSweeps) {
    if (access("/usr/bin/make", X_OK) != 0) GTEST_SKIP() << "needs make: apt-get install make";
    if (access("/usr/bin/cargo", X_OK) != 0 || access("/usr/bin/rustc", X_OK) != 0)
        GTEST_SKIP() << "needs Debian's cargo: apt-get install cargo (scripts/deps.sh installs it)";
    if (access("/usr/bin/go", X_OK) != 0)
        GTEST_SKIP()
            << "needs Debian's Go: apt-get install golang-go (scripts/deps.sh installs it)";
    const std::string secret = "languages-admin-secret";
    start("/usr/bin:/bin", local_options(secret));
    const int port = host_->api_port();
    HttpClient c("127.0.0.1", port);
    admin_ = access_token(c, "admin", secret);
    const std::vector<std::string> services = {"hello-c", "hello-rust", "hello-go"};
    for (const auto& name : services) {
        auto run = platform({"run", example(src_.path(), name, name)});
        ASSERT_EQ(run.code, 0) << run.err << "\n" << logs(name);
    }

    const std::string ada = account_token(c, admin_, "ada");
    for (const auto& name : services) {
        SCOPED_TRACE(name);
        EXPECT_EQ(greet(name), "Hello, Ada!");  // public: no token
        EXPECT_EQ(c.post_json("/api/v1/" + name + "/count", json::object()).status, 401);
        auto http = c.post_json("/api/v1/" + name + "/count", json::object(), bearer(ada));
        EXPECT_EQ(http.body, R"({"data":{"count":1}})");
        McpClient mcp(port, ada);
        mcp.initialize();
        const json tool = mcp.call_tool(name + "_count", json::object());
        EXPECT_FALSE(tool.value("isError", false)) << tool.dump();
        EXPECT_NE(tool.dump().find(R"(\"count\":2)"), std::string::npos) << tool.dump();
        auto cli = platform({name, "count"}, ada);
        EXPECT_EQ(cli.code, 0) << cli.err;
        EXPECT_NE(cli.out.find("3"), std::string::npos) << cli.out;
        auto cli_greet = platform({name, "greet", "--name", "Ada"}, ada);
        EXPECT_NE(cli_greet.out.find("Hello, Ada!"), std::string::npos) << cli_greet.out;
    }

    const std::vector<SweptOperation> ops = registry_operations(c, "/api/v1/hello-");
    ASSERT_EQ(ops.size(), 2 * services.size());
    const SweepCallers callers{account_token(c, admin_, "sweeper"), admin_};
    const auto started = std::chrono::steady_clock::now();
    const SweepTally http = sweep_http(port, ops, callers);
    const auto http_done = std::chrono::steady_clock::now();
    const SweepTally mcp = sweep_mcp(port, ops, callers);
    const std::chrono::duration<double> http_s = http_done - started,
                                        mcp_s = std::chrono::steady_clock::now() - http_done;
    report_sweep(http, http_s.count(), mcp, mcp_s.count());
    EXPECT_EQ(http.endpoints.size(), ops.size());
    EXPECT_EQ(mcp.endpoints.size(), ops.size());

    const OwnerPair over_http{account_token(c, admin_, "owner-a"),
                              account_token(c, admin_, "owner-b")};
    const OwnerPair over_mcp{account_token(c, admin_, "mcp-a"), account_token(c, admin_, "mcp-b")};
    EXPECT_EQ(owner_sweep_http(c, ops, [&](const SweptOperation&, int) { return over_http; }),
              static_cast<int>(services.size()));
    EXPECT_EQ(
        owner_sweep_mcp(port, c, ops, [&](const SweptOperation&, int) { return over_mcp; }).swept,
        static_cast<int>(services.size()));

    // A panic in a Rust handler is caught at the FFI boundary: 500, and the host serves on.
    auto panic = c.get("/api/v1/hello-rust/greet?name=panic");
    EXPECT_EQ(panic.status, 500) << panic.body;
    EXPECT_EQ(
        panic.body,
        R"({"error":{"code":"internal","message":"internal error: greet was asked to panic"}})");
    EXPECT_EQ(greet("hello-rust"), "Hello, Ada!");
    EXPECT_EQ(c.get("/health").status, 200);
    EXPECT_EQ(record("hello-rust")["status"], "running");
}

}  // namespace
