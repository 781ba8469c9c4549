// Outside mail through the host's SMTP relay and mail to the agent, on the real host: the `test`
// profile with PLATFORM_MAIL_DOMAIN=example.org and PLATFORM_SMTP_RELAY pointing, with a user and
// password, at a loopback sink on Debian's python3-aiosmtpd (smtp_sink.py, started here; its
// "listening PORT" line is waited for). The sink records the envelope, the login, the headers and
// the decoded body of what it accepts and refuses recipients at refuse.example with 550.
//   - a letter to an outside address leaves through the relay (the sink checks it) and costs one
//     credit, charged once; a refused one answers 502 with the sink's reply and costs nothing;
//     another plugin (the test plugin `fetch`) asking for the provider `smtp` is refused (403);
//   - a letter to `agent` runs the agent (model-builtin) as the sender on channel mail: the answer
//     arrives in the sender's mail inbox as "Re: ..." with the conversation's id, the inbox service
//     shows that conversation (channel mail), and a reply to the answer continues it.

#include <fstream>
#include <string>
#include <vector>

#include "command.hpp"
#include "eventually.hpp"
#include "http_client.hpp"
#include "shared_host_test.hpp"
#include "smtp_sink.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

class SmtpRelay : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        sink = new SmtpSink(suite_dir());
        ASSERT_NE(sink->port, 0) << sink->why;
        HostProcess::Options o;
        o.env = {{"PLATFORM_MAIL_DOMAIN", "example.org"},
                 {"PLATFORM_SMTP_RELAY", sink->relay_url()}};
        start_host(o);
    }
    static void TearDownTestSuite() {
        stop_host();
        delete sink;
        sink = nullptr;
    }

    json ok(const HttpResult& r) {
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    HttpResult send(const std::string& who, const json& args) {
        return api.post_json("/api/v1/mail/send", args, as(who));
    }
    int64_t allowance(const std::string& who) {
        const auto r = api.post_json(
            "/rpc",
            {{"service", "billing"}, {"method", "Billing.Balance"}, {"request", json::object()}},
            as(who));
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json().value("allowance", int64_t{-1}) : -1;
    }
    // `who`'s mail inbox once it holds `n` letters (30 s at most: the agent answers meanwhile).
    json inbox_of(const std::string& who, size_t n) {
        json messages = json::array();
        eventually([&] {
            const auto r = api.get("/api/v1/mail/inbox", as(who));
            if (r.status == 200) messages = r.json()["data"]["messages"];
            return messages.size() >= n;
        });
        return messages;
    }

    static SmtpSink* sink;
};
SmtpSink* SmtpRelay::sink = nullptr;

