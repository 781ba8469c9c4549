// wallet chain — the JSON-RPC 2.0 a token balance takes, as plain functions (no I/O):
//
//   request   one batch of two calls:
//               {"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}
//               {"jsonrpc":"2.0","id":2,"method":"eth_call",
//                "params":[{"to":"<token>","data":"0x70a08231<address, left-padded to 32 bytes>"},
//                          "latest"]}
//             balanceOf(address) is the ERC-20 function whose selector is 0x70a08231 (the first
//             four bytes of Keccak-256("balanceOf(address)")); eth_chainId lets the answer say
//             which chain the node is on, so a node of another chain is refused, not believed.
//   answer    the batch's replies, matched by id in any order: {"id", "result": "0x..."} or
//             {"id", "error": {"code", "message"}}.
//
// Amounts stay exact: the uint256 result is turned into a decimal string digit by digit (never a
// double), then placed `decimals` digits from the right.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace wallet {

// ERC-20 balanceOf(address).
inline constexpr const char* kBalanceOfSelector = "0x70a08231";

// The eth_call data for balanceOf(`address`) ("0x" + 40 hex digits).
std::string balance_of_data(const std::string& address);

// The batch asking the chain id and the token balance of `address` at `token`.
nlohmann::json balance_request(const std::string& token, const std::string& address);

// What the node said.
struct BalanceReply {
    uint64_t chain_id = 0;
    std::string raw;  // the balance in the token's smallest unit, decimal digits
};

// A node's answer refused, with the reason.
struct RpcError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Reads the node's answer to balance_request; throws RpcError saying what is wrong (an error
// object, a missing reply, a result that is not a quantity).
BalanceReply read_balance_reply(const nlohmann::json& answer);

// The decimal digits of a hex quantity of at most 256 bits ("0x" + 1 to 64 hex digits, either
// case): "0x0f4240" -> "1000000". Throws RpcError for anything else (including "0x").
std::string hex_to_decimal(const std::string& hex);

// `raw` (decimal digits) as an amount with `decimals` digits after the point, trailing zeros of the
// fraction dropped: ("1500000", 6) -> "1.5", ("7", 6) -> "0.000007", ("0", 6) -> "0".
std::string format_units(const std::string& raw, int decimals);

}  // namespace wallet
