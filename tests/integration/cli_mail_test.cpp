// `platform mail read <id>` against a real server: a 5000-character letter (three pages of the
// mail service) is printed whole when the output is a pipe, and shown a page at a time in a real
// terminal, each next page fetched only after Enter; q stops early.
#include <gtest/gtest.h>

#include "command.hpp"
#include "eventually.hpp"
#include "shared_host_test.hpp"
#include "terminal_pane.hpp"
#include "text_search.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class CliMail : public SharedHostTest {
protected:
    // ann's letter to bob: 100 numbered lines of 50 characters ("line 007 ....\n"), 5000 in all.
    std::string send_long_letter() {
        std::string body;
        for (int i = 1; i <= 100; ++i) {
            char head[16];
            std::snprintf(head, sizeof head, "line %03d ", i);
            body += head + std::string(40, '.') + "\n";
        }
        EXPECT_EQ(body.size(), 5000u);
        auto sent =
            api.post_json("/api/v1/mail/send",
                          {{"to", "bob"}, {"subject", "The long one"}, {"body", body}}, as("ann"));
        EXPECT_EQ(sent.status, 200) << sent.body;
        auto inbox = api.get("/api/v1/mail/inbox", as("bob"));
        EXPECT_EQ(inbox.status, 200) << inbox.body;
        const json answer = inbox.json();
        for (const json& m : answer["data"]["messages"])
            if (m.value("subject", "") == "The long one") id_ = m.value("id", "");
        EXPECT_FALSE(id_.empty()) << inbox.body;
        return body;
    }
    std::map<std::string, std::string> cli_env(const std::string& token) {
        return {{"PLATFORM_HOME", home.path()},
                {"PLATFORM_PROXY", "127.0.0.1:" + std::to_string(host->proxy_port())},
                {"PLATFORM_TOKEN", token},
                {"PLATFORM_ENV", ""}};
    }
    TempDir home;
    std::string id_;
};

TEST_F(CliMail, ReadPrintsAWholeLetterToAPipeAndPagesItAtATerminal) {
    const std::string body = send_long_letter();
    ASSERT_FALSE(id_.empty());

    auto piped = run_cli(*host, home.path(), "bob", {"mail", "read", id_});
    ASSERT_EQ(piped.code, 0) << piped.err;
    EXPECT_TRUE(has(piped.out, "From: ann\n")) << piped.out;
    EXPECT_TRUE(has(piped.out, "Subject: The long one\n")) << piped.out;
    EXPECT_TRUE(has(piped.out, "\n\n" + body)) << "the three pages, whole and in order:\n"
                                               << piped.out;
    EXPECT_TRUE(piped.err.empty()) << piped.err;
    auto pages = run_cli(*host, home.path(), "bob", {"mail", "read", id_, "--json"});
    ASSERT_EQ(pages.code, 0) << pages.err;
    EXPECT_EQ(count_of(pages.out, "\"offset\":"), 3u) << pages.out;

    TerminalPane pane("'" + HostProcess::binary() + "' mail read " + id_, cli_env("bob"));
    ASSERT_TRUE(pane.started()) << pane.error();
    ASSERT_TRUE(eventually([&] { return has(pane.screen(), "2000 of 5000 characters"); }))
        << pane.screen();
    EXPECT_TRUE(has(pane.screen(), "line 040 ")) << pane.screen();
    EXPECT_FALSE(has(pane.screen(), "line 041 ")) << "the second page waits:\n" << pane.screen();
    ASSERT_TRUE(pane.type("Enter"));
    ASSERT_TRUE(eventually([&] { return has(pane.screen(), "4000 of 5000 characters"); }))
        << pane.screen();
    EXPECT_TRUE(has(pane.screen(), "line 080 ")) << pane.screen();
    ASSERT_TRUE(pane.type("q") && pane.type("Enter"));
    ASSERT_TRUE(eventually([&] { return has(pane.screen(), "EXIT=0"); })) << pane.screen();
    EXPECT_FALSE(has(pane.screen(), "line 081 ")) << "q stops before the last page:\n"
                                                  << pane.screen();
}

TEST_F(CliMail, ReadRefusesBadUseAndReportsAMissingLetter) {
    EXPECT_EQ(run_cli(*host, home.path(), "bob", {"mail", "read", "a", "b"}).code, 2);
    auto offset = run_cli(*host, home.path(), "bob", {"mail", "read", "x", "--offset", "-3"});
    EXPECT_EQ(offset.code, 2);
    EXPECT_TRUE(has(offset.err, "--offset")) << offset.err;
    auto missing = run_cli(*host, home.path(), "bob", {"mail", "read", "no-such-letter"});
    EXPECT_EQ(missing.code, 5) << missing.out << missing.err;
    EXPECT_TRUE(has(missing.err, "no letter")) << missing.err;
    auto help = run_cli(*host, home.path(), "bob", {"mail", "read", "--help"});
    EXPECT_EQ(help.code, 0);
    EXPECT_TRUE(has(help.out, "platform mail read")) << help.out;
    // Without an id, `read` is the service's method: the inbox summary.
    auto summary = run_cli(*host, home.path(), "bob", {"mail", "read", "-o", "json"});
    EXPECT_EQ(summary.code, 0) << summary.err;
    EXPECT_TRUE(has(summary.out, "unread")) << summary.out;
}

}  // namespace
