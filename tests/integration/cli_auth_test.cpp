// The identity commands of the `platform` CLI against a real server with the `local` profile
// (auth-local, PLATFORM_ADMIN_SECRET): login/logout/user/signup, `auth create|list|delete
// account|rule|token` in micro's spellings, the token file (mode 0600, one entry per environment)
// and the automatic refresh of an access token about to expire.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "command.hpp"
#include "host_process.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kAdminSecret = "admin-secret-for-cli-tests";

int64_t now_s() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The value after "<label>: " on a line of out ("" when absent).
std::string field(const std::string& out, const std::string& label) {
    std::smatch m;
    if (std::regex_search(out, m, std::regex("(^|\n)" + label + ": ([^\n]+)"))) return m[2];
    return "";
}

size_t count(const std::string& text, const std::string& needle) {
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos;
         at = text.find(needle, at + needle.size()))
        ++n;
    return n;
}

// A table row (after the header) whose first column is `id`.
std::string row(const std::string& table, const std::string& id) {
    std::istringstream in(table);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line))
        if (line.rfind(id + " ", 0) == 0 || line == id) return line;
    return "";
}

class CliIdentity : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        HostProcess::Options o;
        o.profile = "local";
        o.env["PLATFORM_ADMIN_SECRET"] = kAdminSecret;
        start_host(o);
    }

    // Runs the CLI with its own PLATFORM_HOME (`home`, this test's by default).
    CommandResult platform(std::vector<std::string> args,
                           std::map<std::string, std::string> env = {},
                           const std::string& home = "") {
        args.insert(args.begin(), HostProcess::binary());
        return run_command(args, with_defaults(std::move(env), home));
    }
    // Runs the CLI with `input` on its stdin (through sh: the support runner gives /dev/null).
    CommandResult platform_stdin(const std::string& input, std::vector<std::string> args,
                                 std::map<std::string, std::string> env = {},
                                 const std::string& home = "") {
        std::vector<std::string> argv{"/bin/sh", "-c",
                                      "printf '%s\\n' \"$CLI_INPUT\" | exec \"$0\" \"$@\"",
                                      HostProcess::binary()};
        argv.insert(argv.end(), args.begin(), args.end());
        env["CLI_INPUT"] = input;
        return run_command(argv, with_defaults(std::move(env), home));
    }
    std::map<std::string, std::string> with_defaults(std::map<std::string, std::string> env,
                                                     const std::string& home) {
        env.emplace("PLATFORM_PROXY", "127.0.0.1:" + std::to_string(host->proxy_port()));
        env.emplace("PLATFORM_HOME", home.empty() ? home_.path() : home);
        env.emplace("PLATFORM_TOKEN", "");  // never the runner's
        env.emplace("PLATFORM_ENV", "");
        return env;
    }
    void login_admin(const std::string& home = "") {
        auto r = platform({"login", "--username", "admin", "--password", kAdminSecret}, {}, home);
        ASSERT_EQ(r.code, 0) << r.err;
        ASSERT_EQ(r.out, "Logged in as admin\n");
    }
    json tokens_file(const std::string& home = "") {
        std::ifstream in((home.empty() ? home_.path() : home) + "/tokens.json");
        if (!in) return nullptr;
        std::stringstream ss;
        ss << in.rdbuf();
        return json::parse(ss.str(), nullptr, false);
    }
    void write_tokens_file(const json& j) {
        std::ofstream(home_.path() + "/tokens.json") << j.dump();
    }
    // A fresh account with a known secret, created by the admin logged in at `home_`.
    std::string new_account(const std::string& id, const std::string& secret,
                            const std::string& extra = "") {
        std::vector<std::string> args{"auth", "create", "account", id, "--secret", secret};
        if (!extra.empty()) args.insert(args.end(), {"--scopes", extra});
        auto r = platform(args);
        EXPECT_EQ(r.code, 0) << r.err;
        return id;
    }

    TempDir home_;
};

