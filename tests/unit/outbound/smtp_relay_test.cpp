// Outbound::relay_mail, the reserved provider "smtp" (host/src/outbound/smtp_relay.hpp), without a
// server: no relay is 503 naming PLATFORM_SMTP_RELAY, a bad envelope or a URL is INVALID_ARGUMENT
// naming the header, and a relay that does not listen is BAD_GATEWAY naming it. The exchange with
// a real SMTP server is tests/integration/smtp_relay_test.cpp (aiosmtpd).
#include <gtest/gtest.h>

#include <platform/host/outbound/outbound.hpp>
#include <string>

using namespace platform::host;

namespace {

struct Relayed {
    platform_status_t code = -1;
    int calls = 0;
    int32_t status = -1;
    std::string body, error;
};

Relayed relay(const std::string& relay_url, const std::string& headers,
              const std::string& body = "Subject: x\r\n\r\nhi\r\n", const std::string& url = "") {
    const Outbound out{OutboundSettings{}};
    platform_http_request_t req = http_request("POST", url, headers, body);
    const std::string provider = kSmtpProvider;
    req.provider = {provider.data(), provider.size()};
    req.timeout_ms = 5000;
    Relayed r;
    r.code = out.relay_mail(
        req, relay_url, "example.org",
        [](void* user, const platform_http_response_t* resp) {
            auto* r = static_cast<Relayed*>(user);
            ++r->calls;
            r->status = resp->status;
            r->body.assign(resp->body.ptr ? resp->body.ptr : "", resp->body.len);
            r->error.assign(resp->error.ptr ? resp->error.ptr : "", resp->error.len);
        },
        &r);
    return r;
}

const std::string kEnvelope = R"({"Mail-From":"ann@example.org","Rcpt-To":"bob@example.net"})";

TEST(SmtpRelay, WithoutARelayTheAnswerIs503NamingTheSetting) {
    const Relayed r = relay("", kEnvelope);
    EXPECT_EQ(r.code, PLATFORM_OK);
    EXPECT_EQ(r.calls, 1);
    EXPECT_EQ(r.status, 503);
    EXPECT_NE(r.body.find("PLATFORM_SMTP_RELAY"), std::string::npos) << r.body;
}

TEST(SmtpRelay, ABadEnvelopeIsRefusedNamingTheHeader) {
    const std::string relay_url = "smtp://127.0.0.1:1";
    struct Case {
        std::string headers, body, url, names;
    } cases[] = {
        {R"({"Rcpt-To":"bob@example.net"})", "m", "", "Mail-From"},
        {R"({"Mail-From":"ann@example.org"})", "m", "", "Rcpt-To"},
        {R"({"Mail-From":"ann","Rcpt-To":"bob@example.net"})", "m", "", "Mail-From"},
        {R"({"Mail-From":"a@b.org","Rcpt-To":"x@y.org, <z@y.org>"})", "m", "", "Rcpt-To"},
        {R"({"Mail-From":"a@b.org","Rcpt-To":"x y@y.org"})", "m", "", "Rcpt-To"},
        {R"({"Mail-From":"a@b.org","Rcpt-To":"x@y.org\r\nRCPT TO:<z@y.org>"})", "m", "",
         "line breaks"},
        {kEnvelope, "", "", "body"},
        {kEnvelope, "m", "smtp://elsewhere:25", "url"},
    };
    for (const Case& c : cases) {
        const Relayed r = relay(relay_url, c.headers, c.body, c.url);
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << c.headers;
        EXPECT_EQ(r.calls, 1);
        EXPECT_NE(r.error.find(c.names), std::string::npos) << r.error;
    }
}

TEST(SmtpRelay, ARelayThatDoesNotListenIsABadGateway) {
    const Relayed r = relay("smtp://user:pw@127.0.0.1:1", kEnvelope);
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.error.find("smtp://127.0.0.1:1"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find("pw"), std::string::npos) << "the password never shows: " << r.error;
}

}  // namespace
