// The mail plugin's external-mailbox methods (plugins/mail/external.hpp) through the fake host,
// with the host's IMAP sessions scripted in on_fetch: what the plugin sends (the URL without a
// login, Basic authorization, EXAMINE and read-only commands, SINCE on the business clock, the
// page's UIDs), the sealed record, trusted mailboxes as operator URLs, and every refusal.
#include <deque>
#include <platform/sdk/text.hpp>
#include <string>
#include <utility>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;
using Http = FakeHost::FakeHttp;

const std::string kExamined = "* OK [UIDVALIDITY 77] UIDs valid\r\nA003 OK [READ-ONLY] done\r\n";

std::string text(platform_str_t s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}

// A transcript with the headers of these UIDs.
std::string headers_of(uint32_t from, uint32_t to) {
    std::string t = kExamined;
    for (uint32_t uid = from; uid <= to; ++uid) {
        const std::string h =
            "Subject: note " + std::to_string(uid) + "\r\nFrom: bob@x.org\r\n\r\n";
        t += "* " + std::to_string(uid) + " FETCH (UID " + std::to_string(uid) +
             " BODY[HEADER.FIELDS (FROM TO SUBJECT DATE MESSAGE-ID)] {" + std::to_string(h.size()) +
             "}\r\n" + h + ")\r\n";
    }
    return t + "A004 OK Fetch completed.\r\n";
}

class ExternalMethods : public ::testing::Test {
protected:
    ExternalMethods() {
        host.now_ms = 1795953600000;  // 2026-11-29T12:00:00Z: seven days before is 22-Nov-2026
        host.on_fetch = [this](const platform_http_request_t& req) {
            sent.push_back({text(req.url), text(req.headers_json), text(req.body), req.flags});
            Http r;
            r.code = PLATFORM_OK;
            if (script.empty()) return r.status = 502, r.error = "unscripted", r;
            std::tie(r.status, r.body) = script.front();
            script.pop_front();
            if (r.status != 200)
                r.error = "the IMAP server refused it: A003 NO [AUTHENTICATIONFAILED]";
            return r;
        };
    }
    Reply connect(const std::string& who = "ann") {
        script.push_back({200, kExamined});
        return mail.call(
            "connect",
            {{"url", "imap://imap.example.org"}, {"user", "ann@x.org"}, {"password", "pw-secret"}},
            who);
    }

    struct Sent {
        std::string url, headers, body;
        uint32_t flags;
    };
    std::vector<Sent> sent;
    std::deque<std::pair<int, std::string>> script;
    FakeHost host;
    FakePlugin mail = host.load(platform_plugin_entry);
};

