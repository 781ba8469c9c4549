// The profile's `payment:` section: parsed into Profile::payment; errors name file:line: payment.<key>.
#include <gtest/gtest.h>

#include <string>

#include "../support/profile_section_test.hpp"

namespace {

class PaymentProfile : public plugin_test::ProfileSectionTest {};

TEST_F(PaymentProfile, DefaultsWithoutTheSection) {
    ASSERT_EQ(error_of(""), "");
    const auto& p = profile_.payment;
    EXPECT_FALSE(p.enabled());
    EXPECT_EQ(p.network, "eip155:8453");
    EXPECT_EQ(p.asset, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
    EXPECT_EQ(p.decimals, 6);
    EXPECT_EQ(p.extra, (nlohmann::json{{"name", "USD Coin"}, {"version", "2"}}));
    EXPECT_EQ(p.max_timeout_seconds, 60);
    EXPECT_EQ(p.timeout_ms, 10000);
}

TEST_F(PaymentProfile, EveryKey) {
    setenv("PAYMENT_PROFILE_TEST_PAY_TO", "0xabc", 1);
    ASSERT_EQ(error_of("payment:\n"
                       "  pay_to: \"${PAYMENT_PROFILE_TEST_PAY_TO}\"\n"
                       "  facilitator_url: https://x402.org/facilitator\n"
                       "  network: eip155:84532\n"
                       "  asset: \"0x036CbD53842c5426634e7929541eC2318f3dCF7e\"\n"
                       "  decimals: 6\n"
                       "  extra: {name: USDC, version: \"2\"}\n"
                       "  max_timeout_seconds: 120\n"
                       "  timeout_ms: 2500\n"),
              "");
    const auto& p = profile_.payment;
    EXPECT_TRUE(p.enabled());
    EXPECT_EQ(p.pay_to, "0xabc");
    EXPECT_EQ(p.facilitator_url, "https://x402.org/facilitator");
    EXPECT_EQ(p.network, "eip155:84532");
    EXPECT_EQ(p.asset, "0x036CbD53842c5426634e7929541eC2318f3dCF7e");
    EXPECT_EQ(p.extra, (nlohmann::json{{"name", "USDC"}, {"version", "2"}}));
    EXPECT_EQ(p.max_timeout_seconds, 120);
    EXPECT_EQ(p.timeout_ms, 2500);
}

TEST_F(PaymentProfile, ErrorsNameFileLineAndKey) {
    EXPECT_EQ(error_of("payment: 3\n"), file_ + ":6: payment: must be a mapping");
    EXPECT_EQ(error_of("payment:\n  colour: blue\n"),
              file_ +
                  ":7: payment.colour: unknown key (expected pay_to, facilitator_url, network, "
                  "asset, decimals, "
                  "extra, max_timeout_seconds, timeout_ms)");
    const std::string ftp = error_of("payment:\n  facilitator_url: ftp://x\n");
    EXPECT_EQ(ftp.rfind(file_ + ":7: payment.facilitator_url: must be an http(s) URL (", 0), 0u)
        << ftp;
    EXPECT_NE(ftp.find("scheme not allowed: ftp"), std::string::npos) << ftp;
    EXPECT_EQ(error_of("payment:\n  decimals: 1\n"),
              file_ + ":7: payment.decimals: must be between 2 and 36");
    EXPECT_EQ(error_of("payment:\n  max_timeout_seconds: soon\n"),
              file_ + ":7: payment.max_timeout_seconds: must be an integer");
    EXPECT_EQ(
        error_of("payment:\n  extra: [1]\n"),
        file_ + ":7: payment.extra: must be a mapping (the asset's EIP-712 domain: name, version)");
    EXPECT_EQ(error_of("payment:\n  network: \"\"\n"),
              file_ + ":7: payment.network: must not be empty");
}

}  // namespace
