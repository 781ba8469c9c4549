// The mail plugin (plugins/mail/) through the fake host: local delivery between accounts, plus
// tags, the body read in character pages, the inbox summary, markread, search, the sender's own
// letters (source, sources), unknown usernames, and the refusals of mail to outside addresses.
#include <mutex>
#include <optional>
#include <platform/sdk/text.hpp>
#include <string>
#include <vector>

#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

class MailTest : public ::testing::Test {
protected:
    MailTest() {
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& req, const std::string& account) {
            std::lock_guard<std::mutex> g(m);
            if (service == "auth" && method == "listAccounts" && accounts) {
                json list = json::array();
                for (const auto& id : *accounts) list.push_back({{"id", id}});
                return reply(PLATFORM_OK, json{{"accounts", list}}.dump());
            }
            if (service == "billing" && billing && method == "prices")
                return reply(PLATFORM_OK, json{{"prices", prices}}.dump());
            if (service == "billing" && billing) {
                billing_calls.push_back({{"method", method}, {"request", req}, {"as", account}});
                const int64_t amount = req.value("amount", int64_t{0});
                return reply(PLATFORM_OK,
                             json{{"enough", credits >= amount}, {"available", credits}}.dump());
            }
            return reply(PLATFORM_NOT_FOUND, "");
        };
    }

    Reply send(const std::string& who, const std::string& to, const std::string& subject,
               const std::string& body = "hello") {
        return mail.call("send", {{"to", to}, {"subject", subject}, {"body", body}}, who);
    }
    json inbox(const std::string& who, const json& args = json::object()) {
        return ok_json(mail.call("inbox", args, who), "inbox");
    }
    std::vector<std::string> subjects(const json& answer) {
        std::vector<std::string> out;
        for (const auto& m : answer.at("messages")) out.push_back(m.at("subject"));
        return out;
    }

    std::mutex m;
    std::optional<std::vector<std::string>> accounts;  // none: no auth service (auth-noop)
    bool billing = false;
    int64_t credits = 0;
    json prices = json::object();  // billing/prices: what the operator set
    std::vector<json> billing_calls;
    FakeHost host;
    FakePlugin mail = host.load(platform_plugin_entry);
};

