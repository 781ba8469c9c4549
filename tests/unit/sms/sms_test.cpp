// The sms plugin's sending through the fake host (sms_fixture.hpp): the provider's request,
// charging per segment through billing, bad input, the daily cap, the WhatsApp window and its
// conversations, the missing settings as 503s, and messages kept for their owner only.
#include <string>
#include <vector>

#include "sms_fixture.hpp"

namespace {

using namespace sms_test;

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
    prices = {{"sms_segment", 3}};  // the operator's price (billing's config prices)
    EXPECT_EQ(ok_json(send("ann", "+447700900123", std::string(200, 'b'))).at("credits"), 6);
    prices = json::object();
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
