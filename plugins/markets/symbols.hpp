// symbols — what markets/list lists and how each symbol maps to its upstream (README.md, "Symbols").
//
//   crypto       CoinGecko coin ids (BTC -> bitcoin), 24 coins
//   stocks       US tickers, quoted by Alpha Vantage under the same symbol; 21 listed, any ticker
//                Alpha Vantage knows is quoted
//   commodities  OIL, GOLD, SILVER, COPPER, COFFEE, WHEAT, CORN, SOYBEANS, OATS: Alpha Vantage's
//                commodity series where it has one (WTI daily; COPPER, COFFEE, WHEAT, CORN
//                monthly); GOLD, SILVER (spot, xauusd, xagusd), SOYBEANS and OATS (continuous
//                futures zs.f, zo.f, cents a bushel) from Stooq
//   futures      metals and oil: CL, BZ (WTI and Brent, daily), HG (copper, monthly) from the same
//                series; GC, SI, PL, PA from Stooq's continuous futures (gc.f, si.f, pl.f, pa.f)
//   currencies   the ECB's reference-rate currencies and the euro
// A symbol is looked up in that order: a crypto symbol first, then a commodity, a future, a
// currency; anything else is a stock ticker.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace markets {

struct Instrument {
    std::string symbol;    // as callers write it, upper case: BTC, AAPL, OIL, CL, GBP
    std::string name;      // Bitcoin, Apple, Crude oil (WTI)
    std::string category;  // crypto, stocks, commodities, futures, currencies
    std::string upstream;  // coingecko, alpha-vantage, stooq, ecb; "" when nothing carries it
    std::string id;        // the upstream's id: a CoinGecko coin id, an Alpha Vantage ticker or
                           // commodity function (WTI, BRENT, COPPER...), a Stooq symbol (xauusd,
                           // gc.f), the currency code
    std::string interval;  // daily, or monthly (Alpha Vantage's farm and metal series)
    double divisor = 1;    // upstream unit per US dollar (COFFEE, SOYBEANS, OATS: cents, 100)
    std::string unit;      // what one price is for: "per barrel", "per share", "per coin"
};

// The categories, in the order markets/list names them.
const std::vector<std::string>& categories();
// The listed instruments of a category (currencies: every ECB currency and the euro).
std::vector<Instrument> listed(const std::string& category);
// The instrument a symbol names (upper-cased first); a symbol of no table is a stock ticker.
Instrument resolve(const std::string& symbol);

}  // namespace markets