TEST_F(MailTest, LocalMailReachesTheRecipientAndTheSendersCopyIsTheSendersOnly) {
    const json copy = ok_json(send("ann", "bob", "Lunch", "At noon?"));
    EXPECT_EQ(copy.at("to"), "bob");
    EXPECT_EQ(copy.at("via"), "local");
    EXPECT_EQ(copy.at("date"), "2026-01-01T00:00:00Z");
    const json box = inbox("bob");
    ASSERT_EQ(box.at("messages").size(), 1u) << box;
    const json entry = box.at("messages")[0];
    EXPECT_EQ(entry, (json{{"id", entry.at("id")},
                           {"from", "ann"},
                           {"to", "bob"},
                           {"subject", "Lunch"},
                           {"date", "2026-01-01T00:00:00Z"},
                           {"read", false},
                           {"tag", nullptr}}));
    EXPECT_EQ(box.at("total"), 1);
    EXPECT_EQ(inbox("ann").at("messages"), json::array());  // the sender's inbox stays empty

    const json read = ok_json(mail.call("read", {{"id", entry.at("id")}}, "bob"));
    EXPECT_EQ(read.at("body"), "At noon?");
    EXPECT_EQ(read.at("from"), "ann");
    EXPECT_EQ(read.at("attachments"), json::array());
    EXPECT_FALSE(read.contains("next_offset"));
    EXPECT_EQ(mail.call("read", {{"id", entry.at("id")}}, "ann").code, PLATFORM_NOT_FOUND);

    const json sources = ok_json(mail.call("sources", json::object(), "ann"));
    EXPECT_EQ(sources.at("sources"), json::array({copy.at("id")}));
    EXPECT_EQ(sources.at("total"), 1);
    EXPECT_EQ(ok_json(mail.call("source", {{"id", copy.at("id")}}, "ann")), copy);
    EXPECT_EQ(mail.call("source", {{"id", copy.at("id")}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(ok_json(mail.call("sources", json::object(), "bob")).at("total"), 0);
    EXPECT_EQ(mail.call("inbox", json::object(), "").code, PLATFORM_UNAUTHENTICATED);
    EXPECT_EQ(send("", "bob", "x").code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(MailTest, SourcesPageNewestFirst) {
    std::vector<std::string> ids;
    for (int i = 0; i < 5; ++i)
        ids.push_back(ok_json(send("ann", "bob", "n" + std::to_string(i))).at("id"));
    const json page = ok_json(mail.call("sources", {{"offset", 1}, {"limit", 2}}, "ann"));
    EXPECT_EQ(page.at("sources"), json::array({ids[3], ids[2]}));
    EXPECT_EQ(page.at("total"), 5);
}

TEST_F(MailTest, PlusTagsFileLettersAndFilterTheInbox) {
    host.platform_facts["mail_domain"] = "example.org";
    ASSERT_EQ(send("ann", "bob+Work", "one").code, PLATFORM_OK);
    ASSERT_EQ(send("ann", "bob", "two").code, PLATFORM_OK);
    ASSERT_EQ(send("ann", "bob+home@EXAMPLE.org", "three").code, PLATFORM_OK);
    ASSERT_EQ(send("ann", "bob+work@example.org", "four").code, PLATFORM_OK);
    EXPECT_EQ(subjects(inbox("bob")), (std::vector<std::string>{"four", "three", "two", "one"}));
    const json work = inbox("bob", {{"tag", "WORK"}});
    EXPECT_EQ(subjects(work), (std::vector<std::string>{"four", "one"}));
    EXPECT_EQ(work.at("total"), 2);
    EXPECT_EQ(work.at("messages")[0].at("tag"), "work");
    EXPECT_EQ(work.at("messages")[0].at("to"), "bob+work@example.org");
    EXPECT_EQ(subjects(inbox("bob", {{"tag", "home"}})), (std::vector<std::string>{"three"}));
    EXPECT_EQ(inbox("bob", {{"tag", "none"}}).at("messages"), json::array());
    EXPECT_EQ(subjects(inbox("bob", {{"offset", 1}, {"limit", 2}})),
              (std::vector<std::string>{"three", "two"}));
    EXPECT_EQ(mail.call("inbox", {{"tag", "a b"}}, "bob").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(send("ann", "bob+a b", "x").code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(MailTest, AnAccountWholeNameWinsOverAPlusTag) {
    accounts = std::vector<std::string>{"ann", "bob", "bob+work"};
    ASSERT_EQ(send("ann", "bob+work", "to the account bob+work").code, PLATFORM_OK);
    EXPECT_EQ(inbox("bob").at("messages"), json::array());
    EXPECT_EQ(subjects(inbox("bob+work")), (std::vector<std::string>{"to the account bob+work"}));
    ASSERT_EQ(send("ann", "bob+home", "tagged").code, PLATFORM_OK);
    EXPECT_EQ(inbox("bob").at("messages")[0].at("tag"), "home");
}

TEST_F(MailTest, ReadPagesA5000CharacterBodyInThree) {
    std::string body;  // 5000 characters, 8750 bytes: pages are cut between characters
    for (int i = 0; i < 2500; ++i) body += i % 2 ? "b\xC3\xA9" : "a\xE2\x82\xAC";
    ASSERT_EQ(platform::utf8_length(body), 5000u);
    ASSERT_EQ(send("ann", "bob", "long", body).code, PLATFORM_OK);
    const std::string id = inbox("bob").at("messages")[0].at("id");
    std::string joined;
    std::vector<size_t> sizes;
    json page = ok_json(mail.call("read", {{"id", id}}, "bob"));
    EXPECT_EQ(page.at("offset"), 0);
    EXPECT_EQ(page.at("next_offset"), 2000);
    EXPECT_EQ(page.at("length"), 5000);
    sizes.push_back(platform::utf8_length(page.at("body").get<std::string>()));
    joined += page.at("body").get<std::string>();
    page = ok_json(mail.call("read", {{"id", id}, {"offset", 2000}}, "bob"));
    EXPECT_EQ(page.at("next_offset"), 4000);
    sizes.push_back(platform::utf8_length(page.at("body").get<std::string>()));
    joined += page.at("body").get<std::string>();
    page = ok_json(mail.call("read", {{"id", id}, {"offset", 4000}}, "bob"));
    EXPECT_FALSE(page.contains("next_offset")) << page;
    sizes.push_back(platform::utf8_length(page.at("body").get<std::string>()));
    joined += page.at("body").get<std::string>();
    EXPECT_EQ(sizes, (std::vector<size_t>{2000, 2000, 1000}));
    EXPECT_EQ(joined, body);

    page = ok_json(mail.call("read", {{"id", id}, {"offset", 4999}, {"limit", 5}}, "bob"));
    EXPECT_EQ(page.at("body"), "\xC3\xA9");
    EXPECT_FALSE(page.contains("next_offset"));
    page = ok_json(mail.call("read", {{"id", id}, {"offset", 10}, {"limit", 3}}, "bob"));
    EXPECT_EQ(page.at("next_offset"), 13);
    EXPECT_EQ(mail.call("read", {{"id", id}, {"limit", 2001}}, "bob").code,
              PLATFORM_INVALID_ARGUMENT);
    const Reply past = mail.call("read", {{"id", id}, {"offset", 5001}}, "bob");
    EXPECT_EQ(past.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(past.body.find("offset"), std::string::npos) << past.body;
    EXPECT_EQ(mail.call("read", {{"id", "m-nothing"}}, "bob").code, PLATFORM_NOT_FOUND);
}

TEST_F(MailTest, ReadWithoutIdIsTheInboxSummary) {
    for (int i = 0; i < 12; ++i)
        ASSERT_EQ(send("ann", "bob", "s" + std::to_string(i)).code, PLATFORM_OK);
    const std::string newest = inbox("bob").at("messages")[0].at("id");
    ASSERT_EQ(mail.call("markread", {{"ids", {newest}}}, "bob").code, PLATFORM_OK);
    const json summary = ok_json(mail.call("read", json::object(), "bob"));
    EXPECT_EQ(summary.at("total"), 12);
    EXPECT_EQ(summary.at("unread"), 11);
    ASSERT_EQ(summary.at("messages").size(), 10u);
    EXPECT_EQ(summary.at("messages")[0].at("subject"), "s11");
    EXPECT_EQ(summary.at("messages")[0].at("read"), true);
}

TEST_F(MailTest, MarkReadChangesOnlyTheCallersLettersReadStatus) {
    for (const char* s : {"a", "b", "c"}) ASSERT_EQ(send("ann", "bob", s).code, PLATFORM_OK);
    ASSERT_EQ(send("bob", "ann", "for ann").code, PLATFORM_OK);
    const json box = inbox("bob");
    const std::string c = box.at("messages")[0].at("id"), b = box.at("messages")[1].at("id");
    const std::string anns = inbox("ann").at("messages")[0].at("id");
    const json marked =
        ok_json(mail.call("markread", {{"ids", {c, "m-unknown", anns}}}, "bob"), "markread");
    EXPECT_EQ(marked.at("marked"), 1);
    EXPECT_EQ(marked.at("unknown"), json::array({"m-unknown", anns}));
    const json after = inbox("bob");
    EXPECT_EQ(after.at("messages")[0].at("read"), true);
    EXPECT_EQ(after.at("messages")[1].at("read"), false);
    EXPECT_EQ(after.at("messages")[0].at("subject"), "c");        // nothing else changed
    EXPECT_EQ(inbox("ann").at("messages")[0].at("read"), false);  // not bob's to mark
    EXPECT_EQ(ok_json(mail.call("markread", {{"all", true}}, "bob")).at("marked"), 2);
    for (const auto& e : inbox("bob").at("messages")) EXPECT_EQ(e.at("read"), true);
    EXPECT_EQ(inbox("ann").at("messages")[0].at("read"), false);
    EXPECT_EQ(mail.call("markread", json::object(), "bob").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(mail.call("markread", {{"ids", {b}}, {"all", "yes"}}, "bob").code,
              PLATFORM_INVALID_ARGUMENT);
}

TEST_F(MailTest, SearchFindsSubjectSenderAndBodyCaseInsensitivelyWithTagsAndPages) {
    ASSERT_EQ(send("ann", "bob", "Quarterly REPORT", "numbers").code, PLATFORM_OK);
    ASSERT_EQ(send("carol", "bob+work", "hello", "the report is late").code, PLATFORM_OK);
    ASSERT_EQ(send("reporter", "bob", "news", "nothing").code, PLATFORM_OK);
    ASSERT_EQ(send("ann", "bob", "other", "unrelated").code, PLATFORM_OK);
    auto search = [&](const json& args) {
        return ok_json(mail.call("search", args, "bob"), "search " + args.dump());
    };
    EXPECT_EQ(subjects(search({{"query", "report"}})),
              (std::vector<std::string>{"news", "hello", "Quarterly REPORT"}));
    EXPECT_EQ(subjects(search({{"query", "Report"}, {"tag", "work"}})),
              (std::vector<std::string>{"hello"}));
    EXPECT_EQ(search({{"query", "zzz"}}).at("messages"), json::array());
    EXPECT_EQ(search(json::object()).at("total"), 4);
    EXPECT_EQ(ok_json(mail.call("search", {{"query", "report"}}, "ann")).at("total"), 0);
    for (int i = 0; i < 12; ++i) ASSERT_EQ(send("ann", "bob", "bulk", "x").code, PLATFORM_OK);
    const json first = search({{"query", "bulk"}});
    EXPECT_EQ(first.at("messages").size(), 10u);  // the default limit
    EXPECT_EQ(first.at("total"), 12);
    EXPECT_EQ(search({{"query", "bulk"}, {"offset", 10}}).at("messages").size(), 2u);
    EXPECT_EQ(mail.call("search", {{"limit", 101}}, "bob").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(mail.call("search", {{"query", std::string(201, 'q')}}, "bob").code,
              PLATFORM_INVALID_ARGUMENT);
}

TEST_F(MailTest, UnknownUsernameIs404WhereTheAuthServiceListsAccounts) {
    accounts = std::vector<std::string>{"ann", "bob"};
    const Reply r = send("ann", "zed", "x");
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(r.body.find("to: no account zed"), std::string::npos) << r.body;
    EXPECT_EQ(send("ann", "zed+tag", "x").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(ok_json(mail.call("sources", json::object(), "ann")).at("total"), 0);
    EXPECT_EQ(send("ann", "bob", "x").code, PLATFORM_OK);
    accounts.reset();  // no list (auth-noop): any name is taken
    EXPECT_EQ(send("ann", "zed", "x").code, PLATFORM_OK);
    EXPECT_EQ(inbox("zed").at("total"), 1);
}

TEST_F(MailTest, OutsideAddressesNeedTheMailDomainThenTheRelay) {
    billing = true;
    Reply r = send("ann", "someone@example.net", "hi");
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_NE(r.body.find("PLATFORM_MAIL_DOMAIN"), std::string::npos) << r.body;
    host.platform_facts["mail_domain"] = "example.org";
    r = send("ann", "someone@example.net", "hi");
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_NE(r.body.find("PLATFORM_SMTP_RELAY"), std::string::npos) << r.body;
    host.platform_facts["smtp_relay"] = "smtps://mx.example.org:465";
    r = send("ann", "someone@example.net", "hi");  // no credit: 402 before anything leaves
    EXPECT_EQ(r.code, PLATFORM_PAYMENT_REQUIRED) << r.body;
    credits = 5;
    std::vector<std::pair<json, std::string>> relayed;  // the smtp requests: headers, body
    int relay_status = 502;
    host.on_fetch = [&](const platform_http_request_t& req) {
        FakeHost::FakeHttp out;
        EXPECT_EQ(platform::copy(req.provider), "smtp");
        relayed.emplace_back(json::parse(platform::copy(req.headers_json)),
                             platform::copy(req.body));
        out.code = PLATFORM_OK;
        out.status = relay_status;
        out.body = relay_status == 200 ? "250 2.0.0 Ok: queued" : "550 5.7.1 no thanks";
        return out;
    };
    r = send("ann", "someone@example.net", "hi");  // the relay refuses: 502, nothing charged
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.body.find("550 5.7.1 no thanks"), std::string::npos) << r.body;
    for (const json& c : billing_calls) {  // checked as the plugin itself, never charged
        EXPECT_EQ(c.at("method"), "check");
        EXPECT_EQ(c.at("request"), (json{{"account", "ann"}, {"amount", 1}}));
        EXPECT_EQ(c.at("as"), host.service_account);
    }
    EXPECT_EQ(billing_calls.size(), 2u);
    EXPECT_EQ(ok_json(mail.call("sources", json::object(), "ann")).at("total"), 0);
    relay_status = 200;  // the relay takes it: charged once, after
    const json copy = ok_json(send("ann", "someone@example.net", "hi", "body"));
    EXPECT_EQ(copy.at("via"), "smtp");
    ASSERT_EQ(relayed.size(), 2u);
    EXPECT_EQ(relayed[1].first,
              (json{{"Mail-From", "ann@example.org"}, {"Rcpt-To", "someone@example.net"}}));
    EXPECT_NE(relayed[1].second.find("Message-ID: <" + copy.at("message_id").get<std::string>()),
              std::string::npos);
    ASSERT_EQ(billing_calls.size(), 4u);
    EXPECT_EQ(billing_calls[3].at("method"), "charge");
    EXPECT_EQ(ok_json(mail.call("sources", json::object(), "ann")).at("total"), 1);
    prices = {{"mail_outside", 4}};  // the operator's price (billing's config prices)
    ok_json(send("ann", "someone@example.net", "dear", "body"));
    ASSERT_EQ(billing_calls.size(), 6u);
    EXPECT_EQ(billing_calls[5].at("request"), (json{{"account", "ann"}, {"amount", 4}}));
    EXPECT_EQ(send("ann", "not-an-address@", "x").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(send("ann", "a@nodot", "x").code, PLATFORM_INVALID_ARGUMENT);
}

TEST_F(MailTest, InfoGivesTheHandleAddressAndTaggedAddress) {
    json info = ok_json(mail.call("info", json::object(), "ann"));
    EXPECT_EQ(info.at("handle"), "ann");
    EXPECT_EQ(info.at("address"), nullptr);
    EXPECT_EQ(info.at("outside_mail"), false);
    EXPECT_FALSE(info.contains("tagged"));
    host.platform_facts["mail_domain"] = "example.org";
    info = ok_json(mail.call("info", {{"tag", "News"}}, "ann"));
    EXPECT_EQ(info.at("address"), "ann@example.org");
    EXPECT_EQ(info.at("outside_mail"), false);  // no SMTP listener
    EXPECT_EQ(
        info.at("tagged"),
        (json{{"tag", "news"}, {"username", "ann+news"}, {"address", "ann+news@example.org"}}));
    host.platform_facts["smtp_listening"] = true;
    EXPECT_EQ(ok_json(mail.call("info", json::object(), "ann")).at("outside_mail"), true);
    EXPECT_EQ(mail.call("info", json::object(), "").code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(MailTest, BadInputIsRefusedAndDeliversNothing) {
    const std::vector<json> bad = {
        {{"to", "bob"}, {"subject", "two\nlines"}, {"body", "x"}},
        {{"to", "bob"}, {"subject", std::string(201, 's')}, {"body", "x"}},
        {{"to", "bob"}, {"subject", ""}, {"body", "x"}},
        {{"to", "bob"}, {"subject", "s"}, {"body", std::string(100001, 'b')}},
        {{"to", ""}, {"subject", "s"}, {"body", "x"}},
        {{"to", "bob"}, {"subject", "s"}},
        {{"subject", "s"}, {"body", "x"}},
        {{"to", "+tag"}, {"subject", "s"}, {"body", "x"}},
        {{"to", "bob"}, {"subject", "s"}, {"body", "x"}, {"cc", "carol"}},
    };
    for (const json& args : bad)
        EXPECT_EQ(mail.call("send", args, "ann").code, PLATFORM_INVALID_ARGUMENT) << args;
    std::string accents;  // 100000 characters in 200000 bytes: at the limit
    for (int i = 0; i < 100000; ++i) accents += "\xC3\xA9";
    EXPECT_EQ(send("ann", "bob", std::string(200, 's'), accents).code, PLATFORM_OK);
    EXPECT_EQ(inbox("bob").at("total"), 1);
}

}  // namespace
