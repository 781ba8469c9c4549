#include "chain.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace wallet {

using nlohmann::json;

std::string balance_of_data(const std::string& address) {
    std::string hex = address.substr(address.rfind("0x", 0) == 0 ? 2 : 0);
    std::transform(hex.begin(), hex.end(), hex.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return kBalanceOfSelector + std::string(64 - hex.size(), '0') + hex;
}

json balance_request(const std::string& token, const std::string& address) {
    return json::array(
        {{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "eth_chainId"}, {"params", json::array()}},
         {{"jsonrpc", "2.0"},
          {"id", 2},
          {"method", "eth_call"},
          {"params", {{{"to", token}, {"data", balance_of_data(address)}}, "latest"}}}});
}

std::string hex_to_decimal(const std::string& hex) {
    if (hex.size() < 3 || hex[0] != '0' || (hex[1] != 'x' && hex[1] != 'X'))
        throw RpcError("\"" + hex.substr(0, 80) + "\" is not a hex quantity");
    if (hex.size() > 66) throw RpcError("a quantity of more than 256 bits");
    // Little-endian base-10^9 limbs: each hex digit multiplies by 16 and adds.
    std::vector<uint32_t> limbs{0};
    for (size_t i = 2; i < hex.size(); ++i) {
        const char c = hex[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) throw RpcError("\"" + hex.substr(0, 80) + "\" is not a hex quantity");
        uint64_t carry = static_cast<uint64_t>(d);
        for (auto& limb : limbs) {
            const uint64_t v = static_cast<uint64_t>(limb) * 16 + carry;
            limb = static_cast<uint32_t>(v % 1000000000);
            carry = v / 1000000000;
        }
        if (carry) limbs.push_back(static_cast<uint32_t>(carry));
    }
    std::string out = std::to_string(limbs.back());
    for (size_t i = limbs.size() - 1; i-- > 0;) {
        const std::string part = std::to_string(limbs[i]);
        out += std::string(9 - part.size(), '0') + part;
    }
    return out;
}

std::string format_units(const std::string& raw, int decimals) {
    std::string digits = raw;
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
    if (digits.empty()) return "0";
    if (decimals <= 0) return digits;
    const size_t d = static_cast<size_t>(decimals);
    if (digits.size() <= d) digits = std::string(d + 1 - digits.size(), '0') + digits;
    std::string whole = digits.substr(0, digits.size() - d);
    std::string fraction = digits.substr(digits.size() - d);
    fraction.erase(fraction.find_last_not_of('0') + 1);
    return fraction.empty() ? whole : whole + "." + fraction;
}

namespace {

// The reply with `id` in a batch answer (or the answer itself when it is one object with that id).
const json& reply_with(const json& answer, int id) {
    if (answer.is_object()) {
        // A node that refuses the whole batch answers one error object with id null.
        if (answer.contains("error")) {
            const json& e = answer["error"];
            throw RpcError("the node refused the request: " +
                           (e.is_object() ? e.value("message", e.dump()) : e.dump()));
        }
        throw RpcError("the node answered one object to a batch of two calls");
    }
    if (!answer.is_array()) throw RpcError("the node's answer is not a JSON-RPC batch reply");
    for (const auto& r : answer)
        if (r.is_object() && r.contains("id") && r["id"].is_number_integer() && r["id"] == id)
            return r;
    throw RpcError("the node's answer has no reply with id " + std::to_string(id));
}

std::string result_of(const json& reply, const std::string& method) {
    if (reply.contains("error") && !reply["error"].is_null()) {
        const json& e = reply["error"];
        std::string why = e.is_object() && e.contains("message") && e["message"].is_string()
                              ? e["message"].get<std::string>()
                              : e.dump();
        if (e.is_object() && e.contains("code") && e["code"].is_number_integer())
            why = "error " + std::to_string(e["code"].get<int64_t>()) + ": " + why;
        throw RpcError(method + " failed: " + why);
    }
    if (!reply.contains("result") || !reply["result"].is_string())
        throw RpcError(method + " answered no result");
    return reply["result"].get<std::string>();
}

}  // namespace

BalanceReply read_balance_reply(const json& answer) {
    BalanceReply out;
    const std::string chain = hex_to_decimal(result_of(reply_with(answer, 1), "eth_chainId"));
    if (chain.size() > 19) throw RpcError("eth_chainId answered a chain id out of range");
    out.chain_id = std::stoull(chain);
    const std::string result = result_of(reply_with(answer, 2), "eth_call");
    if (result == "0x")
        throw RpcError(
            "eth_call answered nothing (\"0x\"): there is no token contract at that address on "
            "this chain");
    out.raw = hex_to_decimal(result);
    return out;
}

}  // namespace wallet
