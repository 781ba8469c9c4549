// Payment through the real host (docs/identity.md "Payment"): the test-only `metered` plugin's
// fixture methods, x402 against a loopback fake facilitator served by this test (allow-listed in
// a profile copied from profiles/test.yaml, which also sets payment.pay_to; the facilitator URL
// comes from PLATFORM_X402_FACILITATOR_URL), and credits from the `billing` service (test
// profile: the bearer text is the account id, `admin` is an admin).
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "../unit/outbound/loopback_server.hpp"
#include "build_tree.hpp"
#include "host_process.hpp"
#include "http_client.hpp"
#include "text_search.hpp"
#include "unused_port.hpp"
#include "x402_payer.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

namespace fs = std::filesystem;

constexpr const char* kPayTo = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
constexpr const char* kUsdc = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
constexpr const char* kPayer = "0xAbC0000000000000000000000000000000000001";

json decode_header(const HttpResult& r, const std::string& name) {
    return json::parse(unbase64(r.header(name)), nullptr, false);
}

class PaymentHost : public ::testing::Test {
protected:
    LoopbackServer facilitator{fake_facilitator};
    TempDir dir;
    std::unique_ptr<HostProcess> host;
    std::unique_ptr<HttpClient> api, proxy;
    int nonce = 0;

    // profiles/test.yaml + the outbound allow-list for loopback and, when `x402`, payment.pay_to.
    void start(bool x402 = true, std::optional<int> facilitator_port = std::nullopt) {
        fs::path test_yaml = fs::path(platform::test::source_dir()) / "profiles" / "test.yaml";
        std::ifstream in(test_yaml);
        ASSERT_TRUE(in) << test_yaml;
        std::stringstream text;
        text << in.rdbuf();
        std::string profile = dir.path() + "/payment-test.yaml";
        std::ofstream out(profile);
        out << text.str() << "\noutbound:\n  allow: [\"127.0.0.1:*\"]\n";
        if (x402) out << "payment:\n  pay_to: \"" << kPayTo << "\"\n  timeout_ms: 5000\n";
        out.close();
        HostProcess::Options o;
        o.profile = profile;
        o.env["PLATFORM_X402_FACILITATOR_URL"] =
            "http://127.0.0.1:" + std::to_string(facilitator_port.value_or(facilitator.port()));
        host = std::make_unique<HostProcess>(o);
        host->start();
        api = std::make_unique<HttpClient>("127.0.0.1", host->api_port());
        proxy = std::make_unique<HttpClient>("127.0.0.1", host->proxy_port());
    }
    void SetUp() override {}

    // A v2 PaymentPayload for the challenge's first requirement, with a fresh nonce.
    json payment(const std::string& signature = "0xsig") {
        json a = {{"scheme", "exact"},
                  {"network", "eip155:8453"},
                  {"amount", "20000"},
                  {"asset", kUsdc},
                  {"payTo", kPayTo},
                  {"maxTimeoutSeconds", 60},
                  {"extra", {{"name", "USD Coin"}, {"version", "2"}}}};
        return x402_payment(a, kPayer, "0x" + std::to_string(1000 + ++nonce), signature);
    }
    std::map<std::string, std::string> paid(const json& payload,
                                            const char* header = "PAYMENT-SIGNATURE") {
        auto h = x402_header(payload, header);
        h["Content-Type"] = "application/json";
        return h;
    }
    static std::map<std::string, std::string> as(const std::string& account) {
        return {{"Content-Type", "application/json"}, {"Authorization", "Bearer " + account}};
    }
    HttpResult quote(const std::map<std::string, std::string>& headers,
                     const std::string& method = "quote") {
        return api->post("/api/v1/metered/" + method, R"({"text":"hi"})", headers);
    }
    HttpResult rpc(const std::string& method, const json& request,
                   std::map<std::string, std::string> headers, bool via_proxy = true) {
        json env = {{"service", method.rfind("Billing.", 0) == 0 ? "billing" : "metered"},
                    {"method", method},
                    {"request", request}};
        return (via_proxy ? proxy : api)->post("/rpc", env.dump(), headers);
    }
    json balance(const std::string& account) {
        auto r = rpc("Billing.Balance", json::object(), as(account));
        EXPECT_EQ(r.status, 200) << r.body;
        return r.json();
    }
    void admin(const std::string& method, const json& request) {
        auto r = rpc(method, request, as("admin"));
        ASSERT_EQ(r.status, 200) << method << " " << r.body;
    }
    size_t calls(const std::string& target) {
        size_t n = 0;
        for (const auto& r : facilitator.requests()) n += r.target == target;
        return n;
    }
};

