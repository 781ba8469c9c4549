// The mail service's external mailbox (plugins/mail/external.hpp) through the real host against
// Debian's Dovecot on loopback (support/dovecot_server.hpp: a throwaway config and maildir). The
// host reaches Dovecot through http_fetch's imap:// path; the loopback port is allow-listed in
// outbound.allow and trusted by mail's trusted_mailboxes (without both the SSRF guard refuses
// it). The mailbox holds 23 messages of the last days and one of ten days ago. The CLI connects
// and searches too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>

#include "command.hpp"
#include "dovecot_server.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kPassword = "imap-secret-7f3a";

std::string letter(const std::string& subject, const std::string& body,
                   const std::string& extra = "") {
    return "From: Bob <bob@example.org>\r\nTo: ann@example.org\r\nSubject: " + subject +
           "\r\nDate: Sat, 28 Nov 2026 10:00:00 +0000\r\nMessage-ID: <" +
           std::to_string(std::hash<std::string>{}(subject)) + "@example.org>\r\n" + extra +
           "\r\n" + body;
}

class ExternalMail : public SharedHostTest {
protected:
    static std::unique_ptr<DovecotServer> imap;
    static std::string read_path;

    static void SetUpTestSuite() {
        imap =
            std::make_unique<DovecotServer>(std::map<std::string, std::string>{{"ann", kPassword}});
        if (!imap->installed() || !imap->ready()) return start_host();  // the tests skip or fail
        using std::chrono::hours;
        imap->deliver("ann", letter("old news", "From last week.\r\n"), hours(24 * 10));
        for (int i = 1; i <= 21; ++i)
            imap->deliver("ann",
                          letter("note " + std::to_string(i), "Body " + std::to_string(i) + "\r\n"),
                          hours(24 * 5) - std::chrono::minutes(i));
        std::string long_body;
        for (int i = 0; i < 50; ++i) long_body += std::string(98, char('a' + i % 26)) + "\r\n";
        imap->deliver("ann", letter("long", long_body), hours(2));
        read_path = imap->deliver(
            "ann",
            letter("=?UTF-8?Q?Caf=C3=A9?= invoice", "Total: 12 =E2=82=AC, caf=C3=A9 incl.\r\n",
                   "Content-Type: text/plain; charset=utf-8\r\n"
                   "Content-Transfer-Encoding: quoted-printable\r\n"),
            hours(1));
        const std::string entry = "\"127.0.0.1:" + std::to_string(imap->port()) + "\"";
        HostProcess::Options o;
        o.profile = suite_dir() + "/external-mail.yaml";
        std::ofstream(o.profile) << with_plugin_config(test_profile_text(), "mail",
                                                       "trusted_mailboxes: [" + entry + "]")
                                 << "\noutbound:\n  allow: [" << entry << "]\n";
        start_host(o);
    }
    static void TearDownTestSuite() {
        stop_host();
        imap.reset();
    }
    void SetUp() override {
        if (!imap->installed()) GTEST_SKIP() << imap->why();
        ASSERT_TRUE(imap->ready()) << imap->log();
    }

