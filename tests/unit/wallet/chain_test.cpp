// wallet chain: the JSON-RPC batch for a balance, the node's answers in JSON-RPC 2.0's shapes
// (replies in any order, error objects, a refused batch), and amounts kept exact past 64 bits.
#include "chain.hpp"

#include <gtest/gtest.h>

using namespace wallet;
using nlohmann::json;

namespace {

const std::string kUsdc = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const std::string kOwner = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

json ok(int id, const std::string& result) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", result}};
}

}  // namespace

TEST(Rpc, BalanceOfDataIsTheSelectorAndTheAddressInOneWord) {
    EXPECT_EQ(balance_of_data(kOwner),
              "0x70a08231000000000000000000000000"
              "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");
    const json req = balance_request(kUsdc, kOwner);
    ASSERT_TRUE(req.is_array());
    ASSERT_EQ(req.size(), 2u);
    EXPECT_EQ(
        req[0],
        json(
            {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "eth_chainId"}, {"params", json::array()}}));
    EXPECT_EQ(req[1]["method"], "eth_call");
    EXPECT_EQ(req[1]["id"], 2);
    EXPECT_EQ(req[1]["params"][0]["to"], kUsdc);
    EXPECT_EQ(req[1]["params"][0]["data"], balance_of_data(kOwner));
    EXPECT_EQ(req[1]["params"][1], "latest");
}

TEST(Rpc, RepliesAreMatchedByIdInAnyOrder) {
    const std::string word =
        "0x00000000000000000000000000000000000000000000000000000000004c4b40";  // 5,000,000
    BalanceReply r = read_balance_reply(json::array({ok(2, word), ok(1, "0x2105")}));
    EXPECT_EQ(r.chain_id, 8453u);
    EXPECT_EQ(r.raw, "5000000");
    r = read_balance_reply(json::array({ok(1, "0x1"), ok(2, "0x0")}));
    EXPECT_EQ(r.chain_id, 1u);
    EXPECT_EQ(r.raw, "0");
}

TEST(Rpc, ErrorsAndOddAnswersAreRefusedWithTheReason) {
    auto why = [](const json& answer) {
        try {
            read_balance_reply(answer);
        } catch (const RpcError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(
        why(json::array({ok(1, "0x2105"),
                         {{"jsonrpc", "2.0"},
                          {"id", 2},
                          {"error", {{"code", -32000}, {"message", "execution reverted"}}}}})),
        "eth_call failed: error -32000: execution reverted");
    EXPECT_NE(why(json::array({ok(1, "0x2105"), ok(2, "0x")})).find("no token contract"),
              std::string::npos);
    EXPECT_EQ(why(json::array({ok(1, "0x2105")})), "the node's answer has no reply with id 2");
    EXPECT_NE(why({{"jsonrpc", "2.0"},
                   {"id", nullptr},
                   {"error", {{"code", -32600}, {"message", "batch requests are not supported"}}}})
                  .find("batch requests are not supported"),
              std::string::npos);
    EXPECT_NE(why(json::array({ok(1, "0x2105"), ok(2, "12")})).find("not a hex quantity"),
              std::string::npos);
    EXPECT_EQ(why("<html>"), "the node's answer is not a JSON-RPC batch reply");
    EXPECT_EQ(why(json::array({ok(1, "0x2105"), {{"jsonrpc", "2.0"}, {"id", 2}}})),
              "eth_call answered no result");
}

TEST(Amounts, HexToDecimalIsExactBeyondDoubleAndUint64) {
    EXPECT_EQ(hex_to_decimal("0x0"), "0");
    EXPECT_EQ(hex_to_decimal("0x00"), "0");
    EXPECT_EQ(hex_to_decimal("0xf4240"), "1000000");
    EXPECT_EQ(hex_to_decimal("0xF4240"), "1000000");
    EXPECT_EQ(hex_to_decimal("0x10000000000000000"), "18446744073709551616");  // 2^64
    EXPECT_EQ(hex_to_decimal("0x20000000000001"), "9007199254740993");         // 2^53 + 1
    EXPECT_EQ(hex_to_decimal("0x" + std::string(64, 'f')),
              "115792089237316195423570985008687907853269984665640564039457584007913129639935");
    EXPECT_THROW(hex_to_decimal("0x"), RpcError);
    EXPECT_THROW(hex_to_decimal("123"), RpcError);
    EXPECT_THROW(hex_to_decimal("0x" + std::string(65, '1')), RpcError);
    EXPECT_THROW(hex_to_decimal("0x12g4"), RpcError);
}

TEST(Amounts, FormatUnitsPlacesThePointWithoutRounding) {
    EXPECT_EQ(format_units("1500000", 6), "1.5");
    EXPECT_EQ(format_units("1000000", 6), "1");
    EXPECT_EQ(format_units("7", 6), "0.000007");
    EXPECT_EQ(format_units("0", 6), "0");
    EXPECT_EQ(format_units("123456789012345678901234567890", 18), "123456789012.34567890123456789");
    EXPECT_EQ(format_units("9007199254740993", 0), "9007199254740993");
    EXPECT_EQ(format_units("000120", 2), "1.2");
}
