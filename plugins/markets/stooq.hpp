// stooq — Stooq's CSV downloads (https://stooq.com, keyless), read for the commodities and
// futures no other upstream here carries (symbols.cpp: GOLD -> xauusd, GC -> gc.f, ...):
//   /q/l/?s=xauusd&f=sd2t2ohlcv&h&e=csv      the latest quote, a header and one row:
//       Symbol,Date,Time,Open,High,Low,Close,Volume
//       XAUUSD,2026-12-04,22:59:58,4198.32,4231.05,4187.6,4212.87,
//     a symbol Stooq does not know: its row with N/D in every field after the symbol
//   /q/d/l/?s=gc.f&d1=20261201&d2=20261204&i=d   daily bars between two days, oldest first:
//       Date,Open,High,Low,Close,Volume
//       2026-12-01,4225.1,4251.3,4210.4,4238.2,168433
//     the body "No data" when the range holds none
// Lines end in CRLF; fields are never quoted. Columns are found by their header names (Volume is
// empty or absent for a spot price); a body of another shape (an HTML page, a message) is
// Malformed, the upstream module's 502.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace markets::stooq {

struct Quote {
    std::string symbol;  // as Stooq writes it: XAUUSD, GC.F
    std::string date;    // YYYY-MM-DD
    std::string time;    // HH:MM:SS, Stooq's (Warsaw) time
    double close = 0;    // the latest price, divided by the divisor
};

// "/q/l/?s=<symbol>&f=sd2t2ohlcv&h&e=csv".
std::string quote_path(const std::string& symbol);
// The quote of `symbol` in a quote CSV, its prices divided by `divisor`; nullopt when Stooq
// answers N/D (it does not know the symbol or has no price).
std::optional<Quote> quote_from(const std::string& csv, const std::string& symbol, double divisor);

// "/q/d/l/?s=<symbol>&d1=YYYYMMDD&d2=YYYYMMDD&i=d" for the days first..last (YYYY-MM-DD).
std::string daily_path(const std::string& symbol, const std::string& first,
                       const std::string& last);
// (date, close / divisor) of every row of a daily CSV, oldest first; none for "No data".
std::vector<std::pair<std::string, double>> daily_from(const std::string& csv, double divisor);

}  // namespace markets::stooq
