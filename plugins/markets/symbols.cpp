#include "symbols.hpp"

#include <platform/sdk.hpp>

#include "ecb.hpp"

namespace markets {

namespace {

Instrument coin(const char* symbol, const char* name, const char* id) {
    return {symbol, name, "crypto", "coingecko", id, "daily", 1, "per coin"};
}
Instrument stock(const char* symbol, const char* name) {
    return {symbol, name, "stocks", "alpha-vantage", symbol, "daily", 1, "per share"};
}
Instrument series(const char* symbol, const char* name, const char* category, const char* function,
                  const char* interval, double divisor, const char* unit) {
    return {symbol, name, category, "alpha-vantage", function, interval, divisor, unit};
}
Instrument stooq(const char* symbol, const char* name, const char* category, const char* id,
                 double divisor, const char* unit) {
    return {symbol, name, category, "stooq", id, "daily", divisor, unit};
}

// Stooq quotes CBOT grain futures in US cents a bushel; the answer is in dollars.
constexpr const char* kCents = "per bushel (Stooq quotes US cents a bushel; given here in dollars)";

const std::vector<Instrument>& table() {
    static const std::vector<Instrument> t = {
        coin("BTC", "Bitcoin", "bitcoin"),
        coin("ETH", "Ethereum", "ethereum"),
        coin("USDT", "Tether", "tether"),
        coin("BNB", "BNB", "binancecoin"),
        coin("SOL", "Solana", "solana"),
        coin("USDC", "USD Coin", "usd-coin"),
        coin("XRP", "XRP", "ripple"),
        coin("DOGE", "Dogecoin", "dogecoin"),
        coin("ADA", "Cardano", "cardano"),
        coin("TRX", "TRON", "tron"),
        coin("TON", "Toncoin", "the-open-network"),
        coin("AVAX", "Avalanche", "avalanche-2"),
        coin("SHIB", "Shiba Inu", "shiba-inu"),
        coin("DOT", "Polkadot", "polkadot"),
        coin("LINK", "Chainlink", "chainlink"),
        coin("BCH", "Bitcoin Cash", "bitcoin-cash"),
        coin("LTC", "Litecoin", "litecoin"),
        coin("XLM", "Stellar", "stellar"),
        coin("UNI", "Uniswap", "uniswap"),
        coin("DAI", "Dai", "dai"),
        coin("ATOM", "Cosmos Hub", "cosmos"),
        coin("XMR", "Monero", "monero"),
        coin("ETC", "Ethereum Classic", "ethereum-classic"),
        coin("POL", "POL (ex-MATIC)", "polygon-ecosystem-token"),
        stock("AAPL", "Apple"),
        stock("MSFT", "Microsoft"),
        stock("NVDA", "NVIDIA"),
        stock("AMZN", "Amazon"),
        stock("GOOGL", "Alphabet (class A)"),
        stock("META", "Meta Platforms"),
        stock("TSLA", "Tesla"),
        stock("JPM", "JPMorgan Chase"),
        stock("V", "Visa"),
        stock("WMT", "Walmart"),
        stock("MA", "Mastercard"),
        stock("XOM", "Exxon Mobil"),
        stock("UNH", "UnitedHealth"),
        stock("JNJ", "Johnson & Johnson"),
        stock("PG", "Procter & Gamble"),
        stock("HD", "Home Depot"),
        stock("KO", "Coca-Cola"),
        stock("DIS", "Walt Disney"),
        stock("IBM", "IBM"),
        stock("NFLX", "Netflix"),
        stock("INTC", "Intel"),
        series("OIL", "Crude oil (WTI)", "commodities", "WTI", "daily", 1, "per barrel"),
        stooq("GOLD", "Gold", "commodities", "xauusd", 1, "per troy ounce"),
        stooq("SILVER", "Silver", "commodities", "xagusd", 1, "per troy ounce"),
        series("COPPER", "Copper", "commodities", "COPPER", "monthly", 1, "per metric ton"),
        series("COFFEE", "Coffee (arabica)", "commodities", "COFFEE", "monthly", 100, "per pound"),
        series("WHEAT", "Wheat", "commodities", "WHEAT", "monthly", 1, "per metric ton"),
        series("CORN", "Corn", "commodities", "CORN", "monthly", 1, "per metric ton"),
        stooq("SOYBEANS", "Soybeans", "commodities", "zs.f", 100, kCents),
        stooq("OATS", "Oats", "commodities", "zo.f", 100, kCents),
        series("CL", "Crude oil, WTI", "futures", "WTI", "daily", 1, "per barrel"),
        series("BZ", "Crude oil, Brent", "futures", "BRENT", "daily", 1, "per barrel"),
        series("HG", "Copper", "futures", "COPPER", "monthly", 1, "per metric ton"),
        stooq("GC", "Gold", "futures", "gc.f", 1, "per troy ounce"),
        stooq("SI", "Silver", "futures", "si.f", 1, "per troy ounce"),
        stooq("PL", "Platinum", "futures", "pl.f", 1, "per troy ounce"),
        stooq("PA", "Palladium", "futures", "pa.f", 1, "per troy ounce"),
    };
    return t;
}

std::string upper(std::string s) {
    for (auto& c : s)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return s;
}

Instrument currency(const std::string& code, const std::string& name) {
    return {code, name, "currencies", "ecb", code, "daily", 1, "per unit"};
}

}  // namespace

const std::vector<std::string>& categories() {
    static const std::vector<std::string> c = {"crypto", "stocks", "commodities", "futures",
                                               "currencies"};
    return c;
}

std::vector<Instrument> listed(const std::string& category) {
    std::vector<Instrument> out;
    if (category == "currencies") {
        for (const auto& [code, name] : ecb::currency_names()) out.push_back(currency(code, name));
        return out;
    }
    for (const auto& i : table())
        if (i.category == category) out.push_back(i);
    return out;
}

Instrument resolve(const std::string& raw) {
    const std::string symbol = upper(raw);
    for (const char* category : {"crypto", "commodities", "futures"})
        for (const auto& i : table())
            if (i.category == category && i.symbol == symbol) return i;
    if (ecb::is_currency(symbol)) return currency(symbol, ecb::currency_names().at(symbol));
    for (const auto& i : table())
        if (i.symbol == symbol) return i;
    return {symbol, symbol, "stocks", "alpha-vantage", symbol, "daily", 1, "per share"};
}

}  // namespace markets
