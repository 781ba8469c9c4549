// x402 encoding (payment.hpp): PaymentRequired v2 (and v1), base64 both alphabets, payload
// decoding, requirement matching, replay keys. See docs/identity.md, "Payment".
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <platform/host/core/payment.hpp>
#include <platform/sdk/text.hpp>

namespace platform::host {

using nlohmann::json;

namespace x402 {

namespace {
using platform::lower;
std::string str_field(const json& o, const char* key) {
    if (!o.is_object()) return "";
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : "";
}
}  // namespace

std::string caip2(const std::string& network) {
    const std::string n = lower(network);
    if (n == "base") return "eip155:8453";
    if (n == "base-sepolia") return "eip155:84532";
    return network;
}

std::string v1_network(const std::string& network) {
    const std::string n = caip2(network);
    if (n == "eip155:8453") return "base";
    if (n == "eip155:84532") return "base-sepolia";
    return network;
}

std::string amount(uint64_t price, int decimals) {
    if (price == 0) return "0";
    std::string out = std::to_string(price);
    if (decimals >= 2) return out + std::string(static_cast<size_t>(decimals - 2), '0');
    // Fewer than 2 decimals: divide, rounding down (an asset that coarse cannot price a credit).
    const size_t drop = static_cast<size_t>(2 - decimals);
    if (out.size() <= drop) return "0";
    return out.substr(0, out.size() - drop);
}

json requirement(const PaymentSettings& s, uint64_t price) {
    return {{"scheme", "exact"},
            {"network", caip2(s.network)},
            {"amount", amount(price, s.decimals)},
            {"asset", s.asset},
            {"payTo", s.pay_to},
            {"maxTimeoutSeconds", s.max_timeout_seconds},
            {"extra", s.extra}};
}

json requirement_v1(const PaymentSettings& s, uint64_t price, const Resource& r) {
    return {{"scheme", "exact"},
            {"network", v1_network(s.network)},
            {"maxAmountRequired", amount(price, s.decimals)},
            {"asset", s.asset},
            {"payTo", s.pay_to},
            {"resource", r.url},
            {"description", r.description},
            {"mimeType", r.mime_type},
            {"outputSchema", nullptr},
            {"maxTimeoutSeconds", s.max_timeout_seconds},
            {"extra", s.extra}};
}

json payment_required(const PaymentSettings& s, uint64_t price, const Resource& r,
                      const std::string& error) {
    json resource = {{"url", r.url}, {"description", r.description}, {"mimeType", r.mime_type}};
    return {{"x402Version", 2},
            {"error", error},
            {"resource", resource},
            {"accepts", json::array({requirement(s, price)})}};
}

json payment_required_v1(const PaymentSettings& s, uint64_t price, const Resource& r,
                         const std::string& error) {
    return {{"x402Version", 1},
            {"error", error},
            {"accepts", json::array({requirement_v1(s, price, r)})}};
}

std::optional<json> decode_payment(std::string_view header, std::string* error) {
    auto fail = [&](const std::string& why) -> std::optional<json> {
        if (error) *error = why;
        return std::nullopt;
    };
    if (header.empty()) return fail("the payment header is empty");
    auto bytes = base64_decode(header);
    if (!bytes) return fail("the payment header is not base64");
    json payload = json::parse(*bytes, nullptr, false);
    if (!payload.is_object())
        return fail("the payment header is not base64 of a JSON object (a PaymentPayload)");
    if (!payload.contains("payload") || !payload["payload"].is_object())
        return fail("the PaymentPayload has no `payload` object (signature and authorization)");
    return payload;
}

int payload_version(const json& payload, int fallback) {
    auto it = payload.find("x402Version");
    if (it != payload.end() && it->is_number_integer()) return it->get<int>();
    return fallback;
}

std::optional<json> match(const json& payload, const json& accepts, std::string* why) {
    // v2 names the chosen requirement in `accepted`; v1 puts scheme and network at the top.
    const json& chosen = payload.contains("accepted") && payload["accepted"].is_object()
                             ? payload["accepted"]
                             : payload;
    const std::string scheme = str_field(chosen, "scheme"),
                      network = caip2(str_field(chosen, "network"));
    const std::string asset = lower(str_field(chosen, "asset"));
    std::string offered;
    for (const auto& a : accepts) {
        const std::string a_network = caip2(str_field(a, "network")),
                          a_asset = str_field(a, "asset");
        offered += (offered.empty() ? "" : ", ") + a_network + " " + a_asset;
        if (!scheme.empty() && scheme != str_field(a, "scheme")) continue;
        if (network != a_network) continue;
        if (!asset.empty() && asset != lower(a_asset)) continue;
        return a;
    }
    if (why)
        *why = "the payment is for " + (network.empty() ? std::string("no network") : network) +
               (asset.empty() ? "" : " " + asset) + " (scheme " + (scheme.empty() ? "?" : scheme) +
               "); this server accepts exact on " + offered;
    return std::nullopt;
}

std::string sha256_hex(std::string_view bytes) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr);
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < len; ++i) {
        out += hex[md[i] >> 4];
        out += hex[md[i] & 15];
    }
    return out;
}

namespace {
const json* authorization(const json& payload) {
    auto p = payload.find("payload");
    if (p == payload.end() || !p->is_object()) return nullptr;
    auto a = p->find("authorization");
    return a != p->end() && a->is_object() ? &*a : nullptr;
}
}  // namespace

std::string replay_key(const json& payload) {
    if (const json* a = authorization(payload)) {
        std::string nonce = str_field(*a, "nonce");
        if (!nonce.empty()) return "nonce:" + lower(nonce);
    }
    return "sha256:" + sha256_hex(payload.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::string payer_of(const json& payload) {
    const json* a = authorization(payload);
    return a ? lower(str_field(*a, "from")) : "";
}

}  // namespace x402

PaymentSettings effective_payment_settings(PaymentSettings s,
                                           const std::function<const char*(const char*)>& env) {
    auto get = [&](const char* name) -> std::string {
        const char* v = env ? env(name) : std::getenv(name);
        return v ? v : "";
    };
    if (auto v = get("PLATFORM_X402_PAY_TO"); !v.empty()) s.pay_to = v;
    if (auto v = get("PLATFORM_X402_FACILITATOR_URL"); !v.empty()) s.facilitator_url = v;
    if (auto v = get("PLATFORM_X402_NETWORK"); !v.empty()) s.network = v;
    s.network = x402::caip2(s.network);
    while (!s.facilitator_url.empty() && s.facilitator_url.back() == '/')
        s.facilitator_url.pop_back();
    return s;
}

}  // namespace platform::host
