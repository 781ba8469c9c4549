// The `platform` CLI's shared machinery against a real server (issue 7, docs/cli.md): micro's
// config and store CLI output (silent writes, bare values, `Not found`), environments
// (add/set/list/del, -e, PLATFORM_PROXY, mode 0600), dynamic flags through the real binary,
// completion, NO_COLOR, -o raw.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utmp.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "host_process.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

// On the test profile: bearer `admin` is an admin.
class CliPlatform : public SharedHostTest {
protected:
    static std::string proxy() { return "127.0.0.1:" + std::to_string(host->proxy_port()); }
    // The CLI with its own PLATFORM_HOME, admin's token, and the server's address unless env says.
    CommandResult platform(std::vector<std::string> args,
                           std::map<std::string, std::string> env = {}) {
        return run_cli(*host, home_.path(), "admin", std::move(args), std::move(env));
    }
    TempDir home_;
};

// micro test/config_test.go, outputs compared exactly.
TEST_F(CliPlatform, ConfigMatchesMicrosCli) {
    auto missing = platform({"config", "get", "somekey"});
    EXPECT_NE(missing.code, 0);
    EXPECT_NE((missing.out + missing.err).find("Not found"), std::string::npos) << missing.err;
    auto set = platform({"config", "set", "somekey", "val1"});
    EXPECT_EQ(set.code, 0) << set.err;
    EXPECT_EQ(set.out + set.err, "");
    EXPECT_EQ(platform({"config", "get", "somekey"}).out, "val1\n");
    auto del = platform({"config", "del", "somekey"});
    EXPECT_EQ(del.code, 0);
    EXPECT_EQ(del.out + del.err, "");
    auto gone = platform({"config", "get", "somekey"});
    EXPECT_EQ(gone.code, 5);
    EXPECT_EQ(gone.err, "Not found\n");

    EXPECT_EQ(platform({"config", "set", "someotherkey.subkey", "otherval1"}).out, "");
    EXPECT_EQ(platform({"config", "get", "someotherkey.subkey"}).out, "otherval1\n");

    platform({"config", "set", "mergekey", R"({"a":1})"});
    platform({"config", "set", "mergekey", R"({"b":2})"});
    EXPECT_EQ(platform({"config", "get", "mergekey"}).out, "{\"a\":1,\"b\":2}\n");

    EXPECT_EQ(platform({"config", "set", "jsonescape", "\"Value with <> signs\""}).out, "");
    EXPECT_EQ(platform({"config", "get", "jsonescape"}).out, "Value with <> signs\n");

    platform({"config", "set", "complexmerge", R"({"a":1,"b":{"b1":2},"c":3})"});
    platform({"config", "set", "complexmerge", R"({"d":4,"b":{"b2":2.2}})"});
    EXPECT_EQ(platform({"config", "get", "complexmerge"}).out,
              "{\"a\":1,\"b\":{\"b1\":2,\"b2\":2.2},\"c\":3,\"d\":4}\n");

    platform({"config", "set", "pod", "hi"});
    platform({"config", "set", "pod", R"({"a":1})"});
    EXPECT_EQ(platform({"config", "get", "pod"}).out, "{\"a\":1}\n");  // a scalar replaced by a map
    platform({"config", "set", "pod", "hi"});
    platform({"config", "set", "pod", "hello"});
    EXPECT_EQ(platform({"config", "get", "pod"}).out, "hello\n");  // and by a scalar

    EXPECT_EQ(platform({"config", "set", "key.subkey", "val1"}).out, "");
    auto secret = platform({"config", "set", "--secret", "key.subkey1", "42"});
    EXPECT_EQ(secret.code, 0) << secret.err;
    EXPECT_EQ(secret.out, "");
    EXPECT_EQ(platform({"config", "get", "key.subkey1"}).out, "[secret]\n");
    EXPECT_EQ(platform({"config", "get", "key"}).out,
              "{\"subkey\":\"val1\",\"subkey1\":\"[secret]\"}\n");
    EXPECT_EQ(platform({"config", "get", "--secret", "key.subkey1"}).out, "42\n");
    EXPECT_EQ(platform({"config", "get", "key.subkey", "-o", "json"}).out, "\"val1\"\n");
}

