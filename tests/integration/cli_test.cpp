// The `platform` CLI against a real server: services, call, dynamic commands built from the
// registry's descriptors, generated help, exit codes (2 usage, 4 unreachable, 5 not found, 3 401).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "command.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class Cli : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        HostProcess::Options o;
        o.profile = "local";  // real accounts (auth-local): the CLI sends admin's personal token
        o.env["PLATFORM_ADMIN_SECRET"] = "cli-admin-secret";
        start_host(o);
        HttpClient c("127.0.0.1", host->api_port());
        auto login = c.post_json("/auth/token", {{"id", "admin"}, {"secret", "cli-admin-secret"}});
        ASSERT_EQ(login.status, 200) << login.body;
        auto pat = c.post_json(
            "/auth/createToken", {{"name", "cli-test"}},
            {{"Authorization", "Bearer " + login.json()["access_token"].get<std::string>()}});
        ASSERT_EQ(pat.status, 200) << pat.body;
        token = pat.json()["token"];
    }
    CommandResult platform(std::vector<std::string> args,
                           std::map<std::string, std::string> env = {}) {
        args.insert(args.begin(), HostProcess::binary());
        if (!env.count("PLATFORM_PROXY"))
            env["PLATFORM_PROXY"] = "127.0.0.1:" + std::to_string(host->proxy_port());
        if (!env.count("PLATFORM_TOKEN")) env["PLATFORM_TOKEN"] = token;
        return run_command(args, env);
    }
    static std::string token;
};
std::string Cli::token;

TEST_F(Cli, NotesAddThenGetPrintsTheNote) {
    auto add = platform({"notes", "add", "--title", "a", "--text", "b"});
    ASSERT_EQ(add.code, 0) << add.err;
    auto get = platform({"notes", "get", "--title", "a"});
    ASSERT_EQ(get.code, 0) << get.err;
    auto note = json::parse(get.out);
    EXPECT_EQ(note["title"], "a");
    EXPECT_EQ(note["text"], "b");
    auto eq = platform({"notes", "get", "--title=a", "--output", "table"});
    ASSERT_EQ(eq.code, 0);
    EXPECT_NE(eq.out.find("\ntext     b\n"), std::string::npos) << eq.out;  // KEY VALUE lines
    auto list = platform({"notes", "list", "--output=table"});
    ASSERT_EQ(list.code, 0);
    EXPECT_EQ(list.out.rfind("TITLE", 0), 0u) << list.out;  // columns, identifying one first
}

TEST_F(Cli, ServiceHelpListsTheFourMethodsWithArgumentsAndTypes) {
    auto help = platform({"notes", "--help"});
    ASSERT_EQ(help.code, 0) << help.err;
    for (const char* needle :
         {"add", "delete", "get", "list", "--title string", "--text string", "required"})
        EXPECT_NE(help.out.find(needle), std::string::npos) << needle << "\n" << help.out;
    auto method = platform({"notes", "add", "--help"});
    ASSERT_EQ(method.code, 0);
    EXPECT_NE(method.out.find("POST /api/v1/notes/add"), std::string::npos) << method.out;
    auto via_help = platform({"help", "notes", "get"});
    EXPECT_EQ(via_help.code, 0);
    EXPECT_NE(via_help.out.find("GET /api/v1/notes/get"), std::string::npos);
    auto top = platform({"--help"});
    EXPECT_EQ(top.code, 0);
    EXPECT_NE(top.out.find("services"), std::string::npos);
}

TEST_F(Cli, UsageErrorsAreExitTwo) {
    auto unknown = platform({"notes", "add", "--title", "a", "--colour", "red"});
    EXPECT_EQ(unknown.code, 2);
    EXPECT_NE(unknown.err.find("Unknown flag: --colour"), std::string::npos) << unknown.err;
    auto method = platform({"notes", "nosuch"});
    EXPECT_EQ(method.code, 2);
    auto service = platform({"nosuch", "list"});
    EXPECT_EQ(service.code, 2);
    EXPECT_NE(service.err.find("nosuch"), std::string::npos);
    auto bad_output = platform({"notes", "list", "--output", "xml"});
    EXPECT_EQ(bad_output.code, 2);
}

TEST_F(Cli, TypedFlagsAndNestedFields) {
    auto nested = platform({"registry", "getService", "--service", "notes", "--options_ttl", "5",
                            "--options_domain", "d"});
    ASSERT_EQ(nested.code, 0) << nested.err;
    EXPECT_EQ(json::parse(nested.out)["services"][0]["name"], "go.core.api.v1.notes");
    auto bad_int =
        platform({"registry", "getService", "--service", "notes", "--options_ttl", "soon"});
    EXPECT_EQ(bad_int.code, 2);
    EXPECT_NE(bad_int.err.find("--options_ttl: must be an integer"), std::string::npos)
        << bad_int.err;
}

TEST_F(Cli, ServerErrorsMapToExitCodes) {
    auto missing = platform({"notes", "get", "--title", "never-written"});
    EXPECT_EQ(missing.code, 5);
    EXPECT_NE(missing.err.find("never-written"), std::string::npos);
    auto invalid = platform({"notes", "add", "--title", std::string(201, 'y'), "--text", "x"});
    EXPECT_EQ(invalid.code, 1);  // the server's 400: a title longer than its limit
    EXPECT_NE(invalid.err.find("title: must be at most 200"), std::string::npos) << invalid.err;
}

