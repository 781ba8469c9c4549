// x402_payer.cpp — see x402_payer.hpp.
#include "x402_payer.hpp"

#include <atomic>
#include <cstdint>

using nlohmann::json;

namespace platform::test {

std::string base64(const std::string& in) {
    static const char* d = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
        for (int s : {18, 12, 6, 0}) out += d[(v >> s) & 63];
    }
    if (i < in.size()) {
        uint32_t v = uint8_t(in[i]) << 16;
        if (i + 1 < in.size()) v |= uint8_t(in[i + 1]) << 8;
        out += d[(v >> 18) & 63];
        out += d[(v >> 12) & 63];
        out += i + 1 < in.size() ? d[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::string unbase64(const std::string& in) {
    std::string out;
    uint32_t acc = 0;
    int bits = 0;
    for (char c : in) {
        int v = c >= 'A' && c <= 'Z'   ? c - 'A'
                : c >= 'a' && c <= 'z' ? c - 'a' + 26
                : c >= '0' && c <= '9' ? c - '0' + 52
                : c == '+' || c == '-' ? 62
                : c == '/' || c == '_' ? 63
                                       : -1;
        if (v < 0) continue;
        acc = (acc << 6) | uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += char((acc >> bits) & 0xff);
        }
    }
    return out;
}

json x402_payment(const json& accepted, const std::string& from, const std::string& nonce,
                  const std::string& signature) {
    return {{"x402Version", 2},
            {"accepted", accepted},
            {"payload",
             {{"signature", signature},
              {"authorization",
               {{"from", from},
                {"to", accepted.value("payTo", "")},
                {"value", accepted.value("amount", "")},
                {"validAfter", "0"},
                {"validBefore", "99999999999"},
                {"nonce", nonce}}}}}};
}

std::map<std::string, std::string> x402_header(const json& payment, const char* header) {
    return {{header, base64(payment.dump())}};
}

std::string fake_facilitator(const LoopbackServer::Request& r) {
    json body = json::parse(r.body, nullptr, false);
    if (!body.is_object() || !body.contains("paymentPayload"))
        return LoopbackServer::reply(400, R"({"error":"bad request"})");
    const json& p = body["paymentPayload"]["payload"];
    std::string payer = p.contains("authorization") ? p["authorization"].value("from", "") : "";
    if (r.target == "/verify") {
        if (p.value("signature", "") == kBadSignature)
            return LoopbackServer::reply(
                200, json{{"isValid", false},
                          {"invalidReason", "invalid_exact_evm_payload_signature"},
                          {"payer", payer}}
                         .dump());
        return LoopbackServer::reply(200, json{{"isValid", true}, {"payer", payer}}.dump());
    }
    if (r.target == "/settle") {
        static std::atomic<int> n{0};
        return LoopbackServer::reply(
            200, json{{"success", true},
                      {"payer", payer},
                      {"transaction", "0xtx" + std::to_string(++n)},
                      {"network", body["paymentRequirements"].value("network", "")}}
                     .dump());
    }
    return LoopbackServer::reply(404, "not here");
}

std::string error_message(const HttpResult& r) {
    auto j = json::parse(r.body, nullptr, false);
    if (j.is_object() && j.contains("error") && j["error"].is_object())
        return j["error"].value("message", r.body);
    if (j.is_object() && j.contains("error") && j["error"].is_string())
        return j["error"].get<std::string>();
    if (j.is_object() && j.contains("Detail") && j["Detail"].is_string())
        return j["Detail"].get<std::string>();
    return r.body;
}

}  // namespace platform::test
