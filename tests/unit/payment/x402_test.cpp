// x402 encoding (host/src/payment/x402.cpp): amounts, PaymentRequired v2/v1, base64 in both
// alphabets, payload decoding, matching by network and asset, replay keys, env overrides.
#include <gtest/gtest.h>

#include <map>
#include <platform/host/core/payment.hpp>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
using platform::host::effective_payment_settings;
using platform::host::PaymentSettings;
namespace x402 = platform::host::x402;

PaymentSettings settings() {
    PaymentSettings s;
    s.pay_to = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
    return s;
}

TEST(X402Amount, IsPriceTimesTenToDecimalsMinusTwo) {
    EXPECT_EQ(x402::amount(2, 6), "20000");
    EXPECT_EQ(x402::amount(1, 6), "10000");
    EXPECT_EQ(x402::amount(0, 6), "0");
    EXPECT_EQ(x402::amount(5, 2), "5");
    EXPECT_EQ(x402::amount(3, 18), "30000000000000000");
    EXPECT_EQ(x402::amount(18446744073709551615ull, 20), "18446744073709551615000000000000000000");
    EXPECT_EQ(x402::amount(250, 1), "25");
    EXPECT_EQ(x402::amount(5, 0), "0");
}

TEST(X402Networks, V1NamesNormaliseToCaip2) {
    EXPECT_EQ(x402::caip2("base"), "eip155:8453");
    EXPECT_EQ(x402::caip2("Base-Sepolia"), "eip155:84532");
    EXPECT_EQ(x402::caip2("eip155:1"), "eip155:1");
    EXPECT_EQ(x402::v1_network("eip155:8453"), "base");
    EXPECT_EQ(x402::v1_network("eip155:84532"), "base-sepolia");
    EXPECT_EQ(x402::v1_network("solana:abc"), "solana:abc");
}

TEST(X402PaymentRequired, V2HasTheSpecFields) {
    x402::Resource r{"https://example.com/api/v1/metered/quote", "Access to v1.metered quote"};
    json body = x402::payment_required(settings(), 2, r, "pay up");
    EXPECT_EQ(body["x402Version"], 2);
    EXPECT_EQ(body["error"], "pay up");
    EXPECT_EQ(body["resource"]["url"], r.url);
    EXPECT_EQ(body["resource"]["description"], r.description);
    EXPECT_EQ(body["resource"]["mimeType"], "application/json");
    ASSERT_EQ(body["accepts"].size(), 1u);
    const json& a = body["accepts"][0];
    EXPECT_EQ(a, json::parse(R"({"scheme":"exact","network":"eip155:8453","amount":"20000",
        "asset":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","payTo":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
        "maxTimeoutSeconds":60,"extra":{"name":"USD Coin","version":"2"}})"));
}

TEST(X402PaymentRequired, V1UsesMaxAmountRequiredAndPerAcceptResource) {
    x402::Resource r{"http://h/api/v1/metered/quote", "Access"};
    json body = x402::payment_required_v1(settings(), 1, r, "X-PAYMENT header is required");
    EXPECT_EQ(body["x402Version"], 1);
    EXPECT_FALSE(body.contains("resource"));
    const json& a = body["accepts"][0];
    EXPECT_EQ(a["network"], "base");
    EXPECT_EQ(a["maxAmountRequired"], "10000");
    EXPECT_FALSE(a.contains("amount"));
    EXPECT_EQ(a["resource"], r.url);
    EXPECT_EQ(a["description"], "Access");
    EXPECT_EQ(a["mimeType"], "application/json");
    EXPECT_TRUE(a["outputSchema"].is_null());
    EXPECT_EQ(a["maxTimeoutSeconds"], 60);
}

TEST(X402Base64, RoundTripsAndAcceptsBothAlphabets) {
    for (const std::string& s : std::vector<std::string>{
             "", "f", "fo", "foo", "foob", "fooba", "foobar", std::string("\xff\xfe\x00\x01", 4)})
        EXPECT_EQ(x402::base64_decode(x402::base64_encode(s)), s) << s;
    EXPECT_EQ(x402::base64_encode("foobar"), "Zm9vYmFy");
    EXPECT_EQ(x402::base64_encode("fo"), "Zm8=");
    EXPECT_EQ(x402::base64_decode("Zm8"), "fo");  // unpadded
    EXPECT_EQ(x402::base64_decode("Zm8="), "fo");
    EXPECT_EQ(x402::base64_decode("-_8"), "\xfb\xff");   // URL alphabet
    EXPECT_EQ(x402::base64_decode("+/8="), "\xfb\xff");  // standard alphabet
    EXPECT_EQ(x402::base64_decode(" Zm9v\nYmFy "), "foobar");
    EXPECT_FALSE(x402::base64_decode("Zm9v!"));
    EXPECT_FALSE(x402::base64_decode("Z"));
    EXPECT_FALSE(x402::base64_decode("Zm=8"));
    EXPECT_FALSE(x402::base64_decode("Zm8==="));
}

json v2_payload(const std::string& network = "eip155:8453",
                const std::string& asset = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913") {
    return {{"x402Version", 2},
            {"accepted",
             {{"scheme", "exact"}, {"network", network}, {"asset", asset}, {"amount", "20000"}}},
            {"payload",
             {{"signature", "0xsig"},
              {"authorization",
               {{"from", "0xABCdef0000000000000000000000000000000001"},
                {"to", "0x2"},
                {"value", "20000"},
                {"nonce", "0xAAbb01"}}}}}};
}

