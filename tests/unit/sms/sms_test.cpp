// The sms plugin (plugins/sms/) through the fake host: the provider's request (on_fetch), charging
// per segment through billing (on_call), the missing settings as 503s, the daily cap, the
// verification flow with expiry and tries, the webhook's signature, STOP and START, the WhatsApp
// window and its conversations, and messages kept for their owner only.
#include <mutex>
#include <platform/sdk/text.hpp>
#include <string>
#include <vector>

#include "../../../plugins/sms/signature.hpp"
#include "../support/plugin_under_test.hpp"

namespace {

using namespace plugin_test;

const char* kWebhook = "https://platform.example/sms/inbound";
const json kConfig = {{"account_sid", "AC0001"},
                      {"auth_token", "token-1"},
                      {"from", "+15005550006"},
                      {"webhook_url", kWebhook},
                      {"daily_cap", 4}};

struct Sent {
    std::string url, provider, body;
    json headers;
};

class SmsTest : public ::testing::Test {
protected:
    explicit SmsTest(const json& config = kConfig)
        : plugin(host.load(platform_plugin_entry, config)) {
        host.on_call = [this](const std::string& service, const std::string& method,
                              const json& req, const std::string&) {
            std::lock_guard<std::mutex> g(m);
            if (service == "billing") {
                const int64_t amount = req.value("amount", int64_t{0});
                if (method == "charge") charged.push_back(amount);
                return reply(PLATFORM_OK,
                             json{{"enough", credits >= amount}, {"available", credits}}.dump());
            }
            if (service == "config" && !config_service.is_null())
                return reply(PLATFORM_OK, json{{"value", config_service}}.dump());
            return reply(PLATFORM_NOT_FOUND, "");
        };
        host.on_fetch = [this](const platform_http_request_t& req) {
            std::lock_guard<std::mutex> g(m);
            sent.push_back({platform::copy(req.url), platform::copy(req.provider),
                            platform::copy(req.body),
                            json::parse(platform::copy(req.headers_json))});
            FakeHost::FakeHttp r;
            r.code = PLATFORM_OK;
            r.status = provider_status;
            r.body =
                provider_status == 201
                    ? json{{"sid", "SM" + std::to_string(sent.size())}, {"status", "queued"}}.dump()
                    : json{{"code", 21211}, {"message", "Invalid 'To' Phone Number"}}.dump();
            return r;
        };
    }

    Reply send(const std::string& who, const std::string& to, const std::string& text,
               const std::string& channel = "sms") {
        return plugin.call("send", {{"to", to}, {"text", text}, {"channel", channel}}, who);
    }
    // A webhook call as the provider signs it (or with `signature` when given).
    Reply inbound(const std::string& from, const std::string& body,
                  const std::string& signature = "") {
        const json form = {{"From", from},    {"To", "+15005550006"},
                           {"Body", body},    {"MessageSid", "SMin"},
                           {"NumMedia", "0"}, {"AccountSid", "AC0001"}};
        const std::string sig =
            signature.empty() ? sms::webhook_signature("token-1", kWebhook, sms::form_params(form))
                              : signature;
        return plugin.call("inbound", form, "", {{"X-Twilio-Signature", sig}});
    }
    // The code in the last text the provider was asked to send.
    std::string last_code() {
        std::lock_guard<std::mutex> g(m);
        const std::string& body = sent.back().body;
        const size_t at = body.find("code%20is%20");
        return at == std::string::npos ? "" : body.substr(at + 12, 6);
    }

