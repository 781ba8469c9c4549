// The sms service (plugins/sms/) through the real host on the `test` profile, with a fake
// Twilio-compatible provider on loopback (support/fake_model_server.hpp serves its scripted
// answers and records what the host sent; outbound.providers.sms.base_url points at it). The
// webhook's signatures are made here with Python's hmac module, an implementation the plugin does
// not share. Sending is charged per segment through the real billing service; the verification
// flow claims a number whose messages are then kept for the account, and a code expires on the
// manual business clock; the daily cap; a bad signature is refused; STOP is honoured until START.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <memory>
#include <platform/sdk/percent.hpp>
#include <string>

#include "command.hpp"
#include "fake_model_server.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kWebhook = "https://sms.example.test/sms/inbound";
const std::string kMessages = "/2010-04-01/Accounts/AC0001/Messages.json";

class Sms : public SharedHostTest {
protected:
    static std::unique_ptr<FakeModelServer> provider;

    static void SetUpTestSuite() {
        provider = std::make_unique<FakeModelServer>();
        HostProcess::Options o;
        o.profile = suite_dir() + "/sms.yaml";
        std::ofstream(o.profile) << with_plugin_config(test_profile_text(), "sms",
                                                       "account_sid: AC0001\n"
                                                       "auth_token: token-1\n"
                                                       "from: \"+15005550006\"\n"
                                                       "daily_cap: 3\n"
                                                       "webhook_url: " +
                                                           kWebhook)
                                 << "\noutbound:\n  allow: [\"" << provider->allow_entry()
                                 << "\"]\n  providers:\n    sms: {base_url: \"" << provider->url()
                                 << "\"}\n";
        start_host(o);
        // Midday on the business clock, so that moving it on (codes expire after 10 minutes)
        // never crosses midnight UTC, when the daily cap starts again.
        HttpClient c("127.0.0.1", host->api_port());
        ASSERT_EQ(c.post_json("/clock/set", {{"unix_ms", 1795953600000LL}}).status, 200);
    }
    static void TearDownTestSuite() {
        stop_host();
        provider.reset();
    }

    json ok(const HttpResult& r) {
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    HttpResult call(const std::string& who, const std::string& method, const json& args) {
        return api.post_json("/api/v1/sms/" + method, args, as(who));
    }
    // Sends as `who` with the provider scripted to accept.
    HttpResult send(const std::string& who, const std::string& to, const std::string& text) {
        provider->enqueue(kMessages,
                          FakeModelServer::status(201, {{"sid", "SMx"}, {"status", "queued"}}));
        return call(who, "send", {{"to", to}, {"text", text}});
    }
    HttpResult rpc(const std::string& method, const json& request, const std::string& who) {
        return api.post_json(
            "/rpc", {{"service", "billing"}, {"method", method}, {"request", request}}, as(who));
    }
    int64_t allowance(const std::string& who) {
        const HttpResult r = rpc("Billing.Balance", json::object(), who);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.status == 200 ? r.json().value("allowance", int64_t{-1}) : -1;
    }
    // The provider's webhook call from `from` with `body`, signed with `token` (sorted names and
    // values after the URL, HMAC-SHA1, base64), or with no signature at all.
    HttpResult inbound(const std::string& from, const std::string& body,
                       const std::string& token = "token-1", bool signed_ = true) {
        const json params = {{"AccountSid", "AC0001"}, {"Body", body},    {"From", from},
                             {"MessageSid", "SMin1"},  {"NumMedia", "0"}, {"To", "+15005550006"}};
        std::string text,
            python =
                "import base64,hashlib,hmac,sys\nd=sys.argv[2]+''.join(sys.argv[3:])\n"
                "print(base64.b64encode(hmac.new(sys.argv[1].encode(),d.encode(),"
                "hashlib.sha1).digest()).decode())";
        std::vector<std::string> argv = {"/usr/bin/python3", "-c", python, token, kWebhook};
        for (const auto& [name, value] : params.items()) {  // json objects iterate sorted
            text += (text.empty() ? "" : "&") + name + "=" +
                    platform::percent_encode(value.get<std::string>());
            argv.push_back(name + value.get<std::string>());
        }
        Headers h = {{"Content-Type", "application/x-www-form-urlencoded"}};
        if (signed_) {
            const CommandResult sig = run_command(argv, {}, 20);
            EXPECT_EQ(sig.code, 0) << sig.err;
            h["X-Twilio-Signature"] = sig.out.substr(0, sig.out.find('\n'));
        }
        return api.post("/sms/inbound", text, h);
    }
};

std::unique_ptr<FakeModelServer> Sms::provider;

TEST_F(Sms, SendIsChargedPerSegmentAndStopIsHonouredFromASignedWebhook) {
    ASSERT_EQ(
        rpc("Billing.SetAllowance", {{"account", "sms-ann"}, {"allowance_per_day", 10}}, "admin")
            .status,
        200);
    const json kept = ok(send("sms-ann", "+447700900123", std::string(200, 'a') + " \xE2\x82\xAC"));
    EXPECT_EQ(kept.value("segments", 0), 2) << kept;  // 203 GSM-7 septets: two parts of 153
    EXPECT_EQ(kept.value("credits", 0), 2) << kept;
    EXPECT_EQ(allowance("sms-ann"), 8);
    auto seen = provider->requests(kMessages);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].method, "POST");
    EXPECT_EQ(seen[0].header("content-type"), "application/x-www-form-urlencoded");
    EXPECT_EQ(seen[0].header("authorization"), "Basic QUMwMDAxOnRva2VuLTE=");  // AC0001:token-1
    EXPECT_EQ(seen[0].text, "To=%2B447700900123&From=%2B15005550006&Body=" + std::string(200, 'a') +
                                "%20%E2%82%AC");

    ASSERT_EQ(
        rpc("Billing.SetAllowance", {{"account", "sms-ann"}, {"allowance_per_day", 0}}, "admin")
            .status,
        200);
    HttpResult r = call("sms-ann", "send", {{"to", "+447700900123"}, {"text", "hi"}});
    EXPECT_EQ(r.status, 402) << r.body;  // short of credits: nothing leaves
    EXPECT_EQ(provider->requests(kMessages).size(), 1u);
    EXPECT_EQ(call("sms-ann", "send", {{"to", "447700900123"}, {"text", "hi"}}).status, 400);

    // The provider's webhook: wrong and missing signatures are refused and change nothing.
    r = inbound("+447700900555", "STOP", "another-token");
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(inbound("+447700900555", "STOP", "token-1", false).status, 403);
    ASSERT_EQ(send("sms-bob", "+447700900555", "still reaches it").status, 200);
    r = inbound("+447700900555", "Stop");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_NE(r.body.find("<Response/>"), std::string::npos) << r.body;
    r = call("sms-bob", "send", {{"to", "+447700900555"}, {"text", "hello?"}});
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_NE(r.body.find("STOP"), std::string::npos) << r.body;
    ASSERT_EQ(inbound("+447700900555", "START").status, 200);
    EXPECT_EQ(send("sms-bob", "+447700900555", "welcome back").status, 200);
}