// micro test/store_test.go.
TEST_F(CliPlatform, StoreMatchesMicrosCli) {
    auto missing = platform({"store", "read", "somekey"});
    EXPECT_EQ(missing.code, 5);
    EXPECT_EQ(missing.err, "Not found\n");
    auto write = platform({"store", "write", "somekey", "val1"});
    EXPECT_EQ(write.code, 0) << write.err;
    EXPECT_EQ(write.out + write.err, "");
    EXPECT_EQ(platform({"store", "read", "somekey"}).out, "val1\n");
    auto del = platform({"store", "delete", "somekey"});
    EXPECT_EQ(del.code, 0);
    EXPECT_EQ(del.out + del.err, "");
    EXPECT_EQ(platform({"store", "read", "somekey"}).code, 5);
    EXPECT_EQ(platform({"store", "write", "somekey1", "val1"}).out, "");
    EXPECT_EQ(platform({"store", "write", "somekey2", "val2", "--expiry", "1h"}).code, 0);
    EXPECT_EQ(platform({"store", "read", "somekey"}).err, "Not found\n");
    EXPECT_EQ(platform({"store", "read", "--prefix", "somekey"}).out, "val1\nval2\n");
    auto verbose = platform({"store", "read", "-v", "--prefix", "somekey"});
    for (const char* s : {"somekey1", "somekey2", "val1", "val2", "KEY"})
        EXPECT_NE(verbose.out.find(s), std::string::npos) << s << "\n" << verbose.out;
    EXPECT_EQ(platform({"store", "list"}).out, "somekey1\nsomekey2\n");
    EXPECT_EQ(platform({"store", "list", "--order", "desc", "--limit", "1"}).out, "somekey2\n");
    EXPECT_EQ(platform({"store", "read", "--prefix", "somekey", "--offset", "1"}).out, "val2\n");
    EXPECT_EQ(platform({"store", "read", "--suffix", "2"}).out, "val2\n");
    EXPECT_EQ(platform({"store", "list", "--table", "elsewhere"}).out, "");
    EXPECT_EQ(platform({"store", "write", "k", "v", "--expiry", "soon"}).code, 2);
    auto raw = platform({"store", "read", "--prefix", "somekey", "-o", "raw"});
    EXPECT_EQ(json::parse(raw.out).size(), 2u) << raw.out;
    EXPECT_EQ(std::count(raw.out.begin(), raw.out.end(), '\n'), 1) << raw.out;  // one line
}

