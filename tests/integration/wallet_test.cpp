// The wallet service (plugins/wallet/) in the real host on the `test` profile (wallet privileged,
// for the "secrets" sub-table), its chain node played by a FakeUpstream answering JSON-RPC 2.0
// batches from tests/fixtures/chain-rpc/ (outbound.providers.chain-rpc.base_url points at it):
// the address is EIP-55, the same on every ask and per account; the balance is exact (also past
// 2^64) and read with eth_chainId and balanceOf; a node of another chain, a reverted call, a failing
// or silent node, a node that is down, and no node configured are each said plainly.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "fake_upstream.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kNode = "/chain-rpc";
const std::string kUsdc = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

std::string message(const HttpResult& r) {
    auto j = json::parse(r.body, nullptr, false);
    return j.is_object() && j.contains("error") ? j["error"].value("message", r.body) : r.body;
}

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// EIP-55: a letter is upper case exactly where the Keccak-256 nibble is >= 8. Without a Keccak
// here, check the shape: 0x, 40 hex digits, both cases present (a random address has letters of
// both cases with overwhelming probability); the unit tests check the casing against vectors.
bool looks_checksummed(const std::string& a) {
    if (a.size() != 42 || a.rfind("0x", 0) != 0) return false;
    bool upper = false, low = false;
    for (char c : a.substr(2)) {
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
        upper |= c >= 'A' && c <= 'F';
        low |= c >= 'a' && c <= 'f';
    }
    return upper && low;
}

class Wallet : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() { start_with("wallet", {{"chain-rpc"}}); }
    void SetUp() override {
        up->forget();
        up->serve(kNode, FakeUpstream::fixture("chain-rpc", "balance-batch.json"));
    }
    json ok_as(const std::string& method, const std::string& who) {
        const HttpResult r = api.get("/api/v1/wallet/" + method, as(who));
        EXPECT_EQ(r.status, 200) << method << ": " << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
};

TEST_F(Wallet, TheAddressIsMadeOnceAndIsEachAccountsOwn) {
    const json first = ok_as("address", "wl-ann");
    const std::string address = first["address"];
    EXPECT_TRUE(looks_checksummed(address)) << address;
    EXPECT_EQ(first["chain_id"], 8453);
    EXPECT_EQ(first["chain"], "Base");
    EXPECT_EQ(first["token"]["contract"], kUsdc);
    EXPECT_EQ(first["token"]["symbol"], "USDC");
    EXPECT_NE(
        first["note"].get<std::string>().find("Funds sent on any other chain cannot be reached"),
        std::string::npos);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(ok_as("address", "wl-ann")["address"], address);
    EXPECT_EQ(ok_as("address", "wl-ann")["new"], false);
    const std::string bob = ok_as("address", "wl-bob")["address"];
    EXPECT_TRUE(looks_checksummed(bob)) << bob;
    EXPECT_NE(bob, address);
    EXPECT_EQ(ok_as("address", "wl-bob")["address"], bob);
    // No account, no wallet.
    EXPECT_EQ(api.get("/api/v1/wallet/address").status, 401);
    EXPECT_EQ(api.get("/api/v1/wallet/balance").status, 401);
    EXPECT_TRUE(up->requests(kNode).empty());  // the address needs no node
}

