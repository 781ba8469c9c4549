// markets — prices in US dollars, daily closes and currency conversion (the catalogue's `markets`
// service; README.md):
//
//   quote    GET {symbol*}                                    -> {symbol, name, category, price,
//                                                                currency, unit, timestamp,
//                                                                staleness_seconds, source}
//   list     GET {category = crypto, offset, limit 20/100}    -> {category, items, total, ...}
//   history  GET {symbol*, start, end, offset, limit 20/100}  -> {closes: [{date, close}], ...}
//   convert  GET {from*, to*, amount = 1, date}               -> {rate, result, date, ...}
//   recent   GET {limit 20/100}, internal                     -> the quotes seen lately (archive)
//
// Upstreams, each a common::upstream Provider: `ecb` (the euro reference rates, keyless),
// `coingecko` (crypto, keyless or a demo key), `alpha-vantage` (stocks and commodity series,
// keyed), `stooq` (metals and grain futures, keyless CSV). Symbols and what carries them: symbols.hpp. Every quote answered is kept in the store
// ("seen:<SYMBOL>", 30 days) for `recent`, which the archive reads as its kind `market`.
#pragma once

#include <platform/sdk.hpp>

#include "common/upstream/upstream.hpp"
#include "ecb.hpp"
#include "symbols.hpp"

class Markets {
public:
    static void describe(platform::ServiceSpec<Markets>& s);
    explicit Markets(const platform::Host& host) : host_(host) {}

    platform::json quote(platform::Request& r);
    platform::json list(platform::Request& r);
    platform::json history(platform::Request& r);
    platform::json convert(platform::Request& r);
    platform::json recent(platform::Request& r);

private:
    // The quote of one instrument (no store write).
    platform::json quote_of(const markets::Instrument& i) const;
    // USD per unit of a currency or crypto symbol, with its source and timestamp.
    struct Usd {
        double price = 0;
        std::string source, date;
        int64_t at_ms = 0;
    };
    Usd usd_of(const markets::Instrument& i) const;
    // The latest ECB day (eurofxref-daily.xml), and the days first..last of the history file.
    markets::ecb::Day ecb_latest() const;
    std::vector<markets::ecb::Day> ecb_days(const std::string& first,
                                            const std::string& last) const;
    // An Alpha Vantage answer: from this plugin's own cache (refusals are never cached), else
    // fetched; its refusals as 503s.
    platform::json alpha_vantage(const std::string& path, int64_t ttl_ms) const;

    platform::Host host_;
};