// ---- x402 -----------------------------------------------------------------------------------

TEST_F(PaymentHost, AnonymousMeteredCallGetsTheChallengeInBodyAndHeader) {
    start();
    auto r = quote({{"Content-Type", "application/json"}});
    ASSERT_EQ(r.status, 402) << r.body;
    json body = r.json();
    EXPECT_EQ(body["x402Version"], 2);
    EXPECT_TRUE(has(body.value("error", ""), "costs 2 credits")) << r.body;
    EXPECT_TRUE(has(body["resource"].value("url", ""), "/api/v1/metered/quote")) << r.body;
    ASSERT_EQ(body["accepts"].size(), 1u);
    const json& a = body["accepts"][0];
    EXPECT_EQ(a["scheme"], "exact");
    EXPECT_EQ(a["network"], "eip155:8453");
    EXPECT_EQ(a["amount"], "20000");
    EXPECT_EQ(a["asset"], kUsdc);
    EXPECT_EQ(a["payTo"], kPayTo);
    EXPECT_EQ(a["maxTimeoutSeconds"], 60);
    EXPECT_EQ(a["extra"], (json{{"name", "USD Coin"}, {"version", "2"}}));
    EXPECT_EQ(decode_header(r, "payment-required"), body);

    auto over_rpc = rpc("Metered.Quote", {{"text", "hi"}}, {{"Content-Type", "application/json"}});
    ASSERT_EQ(over_rpc.status, 402) << over_rpc.body;
    EXPECT_EQ(over_rpc.json()["accepts"][0]["amount"], "20000");
    EXPECT_EQ(decode_header(over_rpc, "payment-required"), over_rpc.json());
    EXPECT_TRUE(facilitator.requests().empty());
}

TEST_F(PaymentHost, PaidRetryIsVerifiedRunSettledAndReceipted) {
    start();
    json p = payment();
    auto r = quote(paid(p));
    ASSERT_EQ(r.status, 200) << r.body;
    json data = r.json()["data"];
    EXPECT_EQ(data["args"]["text"], "hi");
    EXPECT_EQ(data["account"], "");  // anonymous: the payer is metadata, not an account
    EXPECT_EQ(data["payer"], "0xabc0000000000000000000000000000000000001");
    json receipt = decode_header(r, "payment-response");
    EXPECT_EQ(receipt["success"], true) << r.header("payment-response");
    EXPECT_EQ(receipt["network"], "eip155:8453");
    EXPECT_TRUE(has(receipt.value("transaction", ""), "0xtx")) << receipt;
    EXPECT_EQ(decode_header(r, "x-payment-response"), receipt);

    auto seen = facilitator.requests();
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].target, "/verify");
    EXPECT_EQ(seen[1].target, "/settle");
    json verify = json::parse(seen[0].body);
    EXPECT_EQ(verify["x402Version"], 2);
    EXPECT_EQ(verify["paymentPayload"], p);
    EXPECT_EQ(verify["paymentRequirements"]["amount"], "20000");
    EXPECT_EQ(verify["paymentRequirements"]["payTo"], kPayTo);
    EXPECT_EQ(json::parse(seen[1].body), verify);

    // The same over /rpc on the proxy port.
    auto via_rpc = rpc("Metered.Quote", {{"text", "rpc"}}, paid(payment()));
    ASSERT_EQ(via_rpc.status, 200) << via_rpc.body;
    EXPECT_EQ(via_rpc.json()["args"]["text"], "rpc");
    EXPECT_EQ(decode_header(via_rpc, "payment-response")["success"], true);
    EXPECT_EQ(calls("/settle"), 2u);
}

TEST_F(PaymentHost, ReplayedPaymentIsRefused) {
    start();
    const auto headers = paid(payment());
    ASSERT_EQ(quote(headers).status, 200);
    auto again = quote(headers);
    EXPECT_EQ(again.status, 402) << again.body;
    EXPECT_TRUE(has(error_message(again), "already used (replay refused)")) << again.body;
    EXPECT_FALSE(again.header("payment-required").empty());
    auto over_rpc = rpc("Metered.Quote", json::object(), headers);
    EXPECT_EQ(over_rpc.status, 402) << over_rpc.body;
    EXPECT_EQ(calls("/verify"), 1u);
    EXPECT_EQ(calls("/settle"), 1u);
}