TEST(X402Payload, DecodesStandardAndUrlBase64) {
    const json p = v2_payload();
    std::string standard = x402::base64_encode(p.dump());
    std::string url = standard;
    for (auto& c : url) c = c == '+' ? '-' : c == '/' ? '_' : c;
    while (!url.empty() && url.back() == '=') url.pop_back();
    std::string error;
    EXPECT_EQ(x402::decode_payment(standard, &error), p) << error;
    EXPECT_EQ(x402::decode_payment(url, &error), p) << error;
    EXPECT_FALSE(x402::decode_payment("not base64!", &error));
    EXPECT_NE(error.find("not base64"), std::string::npos);
    EXPECT_FALSE(x402::decode_payment(x402::base64_encode("[1,2]"), &error));
    EXPECT_NE(error.find("JSON object"), std::string::npos);
    EXPECT_FALSE(x402::decode_payment(x402::base64_encode(R"({"x402Version":2})"), &error));
    EXPECT_NE(error.find("payload"), std::string::npos);
    EXPECT_EQ(x402::payload_version(p, 1), 2);
    EXPECT_EQ(x402::payload_version(json::object(), 1), 1);
}

TEST(X402Match, ByNetworkAndAssetCaseInsensitive) {
    const json accepts = json::array({x402::requirement(settings(), 2)});
    std::string why;
    auto m = x402::match(v2_payload(), accepts, &why);
    ASSERT_TRUE(m) << why;
    EXPECT_EQ((*m)["amount"], "20000");
    EXPECT_TRUE(x402::match(v2_payload("base"), accepts, &why))
        << why;  // v1 name of the same chain
    EXPECT_FALSE(x402::match(v2_payload("eip155:84532"), accepts, &why));
    EXPECT_NE(why.find("eip155:84532"), std::string::npos) << why;
    EXPECT_NE(why.find("eip155:8453 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"), std::string::npos)
        << why;
    EXPECT_FALSE(x402::match(v2_payload("eip155:8453", "0xdeadbeef"), accepts, &why));
    json other_scheme = v2_payload();
    other_scheme["accepted"]["scheme"] = "upto";
    EXPECT_FALSE(x402::match(other_scheme, accepts, &why));
}

TEST(X402Match, V1PayloadByNetworkOnly) {
    x402::Resource r{"http://h/x", "d"};
    const json accepts = json::array({x402::requirement_v1(settings(), 2, r)});
    json v1 = {{"x402Version", 1},
               {"scheme", "exact"},
               {"network", "base"},
               {"payload", {{"signature", "0x"}}}};
    std::string why;
    auto m = x402::match(v1, accepts, &why);
    ASSERT_TRUE(m) << why;
    EXPECT_EQ((*m)["maxAmountRequired"], "20000");
    v1["network"] = "base-sepolia";
    EXPECT_FALSE(x402::match(v1, accepts, &why));
}

TEST(X402Replay, NonceElseDigestOfThePayload) {
    EXPECT_EQ(x402::replay_key(v2_payload()), "nonce:0xaabb01");
    json no_nonce = v2_payload();
    no_nonce["payload"]["authorization"].erase("nonce");
    const std::string k = x402::replay_key(no_nonce);
    ASSERT_EQ(k.rfind("sha256:", 0), 0u) << k;
    EXPECT_EQ(k.size(), 7u + 64u);
    EXPECT_EQ(k, x402::replay_key(json::parse(no_nonce.dump())));  // same payload, same key
    no_nonce["payload"]["signature"] = "0xother";
    EXPECT_NE(k, x402::replay_key(no_nonce));
    EXPECT_EQ(x402::payer_of(v2_payload()), "0xabcdef0000000000000000000000000000000001");
    EXPECT_EQ(x402::sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(X402Settings, EnvironmentOverridesTheProfile) {
    PaymentSettings s;
    s.pay_to = "0xprofile";
    s.network = "base-sepolia";
    std::map<std::string, std::string> env;
    auto get = [&](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    };
    auto e = effective_payment_settings(s, get);
    EXPECT_EQ(e.pay_to, "0xprofile");
    EXPECT_EQ(e.network, "eip155:84532");
    EXPECT_TRUE(e.enabled());
    env = {{"PLATFORM_X402_PAY_TO", "0xenv"},
           {"PLATFORM_X402_FACILITATOR_URL", "http://127.0.0.1:9/"},
           {"PLATFORM_X402_NETWORK", "base"}};
    e = effective_payment_settings(s, get);
    EXPECT_EQ(e.pay_to, "0xenv");
    EXPECT_EQ(e.facilitator_url, "http://127.0.0.1:9");
    EXPECT_EQ(e.network, "eip155:8453");
    env = {{"PLATFORM_X402_PAY_TO", ""}};  // empty: the profile's value stays
    EXPECT_EQ(effective_payment_settings(s, get).pay_to, "0xprofile");
    EXPECT_FALSE(effective_payment_settings(PaymentSettings{}, get).enabled());
}

}  // namespace