    std::mutex m;
    int64_t credits = 100;
    std::vector<int64_t> charged;
    json config_service;  // null: no config service
    int provider_status = 201;
    std::vector<Sent> sent;
    FakeHost host;
    FakePlugin plugin;
};

TEST_F(SmsTest, SendPostsToTheProviderAndChargesPerSegment) {
    const json kept = ok_json(send("ann", "+447700900123", std::string(200, 'a')));
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].provider, "sms");
    EXPECT_EQ(sent[0].url, "/2010-04-01/Accounts/AC0001/Messages.json");
    EXPECT_EQ(sent[0].body, "To=%2B447700900123&From=%2B15005550006&Body=" + std::string(200, 'a'));
    EXPECT_EQ(sent[0].headers.at("Authorization"),
              "Basic " + platform::base64_encode("AC0001:token-1"));
    EXPECT_EQ(sent[0].headers.at("Content-Type"), "application/x-www-form-urlencoded");
    EXPECT_EQ(kept.at("segments"), 2);
    EXPECT_EQ(kept.at("encoding"), "GSM-7");
    EXPECT_EQ(kept.at("credits"), 2);
    EXPECT_EQ(kept.at("provider_sid"), "SM1");
    EXPECT_EQ(kept.at("direction"), "out");
    EXPECT_EQ(kept.at("date"), "2026-01-01T00:00:00Z");
    EXPECT_EQ(charged, (std::vector<int64_t>{2}));

    const json ucs2 = ok_json(send("ann", "+447700900123", "\xD0\xBF\xD1\x80\xD0\xB8"));
    EXPECT_EQ(ucs2.at("encoding"), "UCS-2");
    EXPECT_EQ(ucs2.at("credits"), 1);

    // Kept for the sender only, newest first.
    const json list = ok_json(plugin.call("sources", json::object(), "ann"));
    EXPECT_EQ(list.at("sources"), json::array({ucs2.at("id"), kept.at("id")}));
    EXPECT_EQ(list.at("total"), 2);
    EXPECT_EQ(ok_json(plugin.call("source", {{"id", kept.at("id")}}, "ann")), kept);
    EXPECT_EQ(plugin.call("source", {{"id", kept.at("id")}}, "bob").code, PLATFORM_NOT_FOUND);
    EXPECT_EQ(ok_json(plugin.call("sources", json::object(), "bob")).at("total"), 0);
    EXPECT_EQ(send("", "+447700900123", "x").code, PLATFORM_UNAUTHENTICATED);
}

TEST_F(SmsTest, BadInputIsA400NamingTheArgument) {
    for (const char* to : {"447700900123", "+44 7700 900123", "+0123456789", "+12"}) {
        const Reply r = send("ann", to, "hi");
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT) << to;
        EXPECT_NE(r.body.find("to"), std::string::npos) << r.body;
    }
    EXPECT_EQ(send("ann", "+447700900123", "").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(send("ann", "+447700900123", std::string(1601, 'a')).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(send("ann", "+447700900123", "hi", "fax").code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("verify", {{"number", "+447700900123"}, {"code", "12345"}}, "ann").code,
              PLATFORM_INVALID_ARGUMENT);
    provider_status = 400;  // the provider's own refusal, with its message
    const Reply r = send("ann", "+447700900123", "hi");
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("Invalid 'To' Phone Number (code 21211)"), std::string::npos) << r.body;
    EXPECT_TRUE(charged.empty());
    EXPECT_EQ(ok_json(plugin.call("sources", json::object(), "ann")).at("total"), 0);
}

TEST_F(SmsTest, ShortOfCreditsIsA402AndNothingLeaves) {
    credits = 1;
    const Reply r = send("ann", "+447700900123", std::string(161, 'a'));
    EXPECT_EQ(r.code, PLATFORM_PAYMENT_REQUIRED);
    EXPECT_NE(r.body.find("costs 2 credit(s); you have 1"), std::string::npos) << r.body;
    EXPECT_TRUE(sent.empty());
    EXPECT_TRUE(charged.empty());
    EXPECT_EQ(send("ann", "+447700900123", std::string(160, 'a')).code, PLATFORM_OK);
}

TEST_F(SmsTest, TheDailyCapIsA429UntilTheNextBusinessDay) {
    for (int i = 0; i < 4; ++i) ASSERT_EQ(send("ann", "+447700900123", "hi").code, PLATFORM_OK);
    const Reply r = send("ann", "+447700900123", "hi");
    EXPECT_EQ(r.code, PLATFORM_RATE_LIMITED);
    EXPECT_NE(r.body.find("daily_cap"), std::string::npos) << r.body;
    EXPECT_EQ(sent.size(), 4u);
    EXPECT_EQ(send("bob", "+447700900123", "hi").code, PLATFORM_OK);  // per account
    provider_status = 500;                                            // failed sends do not count
    host.now_ms += 24 * 3600 * 1000;
    EXPECT_EQ(send("ann", "+447700900123", "hi").code, PLATFORM_BAD_GATEWAY);
    provider_status = 201;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(send("ann", "+447700900123", "hi").code, PLATFORM_OK);
    EXPECT_EQ(send("ann", "+447700900123", "hi").code, PLATFORM_RATE_LIMITED);
}

