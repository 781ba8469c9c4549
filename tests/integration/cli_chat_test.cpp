// `platform chat live <room>` in a real terminal against a real server whose live streams end
// after 1 s without a message: a message sent while it follows shows as "HH:MM ann: text", and
// one sent after the server ended a stream shows too, once — the CLI opened the stream again
// after its last cursor. Other `platform chat` words are the service's methods.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "command.hpp"
#include "eventually.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "terminal_pane.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class CliChat : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        HostProcess::Options o;
        o.profile = suite_dir() + "/cli-chat.yaml";
        std::ofstream(o.profile) << with_plugin_config(test_profile_text(), "chat",
                                                       "live_idle_ms: 1000");
        start_host(o);
    }
    void send(const std::string& who, const std::string& room, const std::string& text) {
        auto r = api.post_json("/api/v1/chat/send", {{"room", room}, {"message", text}}, as(who));
        ASSERT_EQ(r.status, 200) << r.body;
    }
    // Live streams of chat that have ended without an error, from /metrics.
    int ended_live_streams() {
        auto r = api.get("/metrics");
        std::smatch m;
        static const std::regex line(
            R"re(platform_calls_total\{service="[^"]*chat",endpoint="[^"]*[Ll]ive",code="ok"\} (\d+))re");
        return std::regex_search(r.body, m, line) ? std::stoi(m[1]) : 0;
    }
    std::map<std::string, std::string> cli_env(const std::string& token) {
        return {{"PLATFORM_HOME", home.path()},
                {"PLATFORM_PROXY", "127.0.0.1:" + std::to_string(host->proxy_port())},
                {"PLATFORM_TOKEN", token},
                {"PLATFORM_ENV", ""}};
    }
    TempDir home;
};

TEST_F(CliChat, LiveFollowsARoomAcrossStreams) {
    send("ann", "lobby", "before you came");
    TerminalPane pane("'" + HostProcess::binary() + "' chat live lobby", cli_env("bob"));
    ASSERT_TRUE(pane.started()) << pane.error();
    ASSERT_TRUE(eventually([&] { return has(pane.screen(), "following lobby"); })) << pane.screen();

    send("ann", "lobby", "first words");
    ASSERT_TRUE(eventually([&] { return has(pane.screen(), "ann: first words"); }))
        << pane.screen();

    // The server ends the stream after 1 s without a message; the CLI opens it again.
    const int ended = ended_live_streams();
    ASSERT_TRUE(eventually([&] { return ended_live_streams() > ended; })) << host->log();
    send("ann", "lobby", "second words");
    ASSERT_TRUE(eventually([&] { return has(pane.screen(), "ann: second words"); }))
        << pane.screen();
    const std::string screen = pane.screen();
    EXPECT_EQ(count_of(screen, "first words"), 1u) << screen;
    EXPECT_FALSE(has(screen, "before you came")) << "only new messages are followed:\n" << screen;
    EXPECT_FALSE(has(screen, "EXIT=")) << "still following:\n" << screen;
    EXPECT_TRUE(std::regex_search(screen, std::regex(R"(\d\d:\d\d ann: first words)"))) << screen;
}

TEST_F(CliChat, OtherWordsAreTheServicesMethodsAndBadUseExitsTwo) {
    auto sent = run_cli(*host, home.path(), "ann",
                        {"chat", "send", "--room", "lobby", "--message", "from the cli"});
    EXPECT_EQ(sent.code, 0) << sent.err;
    auto read = run_cli(*host, home.path(), "bob", {"chat", "messages", "--room", "lobby"});
    EXPECT_EQ(read.code, 0) << read.err;
    EXPECT_TRUE(has(read.out, "from the cli")) << read.out;

    // A direct room from the CLI: a flag value starting with @ is written @@.
    auto direct = run_cli(*host, home.path(), "ann",
                          {"chat", "send", "--room", "@@bob", "--message", "just for bob"});
    EXPECT_EQ(direct.code, 0) << direct.err;
    auto mine = run_cli(*host, home.path(), "bob", {"chat", "messages", "--room", "@@ann"});
    EXPECT_EQ(mine.code, 0) << mine.err;
    EXPECT_TRUE(has(mine.out, "just for bob")) << mine.out;
    auto other = run_cli(*host, home.path(), "carol", {"chat", "messages", "--room", "@@bob"});
    EXPECT_EQ(other.code, 0) << other.err;
    EXPECT_FALSE(has(other.out, "just for bob")) << other.out;

    EXPECT_EQ(run_cli(*host, home.path(), "bob", {"chat", "live"}).code, 2);
    EXPECT_EQ(run_cli(*host, home.path(), "bob", {"chat", "live", "a", "b"}).code, 2);
    auto help = run_cli(*host, home.path(), "bob", {"chat", "--help"});
    EXPECT_EQ(help.code, 0);
    EXPECT_TRUE(has(help.out, "platform chat live")) << help.out;
    auto bad = run_cli(*host, home.path(), "bob", {"chat", "live", "Not A Room!"});
    EXPECT_EQ(bad.code, 1) << bad.out << bad.err;
    EXPECT_TRUE(has(bad.err, "room")) << bad.err;
}

}  // namespace