TEST_F(CliIdentity, LoginThenUserAndUserToken) {
    login_admin();
    auto user = platform({"user"});
    ASSERT_EQ(user.code, 0) << user.err;
    EXPECT_EQ(user.out, "admin\n");
    auto as_json = platform({"user", "--output", "json"});
    ASSERT_EQ(as_json.code, 0) << as_json.err;
    EXPECT_EQ(json::parse(as_json.out)["id"], "admin");
    EXPECT_EQ(json::parse(as_json.out)["scopes"], json::array({"admin"}));

    auto token = platform({"user", "token"});
    ASSERT_EQ(token.code, 0) << token.err;
    EXPECT_TRUE(std::regex_match(token.out,
                                 std::regex("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\n")))
        << token.out;

    json file = tokens_file();
    ASSERT_TRUE(file.is_object()) << file;
    ASSERT_TRUE(file.contains("local")) << file;  // PLATFORM_ENV unset: the `local` entry
    EXPECT_EQ(file["local"]["access_token"].get<std::string>() + "\n", token.out);
    EXPECT_EQ(file["local"]["account"], "admin");
    EXPECT_FALSE(file["local"]["refresh_token"].get<std::string>().empty());
    EXPECT_GT(file["local"]["expiry"].get<int64_t>(), now_s() + 60);

    struct stat st {};
    ASSERT_EQ(stat((home_.path() + "/tokens.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(CliIdentity, WrongPasswordIsRefusedAndStoresNothing) {
    auto r = platform({"login", "--username", "admin", "--password", "not-the-secret"});
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_NE(r.err.find("invalid credentials"), std::string::npos) << r.err;
    json file = tokens_file();
    EXPECT_TRUE(file.is_null() || !file.contains("local")) << file;
    auto no_stdin = platform({"login"});  // no terminal, no flags: a usage error, not a hang
    EXPECT_EQ(no_stdin.code, 2) << no_stdin.err;
}

TEST_F(CliIdentity, CreateAccountPrintsTheSecretOnceAndTheAccountCanLogIn) {
    login_admin();
    auto created = platform({"auth", "create", "account", "bob"});
    ASSERT_EQ(created.code, 0) << created.err;
    EXPECT_EQ(field(created.out, "Account created"), "bob");
    const std::string secret = field(created.out, "Secret");
    ASSERT_FALSE(secret.empty()) << created.out;
    EXPECT_EQ(count(created.out, secret), 1u);

    auto list = platform({"auth", "list", "accounts"});
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_EQ(list.out.rfind("ID", 0), 0u) << list.out;
    EXPECT_NE(list.out.substr(0, list.out.find('\n')).find("SCOPES"), std::string::npos)
        << list.out;
    EXPECT_NE(row(list.out, "bob"), "") << list.out;
    EXPECT_NE(row(list.out, "admin"), "") << list.out;
    EXPECT_EQ(list.out.find(secret), std::string::npos);
    auto as_json = platform({"auth", "list", "accounts", "-o", "json"});
    ASSERT_EQ(as_json.code, 0);
    EXPECT_TRUE(json::parse(as_json.out)["accounts"].is_array());

    // bob logs in from his own PLATFORM_HOME, and is no admin.
    TempDir bob_home;
    auto bob = platform({"login", "--username", "bob", "--password", secret}, {}, bob_home.path());
    ASSERT_EQ(bob.code, 0) << bob.err;
    EXPECT_EQ(bob.out, "Logged in as bob\n");
    EXPECT_EQ(platform({"user"}, {}, bob_home.path()).out, "bob\n");
    auto refused = platform({"auth", "list", "accounts"}, {}, bob_home.path());
    EXPECT_EQ(refused.code, 3) << refused.out << refused.err;
    EXPECT_EQ(platform({"user"}).out, "admin\n");  // admin's home is untouched

    // A given secret is not printed back; scopes show in the table.
    auto given = platform({"auth", "create", "account", "carol", "--secret", "carol-secret-1",
                           "--scopes", "ops,dev"});
    ASSERT_EQ(given.code, 0) << given.err;
    EXPECT_EQ(given.out, "Account created: carol\n");
    EXPECT_NE(row(platform({"auth", "list", "accounts"}).out, "carol").find("ops,dev"),
              std::string::npos);

    auto dup = platform({"auth", "create", "account", "carol"});
    EXPECT_EQ(dup.code, 1) << dup.err;
    EXPECT_NE(dup.err.find("already exists"), std::string::npos) << dup.err;

    auto deleted = platform({"auth", "delete", "account", "bob"});
    ASSERT_EQ(deleted.code, 0) << deleted.err;
    EXPECT_EQ(deleted.out, "Account deleted\n");
    EXPECT_EQ(row(platform({"auth", "list", "accounts"}).out, "bob"), "");
    EXPECT_EQ(platform({"auth", "delete", "account", "bob"}).code, 5);
    // bob's stored session was revoked with his account.
    EXPECT_EQ(platform({"user"}, {}, bob_home.path()).code, 3);
}

TEST_F(CliIdentity, CreateListAndDeleteRules) {
    login_admin();
    auto created = platform({"auth", "create", "rule", "cli-r1", "--scope", "*", "--resource",
                             "service:nosuch:*", "--priority", "5"});
    ASSERT_EQ(created.code, 0) << created.err;
    EXPECT_EQ(created.out, "Rule created\n");
    auto pub = platform({"auth", "create", "rule", "cli-r2", "--scope", "<public>", "--resource",
                         "service:nosuch:Nosuch.Read", "--access", "denied"});
    ASSERT_EQ(pub.code, 0) << pub.err;

    auto list = platform({"auth", "list", "rules"});
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_TRUE(std::regex_search(list.out, std::regex("^ID +SCOPE +ACCESS +RESOURCE +PRIORITY\n")))
        << list.out;
    EXPECT_TRUE(std::regex_search(row(list.out, "cli-r1"),
                                  std::regex("^cli-r1 +\\* +GRANTED +service:nosuch:\\* +5$")))
        << list.out;
    EXPECT_TRUE(
        std::regex_search(row(list.out, "cli-r2"),
                          std::regex("^cli-r2 +<public> +DENIED +service:nosuch:Nosuch.Read +0$")))
        << list.out;

    auto bad_access = platform({"auth", "create", "rule", "x", "--scope", "*", "--resource",
                                "*:*:*", "--access", "maybe"});
    EXPECT_EQ(bad_access.code, 2);
    EXPECT_NE(bad_access.err.find("Invalid access: maybe, must be granted or denied"),
              std::string::npos)
        << bad_access.err;
    auto bad_resource =
        platform({"auth", "create", "rule", "x", "--scope", "*", "--resource", "notes"});
    EXPECT_EQ(bad_resource.code, 2);
    EXPECT_NE(bad_resource.err.find("Invalid resource, must be in the format type:name:endpoint"),
              std::string::npos);
    auto missing =
        platform({"auth", "create", "rule", "x", "--resource", "*:*:*"});  // --scope is required
    EXPECT_EQ(missing.code, 2);

    for (const char* id : {"cli-r1", "cli-r2"}) {
        auto del = platform({"auth", "delete", "rule", id});
        ASSERT_EQ(del.code, 0) << del.err;
        EXPECT_EQ(del.out, "Rule deleted\n");
    }
    auto after = platform({"auth", "list", "rules"});
    EXPECT_EQ(row(after.out, "cli-r1"), "");
    EXPECT_NE(row(after.out, "default"), "") << after.out;
    EXPECT_EQ(platform({"auth", "delete", "rule", "cli-r1"}).code, 5);
}

TEST_F(CliIdentity, CreateTokenPrintsItOnceAndListHidesIt) {
    login_admin();
    auto created = platform({"auth", "create", "token", "--name", "ci", "--services", "notes",
                             "--capabilities", "agent,work"});
    ASSERT_EQ(created.code, 0) << created.err;
    const std::string id = field(created.out, "Token created"), token = field(created.out, "Token");
    ASSERT_FALSE(id.empty()) << created.out;
    ASSERT_FALSE(token.empty()) << created.out;

    auto list = platform({"auth", "list", "tokens"});
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_EQ(list.out.find(token), std::string::npos) << list.out;
    const std::string line = row(list.out, id);
    EXPECT_NE(line.find("ci"), std::string::npos) << list.out;
    EXPECT_NE(line.find("notes"), std::string::npos) << list.out;
    EXPECT_NE(line.find("agent,work"), std::string::npos) << list.out;
    EXPECT_EQ(platform({"auth", "list", "tokens", "-o", "json"}).out.find(token),
              std::string::npos);

    // The token works for notes, sent as PLATFORM_TOKEN (which comes before the stored login),
    // and for nothing else; the dynamic command reads the notes descriptor anonymously.
    auto call = platform({"call", "notes", "Notes.List", "{}"}, {{"PLATFORM_TOKEN", token}});
    EXPECT_EQ(call.code, 0) << call.err;
    auto notes = platform({"notes", "list"}, {{"PLATFORM_TOKEN", token}});
    EXPECT_EQ(notes.code, 0) << notes.err;
    auto me = platform({"user"}, {{"PLATFORM_TOKEN", token}});
    EXPECT_EQ(me.code, 3) << me.out;

    auto del = platform({"auth", "delete", "token", id});
    ASSERT_EQ(del.code, 0) << del.err;
    EXPECT_EQ(del.out, "Token deleted\n");
    EXPECT_EQ(row(platform({"auth", "list", "tokens"}).out, id), "");
    EXPECT_EQ(platform({"call", "notes", "Notes.List", "{}"}, {{"PLATFORM_TOKEN", token}}).code, 3);
}

TEST_F(CliIdentity, PlatformTokenComesBeforeTheStoredLogin) {
    login_admin();
    new_account("dora", "dora-secret-1");
    TempDir dora_home;
    ASSERT_EQ(platform({"login", "--username", "dora", "--password", "dora-secret-1"}, {},
                       dora_home.path())
                  .code,
              0);
    const std::string dora_token = platform({"user", "token"}, {}, dora_home.path()).out;
    ASSERT_FALSE(dora_token.empty());
    auto user =
        platform({"user"}, {{"PLATFORM_TOKEN", dora_token.substr(0, dora_token.size() - 1)}});
    ASSERT_EQ(user.code, 0) << user.err;
    EXPECT_EQ(user.out, "dora\n");
    EXPECT_EQ(platform({"user"}).out, "admin\n");
}

TEST_F(CliIdentity, LogoutForgetsAndRevokesTheLogin) {
    login_admin();
    const std::string refresh = tokens_file()["local"]["refresh_token"];
    auto out = platform({"logout"});
    ASSERT_EQ(out.code, 0) << out.err;
    EXPECT_EQ(out.out, "Logged out\n");
    EXPECT_FALSE(tokens_file().contains("local"));
    auto user = platform({"user"});
    EXPECT_EQ(user.code, 3) << user.out;
    EXPECT_NE(user.err.find("not logged in"), std::string::npos) << user.err;
    auto token = platform({"user", "token"});
    EXPECT_EQ(token.code, 3);
    EXPECT_EQ(token.out, "");
    // The refresh token was revoked on the server.
    auto reuse = platform({"call", "auth", "token", json{{"refresh_token", refresh}}.dump()});
    EXPECT_EQ(reuse.code, 3) << reuse.out << reuse.err;
    EXPECT_EQ(platform({"logout"}).out, "Not logged in\n");
}

TEST_F(CliIdentity, LoginWithATokenOnStdin) {
    login_admin();
    auto created = platform({"auth", "create", "token", "--name", "for-login"});
    ASSERT_EQ(created.code, 0) << created.err;
    const std::string token = field(created.out, "Token");
    ASSERT_FALSE(token.empty());

    TempDir other;
    auto login = platform_stdin(token, {"login", "--token"}, {}, other.path());
    ASSERT_EQ(login.code, 0) << login.err;
    EXPECT_EQ(login.out, "Logged in as admin\n");
    EXPECT_EQ(platform({"user"}, {}, other.path()).out, "admin\n");
    EXPECT_EQ(platform({"user", "token"}, {}, other.path()).out, token + "\n");
    json file = tokens_file(other.path());
    EXPECT_EQ(file["local"]["access_token"], token);
    EXPECT_EQ(file["local"]["refresh_token"], "");

    auto forged = platform_stdin("not-a-token", {"login", "--token"}, {}, other.path());
    EXPECT_NE(forged.code, 0);
    EXPECT_EQ(tokens_file(other.path())["local"]["access_token"], token);  // the old login stays
}

TEST_F(CliIdentity, AnExpiringAccessTokenIsRefreshedBeforeTheCall) {
    login_admin();
    json file = tokens_file();
    const std::string old_refresh = file["local"]["refresh_token"];
    file["local"]["access_token"] = "expired.access.token";
    file["local"]["expiry"] = now_s() - 10;
    write_tokens_file(file);

    auto user = platform({"user"});
    ASSERT_EQ(user.code, 0) << user.err;
    EXPECT_EQ(user.out, "admin\n");
    json fresh = tokens_file();
    EXPECT_NE(fresh["local"]["access_token"], "expired.access.token");
    EXPECT_NE(fresh["local"]["refresh_token"], old_refresh);  // rotated
    EXPECT_GT(fresh["local"]["expiry"].get<int64_t>(), now_s() + 60);
    struct stat st {};
    ASSERT_EQ(stat((home_.path() + "/tokens.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);

    // A login with the shortest lifetime (60 s) is renewed by the next command.
    auto short_login =
        platform({"login", "--username", "admin", "--password", kAdminSecret, "--expiry", "60"});
    ASSERT_EQ(short_login.code, 0) << short_login.err;
    const std::string short_token = tokens_file()["local"]["access_token"];
    auto token = platform({"user", "token"});
    ASSERT_EQ(token.code, 0) << token.err;
    EXPECT_NE(token.out, short_token + "\n");
    EXPECT_EQ(token.out, tokens_file()["local"]["access_token"].get<std::string>() + "\n");
}

TEST_F(CliIdentity, ARefusedRefreshEndsTheSession) {
    login_admin();
    json file = tokens_file();
    file["local"]["refresh_token"] = "bogus-refresh-token";
    file["local"]["expiry"] = now_s() - 10;
    write_tokens_file(file);
    auto user = platform({"user"});
    EXPECT_EQ(user.code, 3) << user.out;
    EXPECT_NE(user.err.find("session expired, run `platform login`"), std::string::npos)
        << user.err;
    EXPECT_FALSE(tokens_file().contains("local"));
}

TEST_F(CliIdentity, SetTimezone) {
    login_admin();
    auto set = platform({"user", "set", "timezone", "Europe/London"});
    ASSERT_EQ(set.code, 0) << set.err;
    EXPECT_EQ(set.out, "Timezone set to Europe/London\n");
    EXPECT_EQ(json::parse(platform({"user", "-o", "json"}).out)["metadata"]["timezone"],
              "Europe/London");
    auto bad = platform({"user", "set", "timezone", "Mars/Olympus"});
    EXPECT_EQ(bad.code, 1);
    EXPECT_NE(bad.err.find("IANA"), std::string::npos) << bad.err;
    EXPECT_EQ(platform({"user", "set", "timezone", "UTC"}).code, 0);
}

TEST_F(CliIdentity, SignupWithoutASignupServiceIsExitFive) {
    auto r = platform({"signup"});
    EXPECT_EQ(r.code, 5);
    EXPECT_NE(r.err.find("signup is not available: no signup service runs on this server"),
              std::string::npos)
        << r.err;
}

TEST_F(CliIdentity, HelpOnEveryCommandAndTheDynamicAuthCallsStayReachable) {
    for (std::vector<std::string> args :
         std::vector<std::vector<std::string>>{{"login", "--help"},
                                               {"logout", "--help"},
                                               {"user", "--help"},
                                               {"user", "token", "--help"},
                                               {"user", "set", "timezone", "--help"},
                                               {"auth", "--help"},
                                               {"auth", "create", "--help"},
                                               {"auth", "create", "account", "--help"},
                                               {"auth", "create", "rule", "--help"},
                                               {"auth", "create", "token", "--help"},
                                               {"auth", "list", "rules", "--help"},
                                               {"auth", "delete", "token", "--help"},
                                               {"signup", "--help"}}) {
        auto r = platform(args);
        EXPECT_EQ(r.code, 0) << args[0] << " " << args[1] << "\n" << r.err;
        EXPECT_NE(r.out.find("Usage"), std::string::npos) << r.out;
    }
    EXPECT_NE(platform({"auth", "create", "rule", "--help"}).out.find("--resource"),
              std::string::npos);
    EXPECT_EQ(platform({"auth", "create"}).code, 2);
    EXPECT_EQ(platform({"auth", "list", "things"}).code, 2);

    // `platform auth <method>` is still the auth service's own method.
    login_admin();
    const std::string token = tokens_file()["local"]["access_token"];
    auto inspect = platform({"auth", "inspect", "--token", token});
    ASSERT_EQ(inspect.code, 0) << inspect.err;
    EXPECT_EQ(json::parse(inspect.out)["id"], "admin");
}

}  // namespace