TEST_F(PaymentHost, InvalidPaymentIsRefusedWithTheFacilitatorsReason) {
    start();
    auto r = quote(paid(payment(kBadSignature)));
    EXPECT_EQ(r.status, 402) << r.body;
    EXPECT_TRUE(has(error_message(r), "invalid_exact_evm_payload_signature")) << r.body;
    EXPECT_EQ(calls("/verify"), 1u);
    EXPECT_EQ(calls("/settle"), 0u);

    auto garbage = quote({{"Content-Type", "application/json"}, {"PAYMENT-SIGNATURE", "%%%"}});
    EXPECT_EQ(garbage.status, 402) << garbage.body;
    EXPECT_TRUE(has(error_message(garbage), "not base64")) << garbage.body;
    json wrong_chain = payment();
    wrong_chain["accepted"]["network"] = "eip155:84532";
    auto wrong = quote(paid(wrong_chain));
    EXPECT_EQ(wrong.status, 402) << wrong.body;
    EXPECT_TRUE(has(error_message(wrong), "eip155:84532")) << wrong.body;
    EXPECT_EQ(calls("/verify"), 1u);
}

TEST_F(PaymentHost, FailingPaidCallIsVerifiedButNeverSettled) {
    start();
    const auto headers = paid(payment());
    auto r = quote(headers, "fail");
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_TRUE(r.header("payment-response").empty());
    EXPECT_EQ(calls("/verify"), 1u);
    EXPECT_EQ(calls("/settle"), 0u);
    // Nothing was settled, so the same authorization may be tried again (and fails again).
    EXPECT_EQ(quote(headers, "fail").status, 409);
    EXPECT_EQ(calls("/settle"), 0u);
}

TEST_F(PaymentHost, PaymentOnAnAccountMethodIsForbidden) {
    start();
    auto r = quote(paid(payment()), "private_quote");
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_TRUE(has(error_message(r), "needs an account")) << r.body;
    auto anonymous = quote({{"Content-Type", "application/json"}}, "private_quote");
    EXPECT_EQ(anonymous.status, 401) << anonymous.body;  // account-only methods never 402
    EXPECT_TRUE(anonymous.header("payment-required").empty());
    auto signed_in = quote(as("carol"), "private_quote");
    EXPECT_EQ(signed_in.status, 200) << signed_in.body;
    EXPECT_TRUE(facilitator.requests().empty());
}

TEST_F(PaymentHost, FreeMethodsNeverAsk) {
    start();
    auto r = quote({{"Content-Type", "application/json"}}, "free");
    EXPECT_EQ(r.status, 200) << r.body;
    auto with_payment = quote(paid(payment()), "free");
    EXPECT_EQ(with_payment.status, 200) << with_payment.body;
    EXPECT_TRUE(with_payment.header("payment-response").empty());
    // A caller cannot pose as a payer.
    auto spoof = quote({{"Content-Type", "application/json"}, {"X-Payment-Payer", "0xme"}}, "free");
    EXPECT_EQ(spoof.json()["data"]["payer"], "") << spoof.body;
    EXPECT_TRUE(facilitator.requests().empty());
}

TEST_F(PaymentHost, V1XPaymentIsAccepted) {
    start();
    json v1 = {{"x402Version", 1},
               {"scheme", "exact"},
               {"network", "base"},
               {"payload", payment()["payload"]}};
    auto r = quote(paid(v1, "X-PAYMENT"));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(decode_header(r, "x-payment-response")["success"], true);
    auto seen = facilitator.requests();
    ASSERT_EQ(seen.size(), 2u);
    json verify = json::parse(seen[0].body);
    EXPECT_EQ(verify["x402Version"], 1);
    EXPECT_EQ(verify["paymentRequirements"]["maxAmountRequired"], "20000");
    EXPECT_EQ(verify["paymentRequirements"]["network"], "base");
    EXPECT_TRUE(has(verify["paymentRequirements"].value("resource", ""), "/api/v1/metered/quote"));
    // A v1 caller's refusal comes back in the v1 shape.
    auto replay = quote(paid(v1, "X-PAYMENT"));
    EXPECT_EQ(replay.status, 402);
    EXPECT_EQ(replay.json()["x402Version"], 1);
    EXPECT_EQ(replay.json()["accepts"][0]["maxAmountRequired"], "20000");
}

TEST_F(PaymentHost, FacilitatorDownIs503NamingTheSetting) {
    start(true, unused_loopback_port());
    auto r = quote(paid(payment()));
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_TRUE(has(error_message(r), "PLATFORM_X402_FACILITATOR_URL")) << r.body;
    auto over_rpc = rpc("Metered.Quote", json::object(), paid(payment()));
    EXPECT_EQ(over_rpc.status, 503) << over_rpc.body;
    EXPECT_TRUE(has(error_message(over_rpc), "PLATFORM_X402_FACILITATOR_URL")) << over_rpc.body;
}