TEST_F(SmtpRelay, OutsideMailLeavesThroughTheRelayChargedOnceAndARefusalCostsNothing) {
    const int64_t before = allowance("relay-ann");
    const std::string body = "Dear friend,\n.a line starting with a dot\nsee you \xC3\xA0 8";
    const json copy = ok(send("relay-ann", {{"to", "friend@example.net"},
                                            {"subject",
                                             "Gr\xC3\xBC\xC3\x9F"
                                             "e"},
                                            {"body", body}}));
    EXPECT_EQ(copy.at("via"), "smtp");
    const auto letters = sink->letters();
    ASSERT_EQ(letters.size(), 1u);
    const json& got = letters[0];
    EXPECT_EQ(got.at("mail_from"), "relay-ann@example.org");
    EXPECT_EQ(got.at("rcpt_tos"), json::array({"friend@example.net"}));
    EXPECT_EQ(got.at("login"), "relay");
    EXPECT_EQ(got.at("ehlo"), "example.org");
    EXPECT_EQ(got.at("headers").at("from"), "relay-ann@example.org");
    EXPECT_EQ(got.at("headers").at("to"), "friend@example.net");
    EXPECT_EQ(got.at("headers").at("subject"),
              "Gr\xC3\xBC\xC3\x9F"
              "e");
    EXPECT_EQ(got.at("headers").at("message-id"),
              "<" + copy.at("message_id").get<std::string>() + ">");
    EXPECT_EQ(got.at("body"), body + "\n");
    EXPECT_EQ(allowance("relay-ann"), before - 1);

    const HttpResult refused =
        send("relay-ann", {{"to", "nobody@refuse.example"}, {"subject", "x"}, {"body", "y"}});
    EXPECT_EQ(refused.status, 502) << refused.body;
    EXPECT_NE(refused.body.find("550"), std::string::npos) << refused.body;
    EXPECT_EQ(sink->letters().size(), 1u);
    EXPECT_EQ(allowance("relay-ann"), before - 1);
    EXPECT_EQ(ok(api.get("/api/v1/mail/sources", as("relay-ann"))).at("total"), 1);
    EXPECT_EQ(ok(api.get("/api/v1/mail/info", as("relay-ann"))).at("outside_sending"), true);

    // Another plugin (the test plugin `fetch`) may not use the relay: 403, nothing arrives.
    const HttpResult other = api.post_json(
        "/fetch/get", {{"url", "x"},
                       {"provider", "smtp"},
                       {"method", "POST"},
                       {"headers", {{"Mail-From", "x@example.org"}, {"Rcpt-To", "y@example.net"}}},
                       {"body", "Subject: x\r\n\r\nx\r\n"}});
    EXPECT_EQ(other.status, 403) << other.body;
    EXPECT_NE(other.body.find("only the mail service"), std::string::npos) << other.body;
    EXPECT_EQ(sink->letters().size(), 1u);
}

TEST_F(SmtpRelay, MailToTheAgentIsAnsweredByMailInTheSameConversation) {
    const json copy = ok(send(
        "agent-ann",
        {{"to", "agent@example.org"}, {"subject", "Hello agent"}, {"body", "what can you do"}}));
    EXPECT_EQ(copy.at("via"), "agent");
    json box = inbox_of("agent-ann", 1);
    ASSERT_EQ(box.size(), 1u) << box;
    EXPECT_EQ(box[0].at("from"), "agent");
    EXPECT_EQ(box[0].at("subject"), "Re: Hello agent");
    const json answer =
        ok(api.get("/api/v1/mail/read?id=" + box[0].at("id").get<std::string>(), as("agent-ann")));
    const std::string thread = answer.value("thread", "");
    ASSERT_FALSE(thread.empty()) << answer;
    EXPECT_FALSE(answer.at("body").get<std::string>().empty());

    // The inbox service shows the conversation, begun on the mail channel, ending in that answer.
    const json items = ok(api.get("/api/v1/inbox/list", as("agent-ann"))).at("items");
    ASSERT_EQ(items.size(), 1u) << items;
    EXPECT_EQ(items[0].at("id"), thread);
    EXPECT_EQ(items[0].at("channel"), "mail");
    json read = ok(api.get("/api/v1/inbox/read?id=" + thread, as("agent-ann")));
    ASSERT_EQ(read.at("messages").size(), 2u) << read;
    const std::string page = answer.at("body");  // the first 2000 characters of the answer
    EXPECT_EQ(read.at("messages")[1].at("text").get<std::string>().substr(0, page.size()), page);

    // A reply to the answer continues the conversation.
    ok(send("agent-ann", {{"to", "agent"},
                          {"subject", "Re: Hello agent"},
                          {"body", "thanks"},
                          {"in_reply_to", box[0].at("id")}}));
    box = inbox_of("agent-ann", 2);
    ASSERT_EQ(box.size(), 2u) << box;
    EXPECT_EQ(
        ok(api.get("/api/v1/mail/read?id=" + box[0].at("id").get<std::string>(), as("agent-ann")))
            .value("thread", ""),
        thread);
    read = ok(api.get("/api/v1/inbox/read?id=" + thread, as("agent-ann")));
    EXPECT_EQ(read.at("messages").size(), 4u) << read;
    EXPECT_TRUE(sink->letters().size() <= 1u) << "local answers never leave";
}

}  // namespace
