// The wallet's handlers in the SDK's fake host: the address is made once per account, kept sealed
// (never the key in clear), the same on every ask and different between accounts; balance asks
// the node (on_fetch) for the chain id and balanceOf and answers exactly, refusing a node of
// another chain and naming what failed.
#include <gtest/gtest.h>

#include "../support/plugin_under_test.hpp"
#include "keys.hpp"

namespace {

using namespace plugin_test;

const std::string kUsdc = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

class WalletHandlers : public ::testing::Test {
protected:
    WalletHandlers() : plugin(host.load(platform_plugin_entry)) {
        host.on_fetch = [this](const platform_http_request_t& req) {
            seen.push_back(json::parse(platform::copy(req.body)));
            providers.push_back(platform::copy(req.provider));
            FakeHost::FakeHttp r;
            r.code = node_code;
            r.status = 200;
            r.body = node_body;
            r.error = node_code == PLATFORM_OK ? "" : "connection refused";
            return r;
        };
    }
    // A batch reply: chain id and balance word.
    static std::string batch(const std::string& chain, const std::string& balance) {
        return json::array({{{"jsonrpc", "2.0"}, {"id", 1}, {"result", chain}},
                            {{"jsonrpc", "2.0"}, {"id", 2}, {"result", balance}}})
            .dump();
    }
    FakeHost host;
    FakePlugin plugin;
    platform_status_t node_code = PLATFORM_OK;
    std::string node_body = batch("0x2105", "0x" + std::string(58, '0') + "0f4240");
    std::vector<json> seen;
    std::vector<std::string> providers;
};

TEST_F(WalletHandlers, AnAddressIsMadeOnceAndKeptSealed) {
    const json first = ok_json(plugin.call("address", {}, "ann"));
    const std::string address = first["address"];
    EXPECT_TRUE(wallet::valid_address(address)) << address;
    EXPECT_EQ(wallet::checksum_address(address), address);
    EXPECT_EQ(first["new"], true);
    EXPECT_EQ(first["chain_id"], 8453);
    EXPECT_EQ(first["chain"], "Base");
    EXPECT_EQ(first["token"], json({{"symbol", "USDC"}, {"decimals", 6}, {"contract", kUsdc}}));
    EXPECT_NE(first["note"].get<std::string>().find("any other chain cannot be reached"),
              std::string::npos);
    const json again = ok_json(plugin.call("address", {}, "ann"));
    EXPECT_EQ(again["address"], address);
    EXPECT_EQ(again["new"], false);
    EXPECT_EQ(again["created"], first["created"]);
    const json bob = ok_json(plugin.call("address", {}, "bob"));
    EXPECT_NE(bob["address"], address);

    // In the store: the key sealed, the address beside it; the key opens to that address.
    ASSERT_EQ(host.store.count("wallet/ann/key"), 1u);
    const std::string rec = host.store["wallet/ann/key"].value;
    const json stored = json::parse(rec);
    const std::string sealed = stored["sealed"];
    ASSERT_EQ(sealed.rfind("fake-sealed:", 0), 0u) << sealed;
    std::string hex;
    for (size_t i = 12; i + 1 < sealed.size(); i += 2)
        hex += static_cast<char>(std::stoi(sealed.substr(i, 2), nullptr, 16));
    EXPECT_EQ(hex.size(), 64u);
    EXPECT_EQ(wallet::address_of(wallet::from_hex(hex)), address);
    EXPECT_EQ(rec.find(hex), std::string::npos) << "the key is in clear";
}

TEST_F(WalletHandlers, AKeyThatCannotBeOpenedIsNotShown) {
    ok_json(plugin.call("address", {}, "ann"));
    json rec = json::parse(host.store["wallet/ann/key"].value);
    rec["sealed"] = "sealed-by-another-host";
    host.store["wallet/ann/key"].value = rec.dump();
    const Reply r = plugin.call("address", {}, "ann");
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE) << r.body;
    EXPECT_NE(r.body.find("cannot be opened"), std::string::npos) << r.body;
}

TEST_F(WalletHandlers, BalanceAsksTheNodeForTheChainAndBalanceOf) {
    const std::string address = ok_json(plugin.call("address", {}, "ann"))["address"];
    const json b = ok_json(plugin.call("balance", {}, "ann"));
    EXPECT_EQ(b["balance"], "1");
    EXPECT_EQ(b["raw"], "1000000");
    EXPECT_EQ(b["address"], address);
    EXPECT_EQ(b["token"]["contract"], kUsdc);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(providers[0], "chain-rpc");
    EXPECT_EQ(seen[0][0]["method"], "eth_chainId");
    EXPECT_EQ(seen[0][1]["method"], "eth_call");
    std::string lower = address.substr(2);
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(seen[0][1]["params"][0]["data"], "0x70a08231" + std::string(24, '0') + lower);
    // A balance above 2^64 smallest units stays exact.
    node_body =
        batch("0x2105", "0x0000000000000000000000000000000000000000000000056bc75e2d63100001");
    EXPECT_EQ(ok_json(plugin.call("balance", {}, "ann"))["raw"], "100000000000000000001");
}

TEST_F(WalletHandlers, ANodeOfAnotherChainOrAFailedOneIsSaidPlainly) {
    node_body = batch("0x1", "0x0");
    Reply r = plugin.call("balance", {}, "ann");
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.body.find("is on chain id 1, not Base (chain id 8453)"), std::string::npos)
        << r.body;
    node_code = PLATFORM_BAD_GATEWAY;
    r = plugin.call("balance", {}, "ann");
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.body.find("the Base chain (chain id 8453) could not be reached"), std::string::npos)
        << r.body;
    node_code = PLATFORM_OK;
    node_body =
        R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}})";
    r = plugin.call("balance", {}, "ann");
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.body.find("batch too large"), std::string::npos) << r.body;
}

TEST(WalletConfig, AnotherChainNeedsItsTokenAndNamesTheSetting) {
    FakeHost host;
    FakePlugin plugin = host.load(platform_plugin_entry, {{"chain_id", 84532}});
    const json a = ok_json(plugin.call("address", {}, "ann"));
    EXPECT_EQ(a["chain"], "chain 84532");
    EXPECT_EQ(a["token"]["contract"], nullptr);
    const Reply r = plugin.call("balance", {}, "ann");
    EXPECT_EQ(r.code, PLATFORM_UNAVAILABLE);
    EXPECT_NE(r.body.find("plugin_config.wallet.token"), std::string::npos) << r.body;

    FakeHost other;
    FakePlugin configured =
        other.load(platform_plugin_entry, {{"chain_id", 84532},
                                           {"token", "0x036cbd53842c5426634e7929541ec2318f3dcf7e"},
                                           {"decimals", 2},
                                           {"symbol", "TEST"}});
    const json t = ok_json(configured.call("address", {}, "ann"))["token"];
    EXPECT_EQ(t["contract"], "0x036CbD53842c5426634e7929541eC2318f3dCF7e");  // EIP-55 case
    EXPECT_EQ(t["decimals"], 2);
    EXPECT_EQ(t["symbol"], "TEST");
}

}  // namespace
