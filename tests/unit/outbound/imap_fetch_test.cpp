// http_fetch with imap:// and imaps:// URLs (host/src/outbound/imap_exchange.hpp), the parts that
// need no IMAP server: the login header, the commands, the URL and the SSRF guard. A session with
// a real server is tests/integration/external_mail_test.cpp (Dovecot).
#include <gtest/gtest.h>

#include <platform/host/outbound/outbound.hpp>
#include <platform/sdk/text.hpp>
#include <string>

#include "../../support/unused_port.hpp"
#include "fetch_helper.hpp"

using namespace platform::test;
using platform::host::Outbound;
using platform::host::OutboundSettings;

namespace {

const std::string kLogin =
    "{\"Authorization\":\"Basic " + platform::base64_encode("ann:secret") + "\"}";

Fetched imap(const Outbound& out, const std::string& url, const std::string& headers,
             const std::string& body, uint32_t flags = 0) {
    FetchArgs a;
    a.url = url;
    a.method = "POST";
    a.headers_json = headers;
    a.body = body;
    a.flags = flags;
    a.timeout_ms = 5000;
    return fetch(out, a);
}

}  // namespace

TEST(ImapFetch, RefusesBadLoginsCommandsAndUrlsBeforeConnecting) {
    const Outbound out(OutboundSettings{});
    const std::string url = "imaps://imap.example.org/";
    auto refused = [&](const Fetched& f, platform_status_t code, const std::string& words) {
        EXPECT_EQ(f.code, code) << f.error;
        EXPECT_EQ(f.calls, 1);
        EXPECT_NE(f.error.find(words), std::string::npos) << f.error;
    };
    refused(imap(out, url, "", "EXAMINE INBOX"), PLATFORM_INVALID_ARGUMENT, "Authorization");
    refused(imap(out, url, "{\"Authorization\":\"Bearer x\"}", "EXAMINE INBOX"),
            PLATFORM_INVALID_ARGUMENT, "Basic");
    refused(imap(out, url, "{\"X-Other\":\"1\"}", "EXAMINE INBOX"), PLATFORM_INVALID_ARGUMENT,
            "only Authorization");
    refused(imap(out, url, kLogin, ""), PLATFORM_INVALID_ARGUMENT, "1 to 8 IMAP commands");
    std::string nine;
    for (int i = 0; i < 9; ++i) nine += "NOOP\n";
    refused(imap(out, url, kLogin, nine), PLATFORM_INVALID_ARGUMENT, "1 to 8 IMAP commands");
    refused(imap(out, url, kLogin, std::string("NOOP\tx")), PLATFORM_INVALID_ARGUMENT,
            "control characters");
    refused(imap(out, url, kLogin, std::string(1001, 'A')), PLATFORM_INVALID_ARGUMENT,
            "at most 1000");
    refused(imap(out, "imap://u:p@imap.example.org/", kLogin, "NOOP"), PLATFORM_PERMISSION_DENIED,
            "userinfo");
    refused(imap(out, "imap://127.0.0.1:1143/", kLogin, "NOOP"), PLATFORM_PERMISSION_DENIED,
            "loopback");
    refused(imap(out, "imaps://[::1]/", kLogin, "NOOP", PLATFORM_HTTP_OPERATOR_URL),
            PLATFORM_PERMISSION_DENIED, "outbound.allow ([::1]:993)");
}

TEST(ImapFetch, AnAllowListedOperatorServerIsConnectedTo) {
    OutboundSettings s;
    const int port = unused_loopback_port();  // nothing listens there
    s.allow = {"127.0.0.1:" + std::to_string(port)};
    const Outbound out(s);
    const std::string url = "imap://127.0.0.1:" + std::to_string(port) + "/";
    const Fetched user = imap(out, url, kLogin, "NOOP");
    EXPECT_EQ(user.code, PLATFORM_PERMISSION_DENIED) << user.error;  // a user URL: the guard
    const Fetched op = imap(out, url, kLogin, "NOOP", PLATFORM_HTTP_OPERATOR_URL);
    EXPECT_EQ(op.code, PLATFORM_BAD_GATEWAY) << op.error;  // tried, and refused by the kernel
    EXPECT_EQ(op.final_url, url);
}
