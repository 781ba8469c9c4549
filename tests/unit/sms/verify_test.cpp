// The sms plugin's verification and webhook through the fake host (sms_fixture.hpp): codes that
// claim a number once, expire after 10 minutes and take 5 tries; the webhook's signature; STOP and
// START.
#include <string>

#include "sms_fixture.hpp"

namespace {

using namespace sms_test;

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

}  // namespace
