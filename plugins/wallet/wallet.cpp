#include "wallet.hpp"

#include <map>
#include <stdexcept>

#include "chain.hpp"
#include "common/upstream/upstream.hpp"
#include "keys.hpp"

namespace schema = platform::schema;

using platform::Code;
using platform::Error;
using platform::json;

namespace {

constexpr const char* kCollection = "wallet";
constexpr const char* kRecord = "key";
constexpr const char* kProvider = "chain-rpc";

struct KnownChain {
    const char* name;
    const char* usdc;  // Circle's USDC contract on it, "" when not listed here
    const char* public_rpc;
};

// Chains named by id; USDC contracts as Circle publishes them.
const std::map<uint64_t, KnownChain>& known_chains() {
    static const std::map<uint64_t, KnownChain> chains = {
        {1, {"Ethereum", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", ""}},
        {8453, {"Base", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "https://mainnet.base.org"}},
    };
    return chains;
}

const schema::Object kConfigSchema =
    schema::object()
        .prop("chain_id",
              schema::integer().min(1).doc("The chain's id (EIP-155); default 8453, Base"))
        .str("token")
        .pattern("^0x[0-9a-fA-F]{40}$")
        .doc("The stablecoin's contract address; default USDC on Base (8453) or Ethereum (1)")
        .str("symbol")
        .min_len(1)
        .max_len(16)
        .doc("The token's symbol; default USDC")
        .prop("decimals", schema::integer().min(0).max(36).doc("The token's decimals; default 6"));

std::string chain_label(const Wallet::Chain& c) {
    return c.name + " (chain id " + std::to_string(c.id) + ")";
}

}  // namespace

void Wallet::describe(platform::ServiceSpec<Wallet>& s) {
    s.id("wallet")
        .version("1.0.0")
        .service("v1.wallet")
        .summary("Each account's own stablecoin receiving address on one chain, and its balance")
        .config_schema(kConfigSchema);
    s.get("address")
        .title("Your wallet address")
        .description(
            "Your own address for receiving the stablecoin (USDC unless the operator chose "
            "another) on one chain (Base, chain id 8453, unless the operator chose another), "
            "created on your first ask and the same ever after. Funds sent on any other chain, or "
            "any other token, cannot be reached. The key stays on the server, sealed; nothing is "
            "ever sent from it.")
        .access(platform::Access::account)
        .read_only()
        .handler(&Wallet::address);
    s.get("balance")
        .title("Your wallet balance")
        .description(
            "The stablecoin balance of your address (wallet/address), read from the chain's node "
            "now: exact, in the token's units and in its smallest unit (raw). Says plainly when "
            "the chain could not be reached.")
        .access(platform::Access::account)
        .read_only()
        .open_world()
        .handler(&Wallet::balance);
}

Wallet::Chain Wallet::chain() const {
    Chain c;
    const json cfg = host_.config();
    auto get = [&](const char* name) -> json {
        return cfg.is_object() && cfg.contains(name) ? cfg[name] : json();
    };
    if (get("chain_id").is_number_integer() && get("chain_id").get<int64_t>() > 0)
        c.id = get("chain_id").get<uint64_t>();
    auto known = known_chains().find(c.id);
    c.name = known != known_chains().end() ? known->second.name : "chain " + std::to_string(c.id);
    if (known != known_chains().end()) {
        c.token = known->second.usdc;
        c.public_rpc = known->second.public_rpc;
    }
    if (get("token").is_string())
        c.token = wallet::checksum_address(get("token").get<std::string>());
    if (get("symbol").is_string()) c.symbol = get("symbol").get<std::string>();
    if (get("decimals").is_number_integer()) c.decimals = get("decimals").get<int>();
    return c;
}

const platform_secrets_api_t& Wallet::secrets() const {
    auto* s = host_.service<platform_secrets_api_t>(PLATFORM_SERVICE_SECRETS, 1);
    if (!s)
        throw platform::unavailable(
            "wallet: keeping keys sealed needs the host's \"secrets\" sub-table: list wallet under "
            "privileged: in the profile");
    return *s;
}

json Wallet::own_wallet(platform::Request& r, bool* made) const {
    const auto& sec = secrets();
    auto keys = r.owned(kCollection);
    *made = false;
    auto stored = keys.get(kRecord);
    if (!stored) {
        const std::string key = wallet::generate_private_key();
        const std::string hex = wallet::to_hex(key);
        std::string sealed;
        platform::check(sec.seal(host_.ctx(), platform::view(hex), platform::append_sink, &sealed),
                        "wallet: sealing the new key failed");
        const json rec = {{"sealed", sealed},
                          {"address", wallet::address_of(key)},
                          {"created", platform::rfc3339(host_.now_ms())}};
        bool written = false;
        try {
            written = keys.insert_if_absent(kRecord, rec);
        } catch (const Error& e) {
            if (e.code() != Code::unsupported) throw;
            keys.put(kRecord, rec);  // a store without compare-and-set: one process writes
            written = true;
        }
        *made = written;
        if (written)
            stored = rec;
        else
            stored = keys.get(kRecord);  // a concurrent first ask: the first one wins
        if (!stored) throw platform::internal("wallet: the new key was not kept");
    }
    std::string hex;
    if (sec.open(host_.ctx(), platform::view(stored->value("sealed", "")), platform::append_sink,
                 &hex) != PLATFORM_OK)
        throw platform::unavailable(
            "wallet: your key cannot be opened (was the host's secret key changed?); the address "
            "it made cannot be used until it can");
    std::string address;
    try {
        address = wallet::address_of(wallet::from_hex(hex));
    } catch (const std::invalid_argument&) {
        throw platform::unavailable("wallet: your stored key is not a secp256k1 key");
    }
    if (address != stored->value("address", ""))
        throw platform::unavailable(
            "wallet: your stored key does not make the address recorded with it; refusing to show "
            "either");
    return *stored;
}

json Wallet::address(platform::Request& r) {
    const Chain c = chain();
    bool made = false;
    const json w = own_wallet(r, &made);
    json token = {{"symbol", c.symbol}, {"decimals", c.decimals}};
    token["contract"] = c.token.empty() ? json(nullptr) : json(c.token);
    return {{"address", w["address"]},
            {"chain_id", c.id},
            {"chain", c.name},
            {"token", token},
            {"created", w["created"]},
            {"new", made},
            {"note", "Send only " + c.symbol + " on " + chain_label(c) +
                         " to this address. Funds sent on any other chain cannot be reached."}};
}

json Wallet::balance(platform::Request& r) {
    const Chain c = chain();
    bool made = false;
    const json w = own_wallet(r, &made);
    const std::string address = w["address"];
    if (c.token.empty())
        throw platform::unavailable(
            "the balance cannot be read: plugin_config.wallet.token is not set (no stablecoin "
            "contract is known for " +
            chain_label(c) + ")");
    const std::string where = "the " + c.name + " chain (chain id " + std::to_string(c.id) + ")";
    common::upstream::Provider p{kProvider, "the " + c.name + " JSON-RPC node", c.public_rpc,
                                 common::upstream::kNoCache};
    common::upstream::Upstream node(host_, p);
    common::upstream::Options o;
    o.method = "POST";
    o.content_type = "application/json";
    o.body = wallet::balance_request(c.token, address).dump();
    o.max_bytes = 64 * 1024;
    json answer;
    try {
        answer = node.get_json("", o);
    } catch (const Error& e) {
        std::string why = e.what();
        if (why.find(".base_url is not set") != std::string::npos)
            why = "outbound.providers." + std::string(kProvider) +
                  ".base_url is not set: the operator sets it to the JSON-RPC URL of a " + c.name +
                  " node" +
                  (c.public_rpc.empty() ? "" : " (the public one is " + c.public_rpc + ")");
        const bool read = why.find("malformed") != std::string::npos;
        throw Error(e.code(),
                    where + (read ? " could not be read: " : " could not be reached: ") + why);
    }
    wallet::BalanceReply got;
    try {
        got = wallet::read_balance_reply(answer);
    } catch (const wallet::RpcError& e) {
        throw Error(Code::bad_gateway, where +
                                           " could not be read: the node at outbound.providers." +
                                           std::string(kProvider) + " answered, but " + e.what());
    }
    if (got.chain_id != c.id)
        throw Error(Code::bad_gateway,
                    "the node at outbound.providers." + std::string(kProvider) +
                        " is on chain id " + std::to_string(got.chain_id) + ", not " +
                        chain_label(c) +
                        ": its balance would be of another chain, so none is given");
    return {{"address", address},
            {"chain_id", c.id},
            {"chain", c.name},
            {"token", {{"symbol", c.symbol}, {"contract", c.token}, {"decimals", c.decimals}}},
            {"balance", wallet::format_units(got.raw, c.decimals)},
            {"raw", got.raw},
            {"as_of", platform::rfc3339(host_.now_ms())},
            {"block", "latest"}};
}

PLATFORM_SERVICE(Wallet)
