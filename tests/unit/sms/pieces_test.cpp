// The sms plugin's pure pieces: E.164 numbers and the provider's address forms, the webhook
// signature (against the example of Twilio's request-validation documentation, which its helper
// libraries test too), STOP and START words, verification codes and their hashes, form encoding.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "../../../plugins/sms/e164.hpp"
#include "../../../plugins/sms/numbers.hpp"
#include "../../../plugins/sms/provider.hpp"
#include "../../../plugins/sms/signature.hpp"
#include "../../../plugins/sms/verification.hpp"

namespace {

TEST(SmsNumbers, E164IsPlusAndSevenToFifteenDigits) {
    for (const char* ok : {"+447700900123", "+15005550006", "+1234567", "+123456789012345"})
        EXPECT_TRUE(sms::valid_number(ok)) << ok;
    for (const char* bad :
         {"", "+", "447700900123", "+0447700900123", "+123456", "+1234567890123456",
          "+44 7700 900123", "+44-7700-900123", "+4477009001a3", "++447700900123", "+(44)7700900"})
        EXPECT_FALSE(sms::valid_number(bad)) << bad;
}

TEST(SmsNumbers, ProviderAddressesCarryTheChannel) {
    EXPECT_EQ(sms::provider_address("+15005550006", "sms"), "+15005550006");
    EXPECT_EQ(sms::provider_address("+15005550006", "whatsapp"), "whatsapp:+15005550006");
    auto a = sms::parse_provider_address("whatsapp:+447700900123");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->channel, "whatsapp");
    EXPECT_EQ(a->number, "+447700900123");
    a = sms::parse_provider_address("+447700900123");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->channel, "sms");
    EXPECT_FALSE(sms::parse_provider_address("whatsapp:447700900123"));
    EXPECT_FALSE(sms::parse_provider_address("messenger:+447700900123"));
    EXPECT_FALSE(sms::parse_provider_address(""));
}

TEST(SmsNumbers, StopAndStartWordsAreWholeMessages) {
    using sms::OptOut;
    for (const char* w :
         {"STOP", "stop", " Stop \n", "STOPALL", "unsubscribe", "Cancel", "END", "quit"})
        EXPECT_EQ(sms::opt_out_keyword(w), OptOut::stop) << w;
    for (const char* w : {"START", "start", "Unstop", " yes "})
        EXPECT_EQ(sms::opt_out_keyword(w), OptOut::start) << w;
    for (const char* w : {"", "please stop", "STOP IT", "stopp", "no"})
        EXPECT_EQ(sms::opt_out_keyword(w), OptOut::none) << w;
}

TEST(SmsSignature, MatchesTwilioDocumentedExample) {
    const sms::FormParams params = {{"To", "+18005551212"},
                                    {"CallSid", "CA1234567890ABCDE"},
                                    {"From", "+14158675309"},
                                    {"Digits", "1234"},
                                    {"Caller", "+14158675309"}};
    const std::string url = "https://mycompany.com/myapp.php?foo=1&bar=2";
    const std::string sig = sms::webhook_signature("12345", url, params);
    EXPECT_EQ(sig, "RSOYDt4T1cUTdK1PDd93/VVr8B8=");
    EXPECT_TRUE(sms::signature_matches(sig, "RSOYDt4T1cUTdK1PDd93/VVr8B8="));
    EXPECT_FALSE(sms::signature_matches(sig, "RSOYDt4T1cUTdK1PDd93/VVr8B8"));
    EXPECT_FALSE(sms::signature_matches(sig, ""));
    EXPECT_FALSE(sms::signature_matches("", ""));
    EXPECT_NE(sms::webhook_signature("12346", url, params), sig);
    EXPECT_NE(sms::webhook_signature("12345", url + "&x=1", params), sig);
    sms::FormParams changed = params;
    changed[3].second = "9999";
    EXPECT_NE(sms::webhook_signature("12345", url, changed), sig);
}

TEST(SmsSignature, FormParamsFromTheHostsArguments) {
    const nlohmann::json args = {
        {"Body", "hi"}, {"NumMedia", 0}, {"Flag", true}, {"Nested", {{"a", 1}}}, {"List", {1, 2}}};
    const sms::FormParams p = sms::form_params(args);
    EXPECT_EQ(p, (sms::FormParams{{"Body", "hi"}, {"Flag", "true"}, {"NumMedia", "0"}}));
}

TEST(SmsCodes, SixRandomDigitsStoredAsSaltedHashes) {
    std::set<std::string> seen;
    for (int i = 0; i < 200; ++i) {
        const std::string c = sms::new_code();
        ASSERT_EQ(c.size(), 6u) << c;
        EXPECT_EQ(c.find_first_not_of("0123456789"), std::string::npos) << c;
        seen.insert(c);
    }
    EXPECT_GT(seen.size(), 190u);  // 200 draws of a million: a repeat or two at most
    const std::string h = sms::code_hash("salt", "123456");
    EXPECT_EQ(h.size(), 64u);
    EXPECT_EQ(h, sms::code_hash("salt", "123456"));
    EXPECT_NE(h, sms::code_hash("salt", "123457"));
    EXPECT_NE(h, sms::code_hash("pepper", "123456"));
    EXPECT_EQ(h.find("123456"), std::string::npos);
}

TEST(SmsProvider, FormEncodingKeepsOnlyUnreservedBytes) {
    EXPECT_EQ(sms::form_encode("+15005550006"), "%2B15005550006");
    EXPECT_EQ(sms::form_encode("whatsapp:+1"), "whatsapp%3A%2B1");
    EXPECT_EQ(sms::form_encode("a b&c=d~_.-"), "a%20b%26c%3Dd~_.-");
    EXPECT_EQ(sms::form_encode("\xE2\x82\xAC"), "%E2%82%AC");
}

}  // namespace