TEST_F(ExternalMethods, ConnectSealsTheLoginAndSearchSendsReadOnlyCommands) {
    EXPECT_EQ(ok_json(mail.call("info", json::object(), "ann"))["external"],
              json({{"connected", false}}));
    const Reply none = mail.call("externalsearch", json::object(), "ann");
    EXPECT_EQ(none.code, PLATFORM_UNAVAILABLE);
    EXPECT_NE(none.body.find("mail/connect"), std::string::npos) << none.body;

    const json info = ok_json(connect());
    EXPECT_EQ(info["url"], "imap://imap.example.org:143/INBOX");
    EXPECT_EQ(info["user"], "ann@x.org");
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].url, "imap://imap.example.org:143/");
    EXPECT_EQ(json::parse(sent[0].headers)["Authorization"],
              "Basic " + platform::base64_encode("ann@x.org:pw-secret"));
    EXPECT_EQ(sent[0].body, "EXAMINE \"INBOX\"");
    EXPECT_EQ(sent[0].flags & PLATFORM_HTTP_OPERATOR_URL, 0u);
    for (const auto& [key, entry] : host.store) {
        EXPECT_EQ(entry.value.find("pw-secret"), std::string::npos) << key;
        EXPECT_EQ(entry.value.find("ann@x.org"), std::string::npos) << key;
    }

    std::string all = "* SEARCH";
    for (int uid = 1; uid <= 25; ++uid) all += " " + std::to_string(uid);
    script.push_back({200, kExamined + all + "\r\nA004 OK\r\n"});
    script.push_back({200, headers_of(6, 25)});
    const json first = ok_json(mail.call("externalsearch", {{"query", "a \"b\""}}, "ann"));
    ASSERT_EQ(sent.size(), 3u);
    EXPECT_EQ(sent[1].body, "EXAMINE \"INBOX\"\nUID SEARCH SINCE 22-Nov-2026 TEXT \"a \\\"b\\\"\"");
    EXPECT_EQ(sent[2].body.substr(sent[2].body.find('\n') + 1),
              "UID FETCH 25,24,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6 (UID "
              "BODY.PEEK[HEADER.FIELDS (FROM TO SUBJECT DATE MESSAGE-ID)])");
    ASSERT_EQ(first["messages"].size(), 20u);
    EXPECT_EQ(first["messages"][0]["id"], "77-25");
    EXPECT_EQ(first["messages"][0]["subject"], "note 25");
    EXPECT_EQ(first["since"], "22-Nov-2026");

    script.push_back({200, kExamined + "* SEARCH 1 2 3 4 5\r\nA004 OK\r\n"});
    script.push_back({200, headers_of(1, 5)});
    const json second = ok_json(
        mail.call("externalsearch", {{"page", first["next_page"]}, {"query", "a \"b\""}}, "ann"));
    EXPECT_EQ(sent[3].body,
              "EXAMINE \"INBOX\"\nUID SEARCH SINCE 22-Nov-2026 UID 1:5 TEXT \"a \\\"b\\\"\"");
    EXPECT_EQ(second["messages"].size(), 5u);
    EXPECT_FALSE(second.contains("next_page"));

    // A cursor from before the server renumbered the mailbox is stale.
    script.push_back({200, "* OK [UIDVALIDITY 78] new\r\n* SEARCH 1\r\n"});
    EXPECT_EQ(mail.call("externalsearch", {{"page", first["next_page"]}}, "ann").code,
              PLATFORM_CONFLICT);
    EXPECT_EQ(mail.call("externalsearch", {{"page", "c!"}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(mail.call("externalsearch", {{"limit", 21}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(ExternalMethods, ReadsOneMessageAndRefusesWhatItCannot) {
    host.config = {{"trusted_mailboxes", {"imap.example.org:143"}}};
    ok_json(connect());
    EXPECT_NE(sent[0].flags & PLATFORM_HTTP_OPERATOR_URL, 0u);  // trusted: an operator URL

    const std::string msg = "Subject: =?UTF-8?Q?Caf=C3=A9?=\r\n\r\nHello\r\n";
    script.push_back({200, kExamined + "* 3 FETCH (UID 9 BODY[] {" + std::to_string(msg.size()) +
                               "}\r\n" + msg + ")\r\nA004 OK\r\n"});
    const json read = ok_json(mail.call("externalread", {{"id", "77-9"}}, "ann"));
    EXPECT_EQ(sent.back().body, "EXAMINE \"INBOX\"\nUID FETCH 9 (UID BODY.PEEK[])");
    EXPECT_EQ(read["subject"], "Café");
    EXPECT_EQ(read["body"], "Hello\n");
    EXPECT_EQ(read["length"], 6);

    script.push_back({200, kExamined + "A004 OK\r\n"});
    EXPECT_EQ(mail.call("externalread", {{"id", "77-10"}}, "ann").code, PLATFORM_NOT_FOUND);
    script.push_back({200, kExamined});
    EXPECT_EQ(mail.call("externalread", {{"id", "76-9"}}, "ann").code, PLATFORM_CONFLICT);
    EXPECT_EQ(mail.call("externalread", {{"id", "nine"}}, "ann").code, PLATFORM_INVALID_ARGUMENT);
    script.push_back({401, ""});
    const Reply later = mail.call("externalread", {{"id", "77-9"}}, "ann");
    EXPECT_EQ(later.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(later.body.find("connect again"), std::string::npos) << later.body;
    script.push_back({502, ""});
    const Reply broken = mail.call("externalsearch", json::object(), "ann");
    EXPECT_EQ(broken.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(broken.body.find("AUTHENTICATIONFAILED"), std::string::npos) << broken.body;

    script.push_back({401, ""});
    const Reply refused = mail.call(
        "connect", {{"url", "imaps://imap.example.org"}, {"user", "u"}, {"password", "p"}}, "bob");
    EXPECT_EQ(refused.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(refused.body.find("refused the login"), std::string::npos) << refused.body;
    for (const std::string url : {"https://x.org", "imap://u:p@x.org", "imap://x.org:0",
                                  "imap://x.org:99999", "imap://x y.org", "imap://[::1"})
        EXPECT_EQ(
            mail.call("connect", {{"url", url}, {"user", "u"}, {"password", "p"}}, "bob").code,
            PLATFORM_INVALID_ARGUMENT)
            << url;
    EXPECT_EQ(ok_json(mail.call("info", json::object(), "bob"))["external"]["connected"], false);
    EXPECT_EQ(ok_json(mail.call("disconnect", json::object(), "ann"))["disconnected"], true);
    EXPECT_EQ(mail.call("externalread", {{"id", "77-9"}}, "ann").code, PLATFORM_UNAVAILABLE);
}

}  // namespace