TEST_F(Sms, AVerifiedNumbersMessagesAreKeptForItsAccount) {
    provider->enqueue(kMessages,
                      FakeModelServer::status(201, {{"sid", "SMv"}, {"status", "queued"}}));
    const json started = ok(call("sms-cat", "verify", {{"number", "+447700900777"}}));
    EXPECT_EQ(started.value("tries", 0), 5) << started;
    const auto seen = provider->requests(kMessages);
    ASSERT_FALSE(seen.empty());
    const std::string& text = seen.back().text;
    const size_t at = text.find("code%20is%20");
    ASSERT_NE(at, std::string::npos) << text;
    const std::string code = text.substr(at + 12, 6);
    const std::string wrong = code == "000000" ? "111111" : "000000";

    HttpResult r = call("sms-cat", "verify", {{"number", "+447700900777"}, {"code", wrong}});
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_NE(r.body.find("4 tries left"), std::string::npos) << r.body;
    EXPECT_EQ(call("sms-dan", "verify", {{"number", "+447700900777"}, {"code", code}}).status, 409);
    EXPECT_EQ(ok(call("sms-cat", "verify", {{"number", "+447700900777"}, {"code", code}}))
                  .value("verified", false),
              true);

    ASSERT_EQ(inbound("+447700900777", "Got it, thanks").status, 200);
    const json list = ok(api.get("/api/v1/sms/sources", as("sms-cat")));
    ASSERT_EQ(list.value("total", 0), 2) << list;  // the code's text and the answer
    const std::string id = list["sources"][0];
    const json in = ok(api.get("/api/v1/sms/source?id=" + id, as("sms-cat")));
    EXPECT_EQ(in.value("direction", ""), "in");
    EXPECT_EQ(in.value("text", ""), "Got it, thanks");
    const json out = ok(
        api.get("/api/v1/sms/source?id=" + list["sources"][1].get<std::string>(), as("sms-cat")));
    EXPECT_EQ(out.value("text", "").find(code), std::string::npos) << out;
    EXPECT_EQ(api.get("/api/v1/sms/source?id=" + id, as("sms-dan")).status, 404);

    // A code lasts 10 minutes of the business clock (the test profile's manual one).
    provider->enqueue(kMessages,
                      FakeModelServer::status(201, {{"sid", "SMw"}, {"status", "queued"}}));
    ASSERT_EQ(call("sms-cat", "verify", {{"number", "+447700900778"}}).status, 200);
    const std::string again = provider->requests(kMessages).back().text;
    const std::string second = again.substr(again.find("code%20is%20") + 12, 6);
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 10 * 60 * 1000}}).status, 200);
    r = call("sms-cat", "verify", {{"number", "+447700900778"}, {"code", second}});
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_NE(r.body.find("expired"), std::string::npos) << r.body;

    // Two codes texted today; the profile's daily_cap is 3.
    EXPECT_EQ(send("sms-cat", "+447700900777", "one more").status, 200);
    r = call("sms-cat", "send", {{"to", "+447700900777"}, {"text", "too many"}});
    EXPECT_EQ(r.status, 429) << r.body;
    EXPECT_NE(r.body.find("daily_cap"), std::string::npos) << r.body;
}

}  // namespace