TEST_F(CliPlatform, EnvironmentsRoundTripInModeSixHundredFiles) {
    auto list = platform({"env"});
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_NE(list.out.find("* local"), std::string::npos) << list.out;
    for (const char* builtin : {"  dev", "  cluster"})
        EXPECT_NE(list.out.find(builtin), std::string::npos) << list.out;
    EXPECT_EQ(platform({"env", "add", "mine", proxy()}).code, 0);
    EXPECT_NE(platform({"env"}).out.find("  mine"), std::string::npos);
    EXPECT_EQ(platform({"env", "set", "mine"}).code, 0);
    EXPECT_EQ(platform({"env", "get"}).out, "mine\n");
    EXPECT_NE(platform({"env"}).out.find("* mine"), std::string::npos);
    auto current = platform({"env", "del", "mine"});
    EXPECT_NE(current.code, 0);  // not the selected one
    auto unknown = platform({"env", "set", "nowhere"});
    EXPECT_NE(unknown.code, 0);
    EXPECT_EQ(unknown.err, "Environment 'nowhere' does not exist\n");
    EXPECT_EQ(platform({"env", "del", "nowhere"}).err, "Environment 'nowhere' does not exist\n");
    EXPECT_EQ(platform({"env", "add", "bad", "no-port"}).code, 2);

    // The selected environment's address is used when PLATFORM_PROXY is unset.
    const std::map<std::string, std::string> no_proxy = {{"PLATFORM_PROXY", ""}};
    auto via_env = platform({"services"}, no_proxy);
    EXPECT_EQ(via_env.code, 0) << via_env.err;
    EXPECT_NE(via_env.out.find("go.core.api.config"), std::string::npos);
    // Select an environment nobody answers at; -e (before or after the command) and PLATFORM_ENV
    // pick another for one command, and PLATFORM_PROXY beats them all.
    EXPECT_EQ(platform({"env", "add", "gone", "127.0.0.1:1"}).code, 0);
    EXPECT_EQ(platform({"env", "set", "gone"}).code, 0);
    EXPECT_EQ(platform({"services"}, no_proxy).code, 4);
    EXPECT_EQ(platform({"-e", "mine", "services"}, no_proxy).code, 0);
    EXPECT_EQ(platform({"--env=mine", "services"}, no_proxy).code, 0);
    EXPECT_EQ(platform({"services", "--env", "mine"}, no_proxy).code, 0);
    EXPECT_EQ(platform({"notes", "list", "-e", "mine"}, no_proxy).code, 0);
    EXPECT_EQ(platform({"services"}, {{"PLATFORM_PROXY", ""}, {"PLATFORM_ENV", "mine"}}).code, 0);
    EXPECT_EQ(platform({"services"}).code, 0);  // PLATFORM_PROXY overrides "gone"
    auto unknown_flag = platform({"services", "--env", "nowhere"}, no_proxy);
    EXPECT_EQ(unknown_flag.code, 2);
    EXPECT_NE(unknown_flag.err.find("Environment 'nowhere' does not exist"), std::string::npos)
        << unknown_flag.err;

    EXPECT_EQ(platform({"env", "set", "local"}).code, 0);
    EXPECT_EQ(platform({"env", "del", "mine"}).code, 0);
    EXPECT_EQ(platform({"env"}).out.find("mine"), std::string::npos);
    EXPECT_NE(platform({"env", "del", "local"}).code, 0);  // built in

    struct stat st {};
    ASSERT_EQ(stat((home_.path() + "/config.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(CliPlatform, TokensAreKeptPerEnvironmentInModeSixHundred) {
    HostProcess::Options o;
    o.profile = "local";  // real accounts: login stores tokens
    o.env["PLATFORM_ADMIN_SECRET"] = "env-admin-secret";
    HostProcess local(o);
    local.start();
    const std::string address = "127.0.0.1:" + std::to_string(local.proxy_port());
    EXPECT_EQ(platform({"env", "add", "other", address}).code, 0);
    const std::map<std::string, std::string> env = {{"PLATFORM_PROXY", ""}, {"PLATFORM_TOKEN", ""}};
    auto login = platform(
        {"-e", "other", "login", "--username", "admin", "--password", "env-admin-secret"}, env);
    ASSERT_EQ(login.code, 0) << login.err;
    std::ifstream in(home_.path() + "/tokens.json");
    json tokens = json::parse(in);
    EXPECT_TRUE(tokens.contains("other")) << tokens.dump();
    EXPECT_FALSE(tokens.contains("local")) << tokens.dump();
    struct stat st {};
    ASSERT_EQ(stat((home_.path() + "/tokens.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(platform({"-e", "other", "user"}, env).code, 0);  // the stored login of `other`
    EXPECT_EQ(platform({"user"}, {{"PLATFORM_PROXY", address}, {"PLATFORM_TOKEN", ""}}).code,
              3);                                          // `local` has none
    EXPECT_EQ(platform({"env", "del", "other"}).code, 0);  // its login goes with it
    std::ifstream again(home_.path() + "/tokens.json");
    EXPECT_FALSE(json::parse(again).contains("other"));
    EXPECT_EQ(local.stop(), 0);
}

TEST_F(CliPlatform, UnreachableIsExitFourInOneLineNamingTheAddress) {
    EXPECT_EQ(platform({"env", "add", "gone", "127.0.0.1:1"}).code, 0);
    auto r = platform({"-e", "gone", "config", "get", "x"}, {{"PLATFORM_PROXY", ""}});
    EXPECT_EQ(r.code, 4);
    EXPECT_NE(r.err.find("127.0.0.1:1"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(CliPlatform, DynamicFlagsThroughTheRealBinary) {
    // registry getService: a nested field (options.domain) and an integer (options.ttl).
    auto r = platform({"registry", "getService", "--service=notes", "--options_ttl", "5",
                       "--options_domain", "d"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(json::parse(r.out)["services"][0]["name"], "go.core.api.v1.notes");
    // store list: a boolean-free array-free method with integers and an enum, as `--k=v` and `--k v`.
    platform({"store", "write", "dyn1", "a", "--table", "dyn"});
    platform({"store", "write", "dyn2", "b", "--table", "dyn"});
    auto list = platform({"store", "Store.List", "--table=dyn", "--limit", "1", "--order=desc"});
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_EQ(json::parse(list.out)["keys"], json::array({"dyn2"}));
    EXPECT_EQ(platform({"store", "Store.List", "--table=dyn", "--limit", "x"}).code, 2);
}

TEST_F(CliPlatform, ToolsHelpAndCall) {
    auto tools = platform({"tools"});
    ASSERT_EQ(tools.code, 0) << tools.err;
    EXPECT_NE(tools.out.find("notes_add"), std::string::npos) << tools.out;
    EXPECT_EQ(tools.out.find("registry_"), std::string::npos);  // built-ins are not tools
    // Endpoints playing another MCP role (resources, hidden pages) are not tools either.
    EXPECT_EQ(tools.out.find("notes_resources"), std::string::npos) << tools.out;
    EXPECT_EQ(tools.out.find("notes_read_resource"), std::string::npos) << tools.out;
    auto tools_json = json::parse(platform({"tools", "-o", "json"}).out);
    for (const auto& t : tools_json)
        EXPECT_FALSE(t["description"].get<std::string>().empty()) << t.dump();
    auto help = platform({"help", "notes", "add"});
    ASSERT_EQ(help.code, 0);
    for (const char* s : {"Example:", "--title string", "required", "POST /api/v1/notes/add",
                          "access: owner", "at most"})
        EXPECT_NE(help.out.find(s), std::string::npos) << s << "\n" << help.out;
    EXPECT_LT(help.out.find("Example:"), help.out.find("Arguments:"));
    // A short name is the catalogue's service first: `events` is the reminders, not the stream.
    auto events = platform({"help", "events", "free"});
    ASSERT_EQ(events.code, 0) << events.err;
    EXPECT_NE(events.out.find("GET /api/v1/events/free"), std::string::npos) << events.out;
    EXPECT_NE(platform({"events", "--help"}).out.find("free"), std::string::npos);
    for (const char* cmd :
         {"env", "config", "store", "registry", "tools", "call", "completion", "services"}) {
        auto h = platform({cmd, "--help"});
        EXPECT_EQ(h.code, 0) << cmd;
        EXPECT_NE(h.out.find("Example"), std::string::npos) << cmd << "\n" << h.out;
    }
    auto call = platform({"call", "--metadata", "X-Request-Id=cli-7", "--request_timeout", "5s",
                          "notes", "Notes.Add", R"({"title":"t","text":"x"})", "-o", "raw"});
    ASSERT_EQ(call.code, 0) << call.err;
    EXPECT_EQ(json::parse(call.out)["title"], "t");
    EXPECT_EQ(std::count(call.out.begin(), call.out.end(), '\n'), 1);
    EXPECT_EQ(platform({"call", "--request_timeout", "soon", "notes", "Notes.List"}).code, 2);
    EXPECT_EQ(platform({"call", "--metadata", "novalue", "notes", "Notes.List"}).code, 2);
}

TEST_F(CliPlatform, CompletionScriptsParse) {
    for (const std::string shell : {"bash", "zsh"}) {
        auto script = platform({"completion", shell});
        ASSERT_EQ(script.code, 0) << script.err;
        EXPECT_NE(script.out.find("notes"), std::string::npos) << shell;  // from the registry
        EXPECT_NE(script.out.find("--title"), std::string::npos) << shell;
        EXPECT_NE(script.out.find("config"), std::string::npos) << shell;
        if (shell == "bash") {
            const std::string file = home_.path() + "/platform.bash";
            std::ofstream(file) << script.out;
            EXPECT_EQ(run_command({"/bin/bash", "-n", file}).code, 0);
        }
    }
    // Without a server: the built-in commands only, still a valid script.
    auto offline = platform({"completion", "bash"}, {{"PLATFORM_PROXY", "127.0.0.1:1"}});
    ASSERT_EQ(offline.code, 0) << offline.err;
    EXPECT_EQ(offline.out.find("notes"), std::string::npos);
    EXPECT_NE(offline.out.find("config"), std::string::npos);
    EXPECT_EQ(platform({"completion", "fish"}).code, 2);
}

// Runs the CLI on a pseudo-terminal and returns what it wrote there. The terminal's bytes reach
// the master side asynchronously and Linux may drop the ones still in flight when the last slave
// closes, so this process keeps a slave open and a parent on the terminal writes an end marker
// after the CLI exits: everything before the marker is the CLI's whole output.
std::string on_terminal(const std::vector<std::string>& argv,
                        const std::map<std::string, std::string>& env) {
    static const std::string kEnd = "\n--on-terminal-end--";
    int master = -1, slave = -1;
    if (openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) return "openpty failed";
    pid_t pid = fork();
    if (pid == 0) {
        close(master);
        if (login_tty(slave) != 0) _exit(126);
        for (auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
        if (pid_t cli = fork(); cli == 0) {
            std::vector<char*> args;
            for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
            args.push_back(nullptr);
            execv(args[0], args.data());
            _exit(127);
        } else {
            waitpid(cli, nullptr, 0);
        }
        (void)!write(STDOUT_FILENO, kEnd.data(), kEnd.size());
        _exit(0);
    }
    std::string out;
    char buf[4096];
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (out.find(kEnd) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
        pollfd p{master, POLLIN, 0};
        if (poll(&p, 1, 1000) <= 0) continue;
        const ssize_t n = read(master, buf, sizeof buf);
        if (n <= 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    close(master);
    close(slave);
    waitpid(pid, nullptr, 0);
    if (auto end = out.find(kEnd); end != std::string::npos) out.resize(end);
    return out;
}

TEST_F(CliPlatform, ColourOnlyOnATerminalAndNeverWithNoColor) {
    std::map<std::string, std::string> env = {
        {"PLATFORM_HOME", home_.path()}, {"PLATFORM_ENV", ""}, {"TERM", "xterm"}};
    env["NO_COLOR"] = "";
    const std::string tty = on_terminal({HostProcess::binary(), "env"}, env);
    EXPECT_NE(tty.find("\033["), std::string::npos) << tty;
    env["NO_COLOR"] = "1";
    const std::string plain = on_terminal({HostProcess::binary(), "env"}, env);
    EXPECT_NE(plain.find("local"), std::string::npos) << plain;
    EXPECT_EQ(plain.find('\033'), std::string::npos) << plain;
    auto piped = platform({"env"}, {{"NO_COLOR", ""}, {"TERM", "xterm"}});
    EXPECT_EQ(piped.out.find('\033'), std::string::npos);  // not a terminal
}

}  // namespace