TEST_F(SmsTest, VerifyTextsACodeThatClaimsTheNumberOnce) {
    const json started = ok_json(plugin.call("verify", {{"number", "+447700900123"}}, "ann"));
    EXPECT_EQ(started.at("sent"), true);
    EXPECT_EQ(started.at("tries"), 5);
    EXPECT_EQ(started.at("expires_at"), "2026-01-01T00:10:00Z");
    const std::string code = last_code();
    ASSERT_EQ(code.size(), 6u);
    EXPECT_EQ(charged, (std::vector<int64_t>{1}));  // the code's text is an SMS like any other
    // The kept copy and the store never show the code.
    const json kept = ok_json(plugin.call("source", {{"id", started.at("message_id")}}, "ann"));
    EXPECT_EQ(kept.at("kind"), "verification");
    EXPECT_EQ(kept.at("text").get<std::string>().find(code), std::string::npos);
    for (const auto& [key, entry] : host.store)
        EXPECT_EQ(entry.value.find(code), std::string::npos) << key << " " << entry.value;

    const std::string wrong = code == "000000" ? "111111" : "000000";
    EXPECT_EQ(plugin.call("verify", {{"number", "+447700900123"}, {"code", code}}, "bob").code,
              PLATFORM_CONFLICT);  // bob has no code pending for it
    Reply r = plugin.call("verify", {{"number", "+447700900123"}, {"code", wrong}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("4 tries left"), std::string::npos) << r.body;
    const json done =
        ok_json(plugin.call("verify", {{"number", "+447700900123"}, {"code", code}}, "ann"));
    EXPECT_EQ(done, (json{{"number", "+447700900123"}, {"verified", true}}));
    r = plugin.call("verify", {{"number", "+447700900123"}, {"code", code}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_CONFLICT) << r.body;  // used up

    // The number is ann's now: what it writes is kept for her.
    ASSERT_EQ(inbound("+447700900123", "Thanks!").code, PLATFORM_OK);
    const json list = ok_json(plugin.call("sources", json::object(), "ann"));
    const json in = ok_json(plugin.call("source", {{"id", list.at("sources")[0]}}, "ann"));
    EXPECT_EQ(in.at("direction"), "in");
    EXPECT_EQ(in.at("text"), "Thanks!");
    EXPECT_EQ(in.at("number"), "+447700900123");
    EXPECT_EQ(ok_json(plugin.call("sources", json::object(), "bob")).at("total"), 0);
}

TEST_F(SmsTest, CodesExpireAfterTenMinutesAndAllowFiveTries) {
    ok_json(plugin.call("verify", {{"number", "+447700900123"}}, "ann"));
    std::string code = last_code();
    host.now_ms += 10 * 60 * 1000;
    Reply r = plugin.call("verify", {{"number", "+447700900123"}, {"code", code}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_CONFLICT);
    EXPECT_NE(r.body.find("expired"), std::string::npos) << r.body;

    ok_json(plugin.call("verify", {{"number", "+447700900123"}}, "ann"));
    code = last_code();
    const std::string wrong = code == "000000" ? "111111" : "000000";
    for (int left = 4; left >= 1; --left) {
        r = plugin.call("verify", {{"number", "+447700900123"}, {"code", wrong}}, "ann");
        EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
        EXPECT_NE(r.body.find(std::to_string(left) + " tries left"), std::string::npos) << r.body;
    }
    r = plugin.call("verify", {{"number", "+447700900123"}, {"code", wrong}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("no tries left"), std::string::npos) << r.body;
    r = plugin.call("verify", {{"number", "+447700900123"}, {"code", code}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_CONFLICT) << r.body;  // the right code is void now

    ok_json(plugin.call("verify", {{"number", "+447700900123"}}, "ann"));  // a new code works
    host.now_ms += 9 * 60 * 1000;
    EXPECT_EQ(
        plugin.call("verify", {{"number", "+447700900123"}, {"code", last_code()}}, "ann").code,
        PLATFORM_OK);
}

TEST_F(SmsTest, TheWebhookNeedsTheProvidersSignature) {
    EXPECT_EQ(inbound("+447700900123", "hi").code, PLATFORM_OK);
    Reply r = inbound("+447700900123", "hi", "bm90IHRoZSBzaWduYXR1cmU=");
    EXPECT_EQ(r.code, PLATFORM_PERMISSION_DENIED);
    EXPECT_NE(r.body.find("X-Twilio-Signature"), std::string::npos) << r.body;
    const json form = {{"From", "+447700900123"}, {"Body", "STOP"}};
    r = plugin.call("inbound", form, "");
    EXPECT_EQ(r.code, PLATFORM_PERMISSION_DENIED);
    EXPECT_NE(r.body.find("missing"), std::string::npos) << r.body;
    // Signed with another token: refused, and its STOP changes nothing.
    const std::string forged = sms::webhook_signature("token-2", kWebhook, sms::form_params(form));
    EXPECT_EQ(plugin.call("inbound", form, "", {{"X-Twilio-Signature", forged}}).code,
              PLATFORM_PERMISSION_DENIED);
    EXPECT_EQ(send("ann", "+447700900123", "still reaches it").code, PLATFORM_OK);
    r = inbound("not-a-number", "hi");
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("From"), std::string::npos) << r.body;
    r = inbound("+447700900123", "hi");
    EXPECT_EQ(r.content_type, "text/xml; charset=utf-8");
    EXPECT_NE(r.body.find("<Response/>"), std::string::npos) << r.body;
}

TEST_F(SmsTest, StopHaltsSendingUntilStart) {
    ASSERT_EQ(inbound("+447700900123", " Stop ").code, PLATFORM_OK);
    Reply r = send("ann", "+447700900123", "hello?");
    EXPECT_EQ(r.code, PLATFORM_CONFLICT);
    EXPECT_NE(r.body.find("STOP"), std::string::npos) << r.body;
    EXPECT_EQ(plugin.call("verify", {{"number", "+447700900123"}}, "bob").code, PLATFORM_CONFLICT);
    EXPECT_TRUE(sent.empty());
    EXPECT_EQ(send("ann", "+447700900124", "another number").code, PLATFORM_OK);
    ASSERT_EQ(inbound("+447700900123", "START").code, PLATFORM_OK);
    EXPECT_EQ(send("ann", "+447700900123", "welcome back").code, PLATFORM_OK);
}

TEST_F(SmsTest, WhatsappNeedsAMessageWithin24HoursAndCostsPerConversation) {
    Reply r = send("ann", "+447700900123", "hi", "whatsapp");
    EXPECT_EQ(r.code, PLATFORM_CONFLICT);
    EXPECT_NE(r.body.find("24 hours"), std::string::npos) << r.body;
    ASSERT_EQ(inbound("+447700900123", "SMS is not WhatsApp").code, PLATFORM_OK);
    EXPECT_EQ(send("ann", "+447700900123", "hi", "whatsapp").code, PLATFORM_CONFLICT);

    ASSERT_EQ(inbound("whatsapp:+447700900123", "hello").code, PLATFORM_OK);
    const json first = ok_json(send("ann", "+447700900123", std::string(400, 'a'), "whatsapp"));
    EXPECT_EQ(first.at("channel"), "whatsapp");
    EXPECT_EQ(first.at("credits"), 2);  // a conversation, whatever the length
    EXPECT_EQ(
        sent.back().body.rfind("To=whatsapp%3A%2B447700900123&From=whatsapp%3A%2B15005550006&", 0),
        0u)
        << sent.back().body;
    host.now_ms += 3600 * 1000;
    EXPECT_EQ(ok_json(send("ann", "+447700900123", "again", "whatsapp")).at("credits"), 0);
    EXPECT_EQ(ok_json(send("bob", "+447700900123", "me too", "whatsapp")).at("credits"), 2);
    EXPECT_EQ(charged, (std::vector<int64_t>{2, 2}));

    host.now_ms += 23 * 3600 * 1000;  // 24 h since it wrote: the window has closed
    EXPECT_EQ(send("ann", "+447700900123", "late", "whatsapp").code, PLATFORM_CONFLICT);
    ASSERT_EQ(inbound("whatsapp:+447700900123", "back").code, PLATFORM_OK);
    EXPECT_EQ(ok_json(send("ann", "+447700900123", "new day", "whatsapp")).at("credits"), 2);
}

class SmsWithoutSettings : public SmsTest {
protected:
    SmsWithoutSettings() : SmsTest(json::object()) {}
};

TEST_F(SmsWithoutSettings, MissingSettingsAre503sNamingThem) {
    Reply r = send("ann", "+447700900123", "hi");
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_NE(r.body.find("sms.account_sid"), std::string::npos) << r.body;
    config_service = {{"account_sid", "AC9"}, {"auth_token", "sealed-token"}};
    r = send("ann", "+447700900123", "hi");
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_NE(r.body.find("sms.from"), std::string::npos) << r.body;
    r = plugin.call("verify", {{"number", "+447700900123"}}, "ann");
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_EQ(plugin.call("verify", {{"number", "+447700900123"}, {"code", "123456"}}, "ann").code,
              PLATFORM_CONFLICT);  // the failed text left no code behind
    r = inbound("+447700900123", "hi");
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_NE(r.body.find("sms.webhook_url"), std::string::npos) << r.body;
    config_service["from"] = "+15005550006";  // the config service's settings, sealed ones too
    ASSERT_EQ(send("ann", "+447700900123", "hi").code, PLATFORM_OK);
    EXPECT_EQ(sent.back().url, "/2010-04-01/Accounts/AC9/Messages.json");
    EXPECT_EQ(sent.back().headers.at("Authorization"),
              "Basic " + platform::base64_encode("AC9:sealed-token"));
    EXPECT_TRUE(sent.size() == 1u);
}

}  // namespace