// The CLI has the schema: a missing required argument is its usage error, and nothing is sent.
TEST_F(Cli, AMissingRequiredArgumentIsExitTwoBeforeAnyCall) {
    auto missing = platform({"notes", "add", "--title", "x"});
    EXPECT_EQ(missing.code, 2) << missing.err;
    EXPECT_NE(missing.err.find("--text: is required (platform notes add --help)"),
              std::string::npos)
        << missing.err;
    EXPECT_EQ(platform({"notes", "get", "--title", "x"}).code, 5);  // never stored
    // A nested object's required fields count only when the object is given.
    auto optional_object = platform({"registry", "getService", "--service", "notes"});
    EXPECT_EQ(optional_object.code, 0) << optional_object.err;
}

// `@file` and `-` give a flag a large value from a file or stdin; `@@` is a literal `@`.
TEST_F(Cli, FlagValuesFromAFileOrStdin) {
    platform::test::TempDir dir;
    const std::string big(90000, 'z'), file = dir.path() + "/text.md";
    std::ofstream(file) << big << "\nend\n";
    auto from_file = platform({"notes", "add", "--title", "from-file", "--text", "@" + file});
    ASSERT_EQ(from_file.code, 0) << from_file.err;
    EXPECT_EQ(json::parse(platform({"notes", "get", "--title", "from-file"}).out)["text"],
              big + "\nend\n");
    auto piped = run_command(
        {"/bin/sh", "-c", "printf 'line one\\nline two' | \"$0\" notes add --title piped --text -",
         HostProcess::binary()},
        {{"PLATFORM_PROXY", "127.0.0.1:" + std::to_string(host->proxy_port())},
         {"PLATFORM_TOKEN", token}});
    ASSERT_EQ(piped.code, 0) << piped.err;
    EXPECT_EQ(json::parse(platform({"notes", "get", "--title", "piped"}).out)["text"],
              "line one\nline two");
    auto at = platform({"notes", "add", "--title", "at", "--text", "@@bob"});
    ASSERT_EQ(at.code, 0) << at.err;
    EXPECT_EQ(json::parse(platform({"notes", "get", "--title", "at"}).out)["text"], "@bob");
    auto no_file = platform({"notes", "add", "--title", "x", "--text", "@" + dir.path() + "/nope"});
    EXPECT_EQ(no_file.code, 2);
    EXPECT_NE(no_file.err.find("--text: cannot read " + dir.path() + "/nope"), std::string::npos)
        << no_file.err;
}

TEST_F(Cli, VersionAndAnUnknownGlobalFlagInOneLine) {
    auto version = platform({"--version"});
    EXPECT_EQ(version.code, 0);
    EXPECT_TRUE(std::regex_match(
        version.out, std::regex("platform v\\d+\\.\\d+\\.\\d+ \\(plugin ABI 1\\.\\d+\\)\n")))
        << version.out;
    auto unknown = platform({"--bogus", "services"});
    EXPECT_EQ(unknown.code, 2);
    EXPECT_EQ(unknown.err, "Unknown flag: --bogus (platform --help lists the options)\n");
    // PLATFORM_PROXY may be written as a URL.
    auto url = platform(
        {"services", "-o", "raw"},
        {{"PLATFORM_PROXY", "http://127.0.0.1:" + std::to_string(host->proxy_port()) + "/"}});
    EXPECT_EQ(url.code, 0) << url.err;
}

TEST_F(Cli, ServicesAndCall) {
    auto services = platform({"services"});
    ASSERT_EQ(services.code, 0) << services.err;
    EXPECT_TRUE(std::regex_search(services.out, std::regex("^NAME +VERSION +ENDPOINTS +SUMMARY\n")))
        << services.out;  // the columns docs/cli.md names, in its order
    EXPECT_TRUE(std::regex_search(services.out,
                                  std::regex("\ngo\\.core\\.api\\.v1\\.notes +\\S+ +[0-9]+ +\\S")))
        << services.out;
    EXPECT_NE(services.out.find("go.core.api.v1.notes"), std::string::npos);
    EXPECT_NE(services.out.find("go.core.api.registry"), std::string::npos);
    auto call = platform({"call", "notes", "Notes.Add", R"({"title":"c","text":"via call"})"});
    ASSERT_EQ(call.code, 0) << call.err;
    EXPECT_EQ(json::parse(call.out)["text"], "via call");
    auto bad_json = platform({"call", "notes", "Notes.Add", "{nope"});
    EXPECT_EQ(bad_json.code, 2);
}

TEST_F(Cli, UnreachableServerIsExitFourNamingTheAddress) {
    auto r = platform({"services"}, {{"PLATFORM_PROXY", "127.0.0.1:1"}});
    EXPECT_EQ(r.code, 4);
    EXPECT_NE(r.err.find("127.0.0.1:1"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;  // one line
}

TEST(CliAuth, AnonymousOnAnOwnerMethodIsExitThree) {
    HostProcess host;  // test profile: no token is anonymous
    host.start();
    std::map<std::string, std::string> env{
        {"PLATFORM_PROXY", "127.0.0.1:" + std::to_string(host.proxy_port())}};
    auto anon = run_command({HostProcess::binary(), "notes", "list"}, env);
    EXPECT_EQ(anon.code, 3) << anon.err;
    env["PLATFORM_TOKEN"] = "alice";
    auto alice = run_command({HostProcess::binary(), "notes", "list"}, env);
    EXPECT_EQ(alice.code, 0) << alice.err;
    EXPECT_EQ(host.stop(), 0);
}

}  // namespace
