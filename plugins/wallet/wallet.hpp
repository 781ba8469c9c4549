// wallet — each account's own receiving address for a dollar stablecoin on one chain, and its
// balance (the catalogue's `wallet` service; README.md):
//
//   address  GET {}  -> the caller's address (EIP-55), created on first ask, with the chain it is
//                       for and the token it receives; funds sent on any other chain cannot be
//                       reached
//   balance  GET {}  -> the token balance of that address, read from the chain's JSON-RPC node
//                       (eth_call of balanceOf), exact
//
// The key: per account, a secp256k1 private key from the kernel's CSPRNG, kept in the plugin's
// store (collection `wallet`, record `key` of the owner) sealed by the host's "secrets" sub-table
// (AES-256-GCM under the host's secret key; `wallet` must be under privileged: in the profile).
// It never leaves the server and no method signs or sends anything: the service receives only.
//
// The chain (plugin_config.wallet): chain_id (default 8453, Base), token (default: USDC on Base or
// Ethereum; required for any other chain), symbol (USDC), decimals (6). The node is the
// operator's: outbound.providers.chain-rpc.base_url, its JSON-RPC URL (a key in the URL or
// through api_key/api_key_header). Without it, balance answers 503 naming that setting.
#pragma once

#include <cstdint>
#include <platform/sdk.hpp>
#include <string>

class Wallet {
public:
    static void describe(platform::ServiceSpec<Wallet>& s);
    explicit Wallet(const platform::Host& host) : host_(host) {}

    platform::json address(platform::Request& r);
    platform::json balance(platform::Request& r);

    // Which chain and token, from the plugin's config (defaults above).
    struct Chain {
        uint64_t id = 8453;
        std::string name;   // "Base", or "chain <id>"
        std::string token;  // EIP-55 contract address; "" when none is known or configured
        std::string symbol = "USDC";
        int decimals = 6;
        std::string public_rpc;  // a public JSON-RPC URL to suggest, or ""
    };
    Chain chain() const;

private:
    // The caller's wallet record {sealed, address, created}, made on first use; the address
    // re-derived from the opened key (503 when it cannot be opened or does not match).
    platform::json own_wallet(platform::Request& r, bool* made) const;
    const platform_secrets_api_t& secrets() const;

    platform::Host host_;
};
