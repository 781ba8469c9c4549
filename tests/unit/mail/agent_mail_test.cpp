// Mail to the agent (plugins/mail/agent_mail.hpp) through the fake host, whose `on_call` plays
// agent/run (recorded, answering "answer <n>" in thread "th-<n>") and billing: a local letter to
// `agent` runs as its sender on channel mail and the answer lands in the sender's mailbox as
// "Re: ..." with the conversation, and a reply to it continues that conversation; a letter from
// outside runs only for an address an account linked (and a passing DKIM result), its answer
// relayed back; everything else is refused with nothing run or charged.
#include "agent_mail.hpp"

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../support/plugin_under_test.hpp"
#include "mail.hpp"

namespace {

using namespace plugin_test;

class AgentMailTest : public ::testing::Test {
protected:
    AgentMailTest() {
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& req, const std::string& account) {
            std::lock_guard<std::mutex> g(m);
            if (service == "agent" && method == "run") {
                runs.push_back({{"request", req}, {"as", account}});
                const std::string n = std::to_string(runs.size());
                return reply(PLATFORM_OK, json{{"text", "answer " + n},
                                               {"thread", req.value("thread", "th-" + n)}}
                                              .dump());
            }
            if (service == "billing" && method == "prices")
                return reply(PLATFORM_OK, json{{"prices", json::object()}}.dump());
            if (service == "billing") {
                billing_calls.push_back({{"method", method}, {"request", req}});
                return reply(PLATFORM_OK, json{{"enough", true}, {"available", 9}}.dump());
            }
            return reply(PLATFORM_NOT_FOUND, "");
        };
        host.on_fetch = [this](const platform_http_request_t& req) {
            std::lock_guard<std::mutex> g(m);
            relayed.push_back({{"headers", json::parse(platform::copy(req.headers_json))},
                               {"body", platform::copy(req.body)}});
            FakeHost::FakeHttp out;
            out.code = PLATFORM_OK;
            out.status = 200;
            out.body = "250 Ok";
            return out;
        };
    }

