// The SMTP dialogue (host/include/platform/host/smtp/smtp_dialogue.hpp) without sockets: a
// session fed line by line against a recording Policy — the happy path with dot-unstuffing, the
// order rules, SIZE and recipient limits, refused recipients, STARTTLS's reset, overlong lines,
// VRFY, and the error limit.
#include <gtest/gtest.h>

#include <platform/host/smtp/smtp_dialogue.hpp>
#include <string>
#include <vector>

namespace {

using namespace platform::host::smtp;

class Recorder : public Policy {
public:
    Reply recipient(const std::string& address) override {
        asked.push_back(address);
        if (address.find("@example.org") == std::string::npos)
            return Reply{550, {"5.7.1 relay access denied"}};
        if (address.rfind("nobody@", 0) == 0) return Reply{550, {"5.1.1 no such user"}};
        return Reply{250, {"2.1.5 OK"}};
    }
    Reply deliver(const Envelope& e) override {
        delivered.push_back(e);
        return Reply{250, {"2.0.0 OK"}};
    }
    std::vector<std::string> asked;
    std::vector<Envelope> delivered;
};

class SmtpDialogue : public ::testing::Test {
protected:
    int code(const std::string& line) {
        auto r = d.line(line);
        return r ? r->code : 0;
    }
    Limits small() {
        Limits l;
        l.max_message_bytes = 100;
        l.max_recipients = 2;
        l.max_errors = 20;
        return l;
    }
    Recorder policy;
    Dialogue d{"example.org", small(), policy, true};
};

TEST_F(SmtpDialogue, DeliversOneMessageWithDotsUnstuffed) {
    EXPECT_EQ(d.greeting().wire(), "220 example.org ESMTP Platform\r\n");
    auto ehlo = d.line("EHLO client.example.net");
    ASSERT_TRUE(ehlo);
    EXPECT_EQ(ehlo->wire(),
              "250-example.org\r\n250-SIZE 100\r\n250-8BITMIME\r\n250-STARTTLS\r\n"
              "250 ENHANCEDSTATUSCODES\r\n");
    EXPECT_EQ(code("mail from:<ann@example.net> SIZE=50 BODY=8BITMIME"), 250);
    EXPECT_EQ(code("RCPT TO:<bob@example.org>"), 250);
    EXPECT_EQ(code("RCPT TO:<@relay.example.net:carl+x@example.org>"), 250);  // source route
    EXPECT_EQ(code("DATA"), 354);
    EXPECT_TRUE(d.in_data());
    EXPECT_EQ(code("Subject: hi"), 0);
    EXPECT_EQ(code(""), 0);
    EXPECT_EQ(code("..one dot"), 0);
    EXPECT_EQ(code("."), 250);
    ASSERT_EQ(policy.delivered.size(), 1u);
    const Envelope& e = policy.delivered[0];
    EXPECT_EQ(e.helo, "client.example.net");
    EXPECT_EQ(e.mail_from, "ann@example.net");
    EXPECT_EQ(e.rcpt_to, (std::vector<std::string>{"bob@example.org", "carl+x@example.org"}));
    EXPECT_EQ(e.message, "Subject: hi\r\n\r\n.one dot\r\n");
    // The transaction is over; the session goes on.
    EXPECT_EQ(code("RCPT TO:<bob@example.org>"), 503);
    EXPECT_EQ(code("MAIL FROM:<>"), 250);  // a bounce's null sender
    EXPECT_EQ(code("RSET"), 250);
    EXPECT_EQ(code("NOOP"), 250);
    auto quit = d.line("QUIT");
    ASSERT_TRUE(quit);
    EXPECT_EQ(quit->code, 221);
    EXPECT_TRUE(quit->close);
}

TEST_F(SmtpDialogue, RefusesOutOfOrderAndUnknownCommands) {
    EXPECT_EQ(code("MAIL FROM:<a@b.c>"), 503);  // before EHLO
    EXPECT_EQ(code("EHLO"), 501);
    EXPECT_EQ(code("HELO c"), 250);
    EXPECT_EQ(code("DATA"), 503);
    EXPECT_EQ(code("MAIL FROM:a@b.c"), 501);  // no angle brackets
    EXPECT_EQ(code("MAIL FROM:<a@b.c> AUTH=x"), 555);
    EXPECT_EQ(code("MAIL FROM:<a@b.c>"), 250);
    EXPECT_EQ(code("MAIL FROM:<a@b.c>"), 503);  // nested
    EXPECT_EQ(code("DATA"), 554);               // no recipient yet
    EXPECT_EQ(code("VRFY bob"), 502);
    EXPECT_EQ(code("EXPN list"), 502);
    EXPECT_EQ(code("FROB"), 500);
    EXPECT_EQ(code(std::string(600, 'x')), 500);
}

TEST_F(SmtpDialogue, NeverTakesForeignOrUnknownRecipientsAndCapsTheirNumber) {
    code("EHLO c");
    code("MAIL FROM:<a@b.c>");
    EXPECT_EQ(code("RCPT TO:<x@elsewhere.net>"), 550);
    EXPECT_EQ(code("RCPT TO:<nobody@example.org>"), 550);
    EXPECT_EQ(code("RCPT TO:<one@example.org>"), 250);
    EXPECT_EQ(code("RCPT TO:<two@example.org>"), 250);
    EXPECT_EQ(code("RCPT TO:<three@example.org>"), 452);  // max_recipients = 2
    EXPECT_EQ(policy.asked.size(), 4u);                   // the third was never asked about
    EXPECT_EQ(code("DATA"), 354);
    code(".");
    ASSERT_EQ(policy.delivered.size(), 1u);
    EXPECT_EQ(policy.delivered[0].rcpt_to,
              (std::vector<std::string>{"one@example.org", "two@example.org"}));
}

TEST_F(SmtpDialogue, RefusesMessagesOverTheSizeLimitAndOverlongLines) {
    code("EHLO c");
    EXPECT_EQ(code("MAIL FROM:<a@b.c> SIZE=101"), 552);
    EXPECT_EQ(code("MAIL FROM:<a@b.c> SIZE=x"), 501);
    code("MAIL FROM:<a@b.c>");
    code("RCPT TO:<bob@example.org>");
    code("DATA");
    EXPECT_EQ(code(std::string(60, 'a')), 0);
    EXPECT_EQ(code(std::string(60, 'b')), 0);
    EXPECT_EQ(code("."), 552);
    code("MAIL FROM:<a@b.c>");
    code("RCPT TO:<bob@example.org>");
    code("DATA");
    auto r = d.line("short", true);  // the listener cut an overlong line
    EXPECT_FALSE(r);
    EXPECT_EQ(code("."), 554);
    EXPECT_TRUE(policy.delivered.empty());
}

TEST_F(SmtpDialogue, StartTlsStartsTheSessionOverAndIsOfferedOnce) {
    code("EHLO c");
    code("MAIL FROM:<a@b.c>");
    auto r = d.line("STARTTLS");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, 220);
    EXPECT_TRUE(r->start_tls);
    d.tls_started();
    EXPECT_TRUE(d.tls_active());
    EXPECT_EQ(code("RCPT TO:<bob@example.org>"), 503);  // the transaction is gone
    EXPECT_EQ(code("MAIL FROM:<a@b.c>"), 503);          // and HELO with it
    auto ehlo = d.line("EHLO c");
    ASSERT_TRUE(ehlo);
    EXPECT_EQ(ehlo->wire().find("STARTTLS"), std::string::npos);
    EXPECT_EQ(code("STARTTLS"), 503);

    Recorder other;
    Dialogue plain("example.org", Limits{}, other, false);
    EXPECT_EQ(plain.line("STARTTLS")->code, 502);
}

TEST_F(SmtpDialogue, ClosesAfterTooManyErrors) {
    Dialogue fresh("example.org", Limits{}, policy, true);  // max_errors = 10
    for (int i = 0; i < 9; ++i) EXPECT_EQ(fresh.line("BAD")->code, 500);
    auto r = fresh.line("BAD");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->code, 421);
    EXPECT_TRUE(r->close);
}

TEST(SmtpPath, TakesTheAddressInsideAngleBrackets) {
    EXPECT_EQ(parse_path(" <a@b.c> SIZE=1")->first, "a@b.c");
    EXPECT_EQ(parse_path("<a@b.c> SIZE=1")->second, "SIZE=1");
    EXPECT_EQ(parse_path("<>")->first, "");
    EXPECT_FALSE(parse_path("a@b.c"));
    EXPECT_FALSE(parse_path("<a b@c.d>"));
    EXPECT_FALSE(parse_path("<a@b.c"));
}

}  // namespace