TEST_F(PaymentHost, WithoutX402AnonymousCallersMustSignIn) {
    start(false);
    auto r = quote({{"Content-Type", "application/json"}});
    EXPECT_EQ(r.status, 401) << r.body;
    EXPECT_TRUE(r.header("payment-required").empty());
    EXPECT_TRUE(has(error_message(r), "sign in")) << r.body;
    EXPECT_EQ(quote(paid(payment())).status, 401);
    EXPECT_EQ(quote(as("dave")).status, 200);  // the test profile's large allowance
    EXPECT_TRUE(facilitator.requests().empty());
}

// ---- credits --------------------------------------------------------------------------------

TEST_F(PaymentHost, AccountsPayWithCreditsOnlyForSuccessfulCalls) {
    start();
    admin("Billing.SetAllowance", {{"account", "alice"}, {"allowance_per_day", 0}});
    admin("Billing.AddCredit", {{"account", "alice"}, {"amount", 3}});
    json b = balance("alice");
    EXPECT_EQ(b["credit"], 3);
    EXPECT_EQ(b["allowance"], 0);
    EXPECT_EQ(b["allowance_per_day"], 0);

    auto r = quote(as("alice"));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json()["data"]["account"], "alice");
    EXPECT_EQ(balance("alice")["credit"], 1);

    auto broke = quote(as("alice"));
    EXPECT_EQ(broke.status, 402) << broke.body;
    EXPECT_EQ(error_message(broke), "needs 2 credits; you have 1 (allowance 0, credit 1)")
        << broke.body;
    EXPECT_EQ(broke.json()["error"]["code"], "payment_required")
        << broke.body;  // the surface's error form
    EXPECT_FALSE(
        broke.header("payment-required").empty());  // x402 is on: paying per call is offered
    auto broke_rpc = rpc("Metered.Quote", json::object(), as("alice"));
    EXPECT_EQ(broke_rpc.status, 402) << broke_rpc.body;
    EXPECT_TRUE(has(error_message(broke_rpc), "needs 2 credits; you have 1")) << broke_rpc.body;

    admin("Billing.AddCredit", {{"account", "alice"}, {"amount", 2}});
    EXPECT_EQ(quote(as("alice"), "fail").status, 409);  // a failing call is never charged
    EXPECT_EQ(balance("alice")["credit"], 3);
    auto via_rpc = rpc("Metered.Quote", json::object(), as("alice"));
    ASSERT_EQ(via_rpc.status, 200) << via_rpc.body;
    EXPECT_EQ(balance("alice")["credit"], 1);
    EXPECT_TRUE(facilitator.requests().empty());
}

TEST_F(PaymentHost, AllowanceIsDrawnBeforeCreditAndResetsDaily) {
    start();
    admin("Billing.SetAllowance", {{"account", "bob"}, {"allowance_per_day", 3}});
    admin("Billing.AddCredit", {{"account", "bob"}, {"amount", 5}});
    ASSERT_EQ(quote(as("bob")).status, 200);
    json b = balance("bob");
    EXPECT_EQ(b["allowance"], 1);
    EXPECT_EQ(b["credit"], 5);
    ASSERT_EQ(quote(as("bob")).status, 200);  // 1 from the allowance, 1 from credit
    b = balance("bob");
    EXPECT_EQ(b["allowance"], 0);
    EXPECT_EQ(b["credit"], 4);

    ASSERT_EQ(api->post_json("/clock/advance", {{"ms", 86400000}}).status, 200);
    b = balance("bob");
    EXPECT_EQ(b["allowance"], 3);
    EXPECT_EQ(b["credit"], 4);
    EXPECT_EQ(b["allowance_per_day"], 3);
}

TEST_F(PaymentHost, BillingAdminMethodsNeedTheAdminScope) {
    start();
    auto r = rpc("Billing.AddCredit", {{"account", "eve"}, {"amount", 100}}, as("eve"));
    EXPECT_EQ(r.status, 403) << r.body;
    r = rpc("Billing.Charge", {{"account", "eve"}, {"amount", 1}}, as("eve"));
    EXPECT_EQ(r.status, 403) << r.body;
    r = rpc("Billing.Balance", {{"account", "alice"}}, as("eve"));
    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(rpc("Billing.Balance", json::object(), {{"Content-Type", "application/json"}}).status,
              401);
    EXPECT_EQ(balance("eve")["allowance"], 1000000);  // the test profile's default
}

}  // namespace