    template <class F>
    bool wait_for(F done) {  // polls `done` until it holds or 10 s pass
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        for (;;) {
            {
                std::lock_guard<std::mutex> g(m);
                if (done()) return true;
            }
            if (std::chrono::steady_clock::now() > until) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    json inbox(const std::string& who) {
        return ok_json(mail.call("inbox", json::object(), who), "inbox").at("messages");
    }
    // `who`'s inbox once it holds `n` letters (10 s at most).
    json inbox_of(const std::string& who, size_t n) {
        json box;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while ((box = inbox(who)).size() < n && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return box;
    }
    size_t grants() {
        std::lock_guard<std::mutex> g(host.grants_mutex);
        return host.grants.size();
    }

    std::mutex m;
    std::vector<json> runs, billing_calls, relayed;
    FakeHost host;
    FakePlugin mail = host.load(platform_plugin_entry);
};

TEST_F(AgentMailTest, AgentNamedMatchesTheAgentsHandlesAndAddressesOnly) {
    EXPECT_EQ(mail::agent_named("agent", ""), "");
    EXPECT_EQ(mail::agent_named("Agent+Travel", ""), "travel");
    EXPECT_EQ(mail::agent_named("agent@example.org", "example.org"), "");
    EXPECT_EQ(mail::agent_named("agent+news@EXAMPLE.org", "example.org"), "news");
    EXPECT_EQ(mail::agent_named("agent@example.net", "example.org"), std::nullopt);
    EXPECT_EQ(mail::agent_named("agent@example.org", ""), std::nullopt);
    EXPECT_EQ(mail::agent_named("agents", ""), std::nullopt);
    EXPECT_EQ(mail::agent_named("agent+", ""), std::nullopt);
}

TEST_F(AgentMailTest, ALocalLetterRunsAsItsSenderAndTheAnswerComesBackInTheThread) {
    const json copy = ok_json(
        mail.call("send", {{"to", "agent"}, {"subject", "Plan"}, {"body", "my week"}}, "ann"));
    EXPECT_EQ(copy.at("via"), "agent");
    ASSERT_TRUE(wait_for([&] { return runs.size() == 1; }));
    {
        std::lock_guard<std::mutex> g(m);
        EXPECT_EQ(runs[0].at("as"), "ann");
        EXPECT_EQ(runs[0].at("request"),
                  (json{{"prompt", "Plan\n\nmy week"}, {"channel", "mail"}, {"title", "Plan"}}));
    }
    json box = inbox_of("ann", 1);
    ASSERT_EQ(box.size(), 1u) << box;
    EXPECT_EQ(box[0].at("from"), "agent");
    EXPECT_EQ(box[0].at("subject"), "Re: Plan");
    const json letter = ok_json(mail.call("read", {{"id", box[0].at("id")}}, "ann"));
    EXPECT_EQ(letter.at("body"), "answer 1");
    EXPECT_EQ(letter.at("thread"), "th-1");

    // A reply to the answer, to a named agent: the same conversation, "Re:" not doubled.
    ok_json(mail.call("send",
                      {{"to", "agent+travel"},
                       {"subject", "Re: Plan"},
                       {"body", "and Friday?"},
                       {"in_reply_to", box[0].at("id")}},
                      "ann"));
    ASSERT_TRUE(wait_for([&] { return runs.size() == 2; }));
    {
        std::lock_guard<std::mutex> g(m);
        EXPECT_EQ(runs[1].at("request").at("thread"), "th-1");
        EXPECT_EQ(runs[1].at("request").at("agent"), "travel");
    }
    box = inbox_of("ann", 2);
    ASSERT_EQ(box.size(), 2u) << box;
    EXPECT_EQ(box[0].at("from"), "agent+travel");
    EXPECT_EQ(box[0].at("subject"), "Re: Plan");
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (grants() > 0 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(grants(), 0u) << "per-letter grants go back";
    {
        std::lock_guard<std::mutex> g(m);
        EXPECT_TRUE(billing_calls.empty()) << "local answers are free (agent/run is metered)";
    }
    EXPECT_EQ(
        mail.call("send",
                  {{"to", "agent"}, {"subject", "x"}, {"body", "y"}, {"in_reply_to", "m0000"}},
                  "ann")
            .code,
        PLATFORM_NOT_FOUND);
}

TEST_F(AgentMailTest, OutsideMailRunsOnlyForALinkedAddressWithPassingDkim) {
    host.platform_facts["mail_domain"] = "example.org";
    host.platform_facts["smtp_relay"] = "smtp://127.0.0.1:2525";
    platform::Host h(host.api(), host.ctx());
    mail::Mailbox box(h);
    mail::Outside outside(h);
    mail::Links links(h);
    mail::AgentMail agents(h, box, outside, links);
    agents.start();

    mail::Incoming in;
    in.from = in.mail_from = "Ann@Example.net";
    in.to = "agent@example.org";
    in.subject = "Weather";
    in.body = "tomorrow?";
    in.via = "smtp";
    in.dkim = "pass";
    in.dkim_domain = "example.net";
    in.message_id = "q1@example.net";
    try {  // nobody linked the address
        agents.from_outside("", in);
        ADD_FAILURE() << "an unlinked address ran the agent";
    } catch (const platform::Error& e) {
        EXPECT_EQ(e.code(), platform::Code::permission_denied);
        EXPECT_NE(std::string(e.what()).find("mail/link"), std::string::npos) << e.what();
    }
    EXPECT_EQ(ok_json(mail.call("link", {{"address", "ann@example.net"}}, "ann")).at("address"),
              "ann@example.net");
    EXPECT_EQ(mail.call("link", {{"address", "ANN@example.net"}}, "bob").code, PLATFORM_CONFLICT);
    EXPECT_EQ(mail.call("link", {{"address", "bob@example.org"}}, "bob").code,
              PLATFORM_INVALID_ARGUMENT);  // the instance's own domain
    EXPECT_EQ(ok_json(mail.call("info", json::object(), "ann")).at("linked"), "ann@example.net");
    in.dkim = "fail";
    EXPECT_THROW(agents.from_outside("", in), platform::Error);
    in.dkim = "none";  // unsigned: anyone can write any From
    EXPECT_THROW(agents.from_outside("", in), platform::Error);
    in.dkim = "pass";
    in.dkim_domain = "attacker.example";  // a valid signature, but not the sender's domain
    EXPECT_THROW(agents.from_outside("", in), platform::Error);
    in.dkim_domain = "example.net";
    {
        std::lock_guard<std::mutex> g(m);
        EXPECT_TRUE(runs.empty());
        EXPECT_TRUE(billing_calls.empty());
    }

    agents.from_outside("", in);
    ASSERT_TRUE(wait_for([&] { return relayed.size() == 1; }));
    std::lock_guard<std::mutex> g(m);
    EXPECT_EQ(runs.at(0).at("as"), "ann");
    EXPECT_EQ(runs.at(0).at("request").at("channel"), "mail");
    const json& sent = relayed[0];
    EXPECT_EQ(sent.at("headers"),
              (json{{"Mail-From", "agent@example.org"}, {"Rcpt-To", "ann@example.net"}}));
    const std::string msg = sent.at("body");
    EXPECT_NE(msg.find("Subject: Re: Weather\r\n"), std::string::npos) << msg;
    EXPECT_NE(msg.find("In-Reply-To: <q1@example.net>\r\n"), std::string::npos) << msg;
    EXPECT_NE(msg.find("answer 1"), std::string::npos) << msg;
    ASSERT_EQ(billing_calls.size(), 2u);  // the relayed answer: checked, then charged to ann
    EXPECT_EQ(billing_calls[1].at("method"), "charge");
    EXPECT_EQ(billing_calls[1].at("request").at("account"), "ann");
    EXPECT_EQ(grants(), 1u) << "the link keeps its grant";
}

TEST(MailDkimAlignment, ASignatureVouchesForItsDomainAndSubdomainsOnly) {
    EXPECT_TRUE(mail::dkim_aligned("pass", "example.net", "ann@example.net"));
    EXPECT_TRUE(mail::dkim_aligned("pass", "Example.NET", "ann@news.example.net"));
    EXPECT_FALSE(mail::dkim_aligned("pass", "news.example.net", "ann@example.net"));
    EXPECT_FALSE(mail::dkim_aligned("pass", "ample.net", "ann@example.net"));
    EXPECT_FALSE(mail::dkim_aligned("fail", "example.net", "ann@example.net"));
    EXPECT_FALSE(mail::dkim_aligned("none", "", "ann@example.net"));
    EXPECT_FALSE(mail::dkim_aligned("pass", "example.net", "no-domain"));
}

}  // namespace

namespace {

// Mail::take, the delivery of a letter from outside: to an account (its tag kept), to the agent
// (refused here: nobody linked the sender), and to another domain (refused: never a relay).
TEST_F(AgentMailTest, TakeFilesLettersForAccountsAndHandsTheAgentsOn) {
    host.platform_facts["mail_domain"] = "example.org";
    platform::Host h(host.api(), host.ctx());
    Mail service(h);
    service.start();
    mail::Incoming in;
    in.from = in.mail_from = "zed@example.net";
    in.subject = "News";
    in.body = "hello";
    in.via = "smtp";
    in.dkim = "pass";
    const json entry = service.take("bob+News@example.org", in);
    EXPECT_EQ(entry.at("tag"), "news");
    EXPECT_EQ(entry.at("from"), "zed@example.net");
    const json box = inbox("bob");
    ASSERT_EQ(box.size(), 1u);
    EXPECT_EQ(ok_json(mail.call("read", {{"id", box[0].at("id")}}, "bob")).at("body"), "hello");
    for (const char* to : {"agent@example.org", "agent+travel@example.org", "bob@example.net"}) {
        try {
            service.take(to, in);
            ADD_FAILURE() << to << " was taken";
        } catch (const platform::Error& e) {
            EXPECT_EQ(e.code(), platform::Code::permission_denied) << to << ": " << e.what();
        }
    }
    service.stop();
    std::lock_guard<std::mutex> g(m);
    EXPECT_TRUE(runs.empty());
}

}  // namespace