    HttpResult post(const std::string& method, const json& args, const std::string& who = "ann") {
        return api.post_json("/api/v1/mail/" + method, args, as(who));
    }
    json ok(const HttpResult& r) {
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    std::string url(const std::string& host = "127.0.0.1") {
        return "imap://" + host + ":" + std::to_string(imap->port()) + "/INBOX";
    }
};

std::unique_ptr<DovecotServer> ExternalMail::imap;
std::string ExternalMail::read_path;

TEST_F(ExternalMail, ConnectingChecksTheLoginAndKeepsItSealed) {
    EXPECT_EQ(ok(api.get("/api/v1/mail/info", as("carl")))["external"],
              json({{"connected", false}}));
    const HttpResult none = post("externalsearch", json::object(), "carl");
    EXPECT_EQ(none.status, 503) << none.body;
    EXPECT_NE(none.body.find("mail/connect"), std::string::npos) << none.body;

    const HttpResult wrong =
        post("connect", {{"url", url()}, {"user", "ann"}, {"password", "nope"}}, "carl");
    EXPECT_EQ(wrong.status, 400) << wrong.body;
    EXPECT_NE(wrong.body.find("refused the login"), std::string::npos) << wrong.body;
    // Not trusted by name: the SSRF guard resolves localhost and refuses loopback.
    const HttpResult guarded = post(
        "connect", {{"url", url("localhost")}, {"user", "ann"}, {"password", kPassword}}, "carl");
    EXPECT_EQ(guarded.status, 403) << guarded.body;
    EXPECT_NE(guarded.body.find("loopback"), std::string::npos) << guarded.body;
    EXPECT_EQ(post("connect", {{"url", "https://x.org"}, {"user", "a"}, {"password", "b"}}, "carl")
                  .status,
              400);
    EXPECT_EQ(
        post("connect", {{"url", "imap://u:p@x.org"}, {"user", "a"}, {"password", "b"}}, "carl")
            .status,
        400);

    const json connected =
        ok(post("connect", {{"url", url()}, {"user", "ann"}, {"password", kPassword}}, "carl"));
    EXPECT_EQ(connected["connected"], true);
    EXPECT_EQ(connected["host"], "127.0.0.1");
    EXPECT_EQ(connected["mailbox"], "INBOX");
    EXPECT_EQ(connected["user"], "ann");
    const json info = ok(api.get("/api/v1/mail/info", as("carl")));
    EXPECT_EQ(info["external"]["url"], url());
    EXPECT_EQ(info.dump().find(kPassword), std::string::npos);
    // The CLI reaches the same setting: its dynamic commands are the service's methods.
    TempDir home;
    const auto cli =
        run_cli(*host, home.path(), "dora",
                {"mail", "connect", "--url", url(), "--user", "ann", "--password", kPassword});
    EXPECT_EQ(cli.code, 0) << cli.err;
    const auto found =
        run_cli(*host, home.path(), "dora",
                {"--output", "json", "mail", "externalsearch", "--query", "invoice"});
    EXPECT_EQ(found.code, 0) << found.err;
    EXPECT_NE(found.out.find("Café invoice"), std::string::npos) << found.out;
    EXPECT_EQ(found.out.find(kPassword), std::string::npos);
    EXPECT_EQ(ok(post("disconnect", json::object(), "carl"))["disconnected"], true);
    EXPECT_EQ(ok(post("disconnect", json::object(), "carl"))["disconnected"], false);
    EXPECT_EQ(post("externalsearch", json::object(), "carl").status, 503);
}

TEST_F(ExternalMail, SearchesTheLastSevenDaysByHeadersAndReadsOneMessage) {
    ok(post("connect", {{"url", url()}, {"user", "ann"}, {"password", kPassword}}));
    const json first = ok(post("externalsearch", json::object()));
    ASSERT_EQ(first["messages"].size(), 20u) << first;
    ASSERT_TRUE(first.contains("next_page"));
    EXPECT_EQ(first["messages"][0]["subject"], "Café invoice");  // newest first, words decoded
    EXPECT_EQ(first["messages"][0]["from"], "Bob <bob@example.org>");
    EXPECT_EQ(first["messages"][0]["to"], "ann@example.org");
    EXPECT_EQ(first["messages"][0]["date"], "Sat, 28 Nov 2026 10:00:00 +0000");
    for (const auto& m : first["messages"]) {
        std::set<std::string> keys;
        for (const auto& [k, v] : m.items()) keys.insert(k);
        EXPECT_EQ(keys,
                  (std::set<std::string>{"id", "from", "to", "subject", "date", "message_id"}));
    }
    const json second = ok(post("externalsearch", {{"page", first["next_page"]}}));
    EXPECT_EQ(second["messages"].size(), 3u) << second;  // 23 in the window; "old news" is not
    EXPECT_FALSE(second.contains("next_page"));
    std::set<std::string> ids, subjects;
    for (const json* page : {&first, &second})
        for (const auto& m : (*page)["messages"])
            ids.insert(m["id"]), subjects.insert(m["subject"]);
    EXPECT_EQ(ids.size(), 23u);
    EXPECT_EQ(subjects.count("old news"), 0u);

    const json found = ok(post("externalsearch", {{"query", "invoice"}, {"limit", 5}}));
    ASSERT_EQ(found["messages"].size(), 1u) << found;
    EXPECT_EQ(ok(post("externalsearch", {{"query", "café"}}))["messages"].size(), 1u);  // UTF-8
    EXPECT_EQ(ok(post("externalsearch", {{"query", "\"quoted\" \\ nothing"}}))["messages"].size(),
              0u);
    EXPECT_EQ(ok(post("externalsearch", {{"limit", 5}}))["messages"].size(), 5u);
    EXPECT_EQ(post("externalsearch", {{"limit", 21}}).status, 400);
    EXPECT_EQ(post("externalsearch", {{"page", "not-a-cursor"}}).status, 400);

    const std::string id = found["messages"][0]["id"];
    const json read = ok(api.get("/api/v1/mail/externalread?id=" + id, as("ann")));
    EXPECT_EQ(read["subject"], "Café invoice");
    EXPECT_EQ(read["body"], "Total: 12 €, café incl.\n");
    EXPECT_FALSE(read.contains("next_offset"));
    EXPECT_TRUE(std::filesystem::exists(read_path)) << "EXAMINE and BODY.PEEK leave it unseen";

    std::string long_id;
    for (const auto& m : first["messages"])
        if (m["subject"] == "long") long_id = m["id"];
    const json page1 = ok(api.get("/api/v1/mail/externalread?id=" + long_id, as("ann")));
    EXPECT_EQ(page1["length"], 4950);
    EXPECT_EQ(page1["next_offset"], 2000);
    const json page3 =
        ok(api.get("/api/v1/mail/externalread?id=" + long_id + "&offset=4000", as("ann")));
    EXPECT_EQ(page3["body"].get<std::string>().size(), 950u);
    EXPECT_FALSE(page3.contains("next_offset"));

    const std::string uidvalidity = id.substr(0, id.find('-'));
    EXPECT_EQ(api.get("/api/v1/mail/externalread?id=" + uidvalidity + "-9999", as("ann")).status,
              404);
    EXPECT_EQ(api.get("/api/v1/mail/externalread?id=1-1", as("ann")).status, 409);
    EXPECT_EQ(api.get("/api/v1/mail/externalread?id=x", as("ann")).status, 400);
}

}  // namespace
