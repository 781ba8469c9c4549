// x402_payer.hpp — the paying side of x402 for the suites that call metered methods (payment,
// web, browser), and a fake facilitator that verifies and settles in the real format:
//
//   LoopbackServer facilitator{fake_facilitator};           // PLATFORM_X402_FACILITATOR_URL
//   json challenge = json::parse(unbase64(r.header("PAYMENT-REQUIRED")));
//   auto paid = api.get(url, x402_header(x402_payment(challenge["accepts"][0], kPayer, "0x1")));
//
// Nothing here signs anything: the fake facilitator accepts every signature but kBadSignature.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "../../unit/outbound/loopback_server.hpp"
#include "http_client.hpp"

namespace platform::test {

// The signature the fake facilitator calls invalid (invalid_exact_evm_payload_signature).
inline constexpr const char* kBadSignature = "0xbad";

// Standard base64 with padding; unbase64 also reads the URL-safe alphabet and skips padding.
std::string base64(const std::string& bytes);
std::string unbase64(const std::string& text);

// A v2 PaymentPayload for one requirement of a challenge (`accepted`, as the challenge lists it):
// an EIP-3009 authorization from `from` to its payTo for its amount, with `nonce`.
nlohmann::json x402_payment(const nlohmann::json& accepted, const std::string& from,
                            const std::string& nonce, const std::string& signature = "0xsig");

// The request header carrying `payment` (v2 PAYMENT-SIGNATURE; v1 clients send X-PAYMENT).
std::map<std::string, std::string> x402_header(const nlohmann::json& payment,
                                               const char* header = "PAYMENT-SIGNATURE");

// A facilitator's /verify and /settle: valid unless signed kBadSignature; settling answers a
// fresh transaction id. Anything else is 404, a body without paymentPayload 400.
std::string fake_facilitator(const LoopbackServer::Request& r);

// The message of an error answer in either surface's form ({"error": {"message"}},
// {"error": "..."} or micro's {"Detail"}), else the body.
std::string error_message(const HttpResult& r);

}  // namespace platform::test
