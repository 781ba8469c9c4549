// alpha_vantage — Alpha Vantage's JSON API (https://www.alphavantage.co, keyed: the operator's
// key in providers.alpha-vantage.api_key, placed by the host as ?apikey=; documented at
// https://www.alphavantage.co/documentation/):
//   /query?function=GLOBAL_QUOTE&symbol=IBM
//       {"Global Quote": {"01. symbol": "IBM", ..., "05. price": "172.0500", ...,
//        "07. latest trading day": "2024-04-05", "08. previous close": "170.0300", ...}}
//       an unknown symbol: {"Global Quote": {}}
//   /query?function=TIME_SERIES_DAILY&symbol=IBM&outputsize=compact|full
//       {"Meta Data": {...}, "Time Series (Daily)": {"2024-04-05": {"4. close": "189.1400", ...}}}
//       (compact: the latest 100 trading days)
//   /query?function=WTI|BRENT|COPPER|COFFEE|WHEAT|CORN&interval=daily|monthly
//       {"name": ..., "interval": ..., "unit": ..., "data": [{"date": "2024-04-01",
//        "value": "83.17"}, ...]}  newest first, "." where there is no value
// Alpha Vantage answers 200 for its refusals too: {"Information": ...} or {"Note": ...} (the
// rate limit, a premium-only request) and {"Error Message": ...} (an unknown symbol or a bad
// call); notice_of() reads them.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace markets::alpha_vantage {

struct Notice {
    bool limit = false;  // Information / Note: rate-limited or premium-only (503)
    std::string text;    // Error Message when !limit
};
// The refusal an answer carries, or nullopt for data.
std::optional<Notice> notice_of(const nlohmann::json& body);

struct Quote {
    double price = 0;
    std::string day;                                // the latest trading day, YYYY-MM-DD
    nlohmann::json previous_close, change_percent;  // numbers or null
};
std::string quote_path(const std::string& symbol);
// nullopt for an unknown symbol ({"Global Quote": {}}).
std::optional<Quote> quote_from(const nlohmann::json& body);

std::string daily_path(const std::string& symbol, bool full);
// (date, close) of every day the series holds, oldest first.
std::vector<std::pair<std::string, double>> daily_from(const nlohmann::json& body);

std::string series_path(const std::string& function, const std::string& interval);
// (date, value / divisor) of every dated value, oldest first ("." values left out).
std::vector<std::pair<std::string, double>> series_from(const nlohmann::json& body, double divisor);

}  // namespace markets::alpha_vantage