TEST_F(Wallet, TheBalanceIsExactAndAskedOfTheNodeInJsonRpc) {
    const std::string address = ok_as("address", "wl-cat")["address"];
    const json b = ok_as("balance", "wl-cat");
    EXPECT_EQ(b["balance"], "20.00009");
    EXPECT_EQ(b["raw"], "20000090");
    EXPECT_EQ(b["address"], address);
    EXPECT_EQ(b["chain_id"], 8453);
    EXPECT_EQ(b["token"], json({{"symbol", "USDC"}, {"contract", kUsdc}, {"decimals", 6}}));

    const auto seen = up->requests(kNode);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].method, "POST");
    EXPECT_NE(seen[0].header("content-type").find("application/json"), std::string::npos);
    const json batch = json::parse(seen[0].body);
    ASSERT_TRUE(batch.is_array()) << seen[0].body;
    ASSERT_EQ(batch.size(), 2u);
    EXPECT_EQ(
        batch[0],
        json(
            {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "eth_chainId"}, {"params", json::array()}}));
    EXPECT_EQ(batch[1]["jsonrpc"], "2.0");
    EXPECT_EQ(batch[1]["method"], "eth_call");
    EXPECT_EQ(batch[1]["params"][0]["to"], kUsdc);
    EXPECT_EQ(batch[1]["params"][0]["data"],
              "0x70a08231" + std::string(24, '0') + lower(address.substr(2)));
    EXPECT_EQ(batch[1]["params"][1], "latest");

    // Never cached: a second ask asks again. Past 2^64 smallest units it stays exact.
    up->serve(kNode, FakeUpstream::fixture("chain-rpc", "big-balance.json"));
    const json big = ok_as("balance", "wl-cat");
    EXPECT_EQ(big["raw"], "1180591620717411303425");
    EXPECT_EQ(big["balance"], "1180591620717411.303425");
    EXPECT_EQ(up->requests(kNode).size(), 2u);
}

TEST_F(Wallet, WhatTheNodeGetsWrongIsSaidPlainly) {
    up->serve(kNode, FakeUpstream::fixture("chain-rpc", "other-chain.json"));
    HttpResult r = api.get("/api/v1/wallet/balance", as("wl-dan"));
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_NE(message(r).find("is on chain id 1, not Base (chain id 8453)"), std::string::npos)
        << r.body;

    up->serve(kNode, FakeUpstream::fixture("chain-rpc", "reverted.json"));
    r = api.get("/api/v1/wallet/balance", as("wl-dan"));
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_NE(message(r).find("eth_call failed: error -32000: execution reverted"),
              std::string::npos)
        << r.body;

    up->serve(kNode, FakeUpstream::status(500, R"({"error":"internal"})"));
    r = api.get("/api/v1/wallet/balance", as("wl-dan"));
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_NE(message(r).find("the Base chain (chain id 8453) could not be reached"),
              std::string::npos)
        << r.body;

    up->serve(kNode, FakeUpstream::status(503, "busy"));
    r = api.get("/api/v1/wallet/balance", as("wl-dan"));
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_NE(message(r).find("could not be reached"), std::string::npos) << r.body;

    up->serve(kNode, FakeUpstream::hang());
    r = api.get("/api/v1/wallet/balance", as("wl-dan"));
    EXPECT_EQ(r.status, 504) << r.body;
    EXPECT_NE(message(r).find("could not be reached"), std::string::npos) << r.body;
}

// A node that is down: its address allowed and configured, nothing listening there.
class WalletNodeDown : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        std::string url, allow;
        {
            FakeUpstream gone;  // takes a free port, then gives it back on leaving this scope
            url = gone.url("/rpc");
            allow = gone.allow_entry();
        }
        HostProcess::Options o;
        o.profile = test_profile_with(suite_dir() + "/wallet-down.yaml",
                                      "\noutbound:\n  allow: [\"" + allow +
                                          "\"]\n  timeout_ms: 1500\n  providers:\n"
                                          "    chain-rpc:\n      base_url: \"" +
                                          url + "\"\n");
        start_host(o);
    }
};

TEST_F(WalletNodeDown, TheBalanceSaysTheChainCouldNotBeReached) {
    const HttpResult r = api.get("/api/v1/wallet/balance", as("wl-eve"));
    EXPECT_EQ(r.status, 502) << r.body;
    EXPECT_NE(message(r).find("the Base chain (chain id 8453) could not be reached"),
              std::string::npos)
        << r.body;
    // The address does not need the node.
    EXPECT_EQ(api.get("/api/v1/wallet/address", as("wl-eve")).status, 200);
}

// No node configured.
class WalletUnconfigured : public SharedHostTest {};

TEST_F(WalletUnconfigured, TheBalanceIs503NamingTheSetting) {
    const HttpResult r = api.get("/api/v1/wallet/balance", as("wl-fay"));
    EXPECT_EQ(r.status, 503) << r.body;
    EXPECT_NE(message(r).find("outbound.providers.chain-rpc.base_url is not set"),
              std::string::npos)
        << r.body;
    EXPECT_NE(message(r).find("https://mainnet.base.org"), std::string::npos) << r.body;
}

}  // namespace
