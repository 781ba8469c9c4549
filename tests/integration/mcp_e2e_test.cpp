// /mcp against MCP clients nobody here wrote (tests/e2e, pinned in package.json and installed by
// scripts/e2e-deps.sh, run with the Node 22 of the `node` npm package):
//   - the official conformance suite: every active server scenario passes on the `test` profile
//     (its client sends no credentials; the conformance fixture plugin `v1.test` is public);
//   - the inspector CLI lists tools and calls notes_add / notes_get with a bearer header on the
//     `local` profile;
//   - the TypeScript SDK client runs a scripted session (tests/e2e/mcp_session.mjs).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "build_tree.hpp"
#include "command.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "local_accounts.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kE2e = platform::test::source_dir() + "/tests/e2e";
const std::string kNode = kE2e + "/node_modules/.bin/node";

// Runs a Node program of tests/e2e with Node 22 first on PATH and a writable HOME.
CommandResult node(std::vector<std::string> args, const std::string& home,
                   int timeout_seconds = 120) {
    args.insert(args.begin(), kNode);
    const char* path = std::getenv("PATH");
    return run_command(args,
                       {{"PATH", kE2e + "/node_modules/.bin:" + (path ? path : "/usr/bin:/bin")},
                        {"HOME", home},
                        {"NO_COLOR", "1"},
                        {"FORCE_COLOR", "0"}},
                       timeout_seconds);
}

std::string url(const HostProcess& host) {
    return "http://127.0.0.1:" + std::to_string(host.api_port()) + "/mcp";
}

// The suite's `=== SUMMARY ===` section (or the whole output when it has none), as printed by
// tests/e2e/mcp-conformance.sh.
std::string summary_of(const std::string& out) {
    auto at = out.find("=== SUMMARY ===");
    return at == std::string::npos ? out : out.substr(at);
}

TEST(McpConformance, EveryActiveServerScenarioPasses) {
    HostProcess host;  // the `test` profile: the conformance fixture is loaded
    host.start();
    TempDir home;
    const char* path = std::getenv("PATH");
    CommandResult r =
        run_command({"/bin/bash", kE2e + "/mcp-conformance.sh", url(host)},
                    {{"HOME", home.path()}, {"PATH", path ? path : "/usr/bin:/bin"}}, 600);
    const std::string summary = summary_of(r.out);
    std::printf("%s\n", summary.c_str());
    std::smatch total;
    ASSERT_TRUE(std::regex_search(summary, total,
                                  std::regex("\nconformance: (\\d+) passed, (\\d+) failed")))
        << r.out << r.err;
    EXPECT_EQ(total[2].str(), "0") << r.out.substr(0, 30000);
    EXPECT_EQ(r.code, 0) << r.err;
    // Every scenario of the active suite ran (30 in 0.1.16), each with a line of the summary.
    std::istringstream lines(summary);
    int scenarios = 0;
    for (std::string line; std::getline(lines, line);)
        if (std::regex_search(line, std::regex("^\\S+ [a-z0-9-]+: \\d+ passed, \\d+ failed")))
            ++scenarios;
    EXPECT_GE(scenarios, 30) << summary;
}

TEST(McpInspector, ListsToolsAndCallsNotesWithABearerHeader) {
    HostProcess host(local_options("admin-secret-for-inspector"));
    host.start();
    HttpClient api("127.0.0.1", host.api_port());
    const std::string token = access_token(api, "admin", "admin-secret-for-inspector");
    ASSERT_FALSE(token.empty());
    TempDir home;
    auto inspector = [&](std::vector<std::string> args) {
        std::vector<std::string> argv = {kE2e + "/node_modules/.bin/mcp-inspector", "--cli",
                                         url(host), "--header", "Authorization: Bearer " + token};
        argv.insert(argv.end(), args.begin(), args.end());
        argv.insert(argv.end(), {"--format", "json"});
        CommandResult r = node(argv, home.path());
        EXPECT_EQ(r.code, 0) << r.out << r.err;
        // One JSON line {"result": ...} on stdout.
        json line = json::parse(r.out.substr(r.out.find('{')), nullptr, false);
        EXPECT_TRUE(line.is_object() && line.contains("result")) << r.out << r.err;
        return line.is_object() ? line.value("result", json()) : json();
    };

    const json list = inspector({"--method", "tools/list"});
    std::vector<std::string> names;
    for (const auto& t : list.value("tools", json::array())) names.push_back(t["name"]);
    EXPECT_NE(std::find(names.begin(), names.end(), "notes_add"), names.end()) << list;
    EXPECT_NE(std::find(names.begin(), names.end(), "notes_get"), names.end()) << list;

    const json added =
        inspector({"--method", "tools/call", "--tool-name", "notes_add", "--tool-args-json",
                   R"({"title":"inspector note","text":"written by the inspector CLI"})"});
    EXPECT_EQ(added["structuredContent"]["title"], "inspector note") << added;
    const json got = inspector({"--method", "tools/call", "--tool-name", "notes_get", "--tool-arg",
                                "title=inspector note"});
    EXPECT_EQ(got["structuredContent"]["text"], "written by the inspector CLI") << got;
    EXPECT_NE(got.value("isError", false), true);

    // And the note is the one /api/v1 sees.
    auto http =
        api.get("/api/v1/notes/get?title=inspector%20note", {{"Authorization", "Bearer " + token}});
    EXPECT_EQ(http.json()["data"], got["structuredContent"]);
}

TEST(McpSdk, ScriptedSessionWithProgressAndResources) {
    HostProcess host;  // `test`: progress comes from the fixture's test_tool_with_progress
    host.start();
    TempDir home;
    CommandResult r = node({kE2e + "/mcp_session.mjs", url(host), "alice"}, home.path());
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    const json s = json::parse(r.out.substr(r.out.rfind("{\"server\"")), nullptr, false);
    ASSERT_TRUE(s.is_object()) << r.out << r.err;
    std::printf("%s\n", s.dump().c_str());

    EXPECT_EQ(s["server"]["name"], "platform");
    EXPECT_EQ(s["protocolVersion"], "2025-11-25");
    EXPECT_EQ(s["session"], true);
    const json& tools = s["tools"];
    for (const char* name : {"notes_add", "notes_get", "test_tool_with_progress"})
        EXPECT_NE(std::find(tools.begin(), tools.end(), name), tools.end()) << name << " " << tools;

    EXPECT_EQ(s["added"]["isError"], false) << s["added"];
    EXPECT_EQ(s["got"]["isError"], false) << s["got"];
    EXPECT_EQ(s["got"]["structured"]["text"], "from the TypeScript SDK");
    EXPECT_EQ(json::parse(s["got"]["text"].get<std::string>()), s["got"]["structured"]);

    const json& progress = s["progress"];
    EXPECT_GE(progress.size(), 3u) << progress;
    for (size_t i = 1; i < progress.size(); ++i)
        EXPECT_GE(progress[i], progress[i - 1]) << progress;
    EXPECT_EQ(s["progressResult"][0]["type"], "text") << s["progressResult"];

    const json& uris = s["resources"];
    EXPECT_NE(std::find(uris.begin(), uris.end(), "notes://sdk%20note"), uris.end()) << uris;
    EXPECT_EQ(s["read"][0]["text"], "from the TypeScript SDK") << s["read"];
}

}  // namespace
