// coingecko — CoinGecko's public API v3 (https://api.coingecko.com, keyless; an operator's demo
// key goes in providers.coingecko.api_key with api_key_header "x-cg-demo-api-key"):
//   /api/v3/simple/price?ids=<id>&vs_currencies=usd&include_last_updated_at=true
//       {"bitcoin": {"usd": 67187.34, "last_updated_at": 1711356300}}
//   /api/v3/coins/markets?vs_currency=usd&ids=<ids>&order=market_cap_desc&per_page=100&page=1
//       [{"id", "symbol", "name", "current_price", "market_cap", "last_updated": RFC 3339}, ...]
//   /api/v3/coins/<id>/market_chart/range?vs_currency=usd&from=<unix s>&to=<unix s>
//       {"prices": [[unix ms, price], ...], "market_caps": [...], "total_volumes": [...]}
//       (5-minutely within a day, hourly up to 90 days, daily at 00:00 UTC beyond)
// Parsers throw common::upstream::Malformed for a body of another shape.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace markets::coingecko {

struct Price {
    double usd = 0;
    int64_t updated_s = 0;  // last_updated_at; 0 when not given
};

std::string price_path(const std::string& id);
// The coin's price, or nullopt when the answer has no entry for it (an unknown id: {}).
std::optional<Price> price_from(const nlohmann::json& body, const std::string& id);

struct Market {
    std::string id, name;
    double usd = 0;
    nlohmann::json market_cap;  // number or null
    std::string updated;        // RFC 3339, as given
};
std::string markets_path(const std::vector<std::string>& ids);
std::vector<Market> markets_from(const nlohmann::json& body);

std::string range_path(const std::string& id, int64_t from_s, int64_t to_s);
// The close of each UTC day first..last (day numbers): the last price at or before the midnight
// that ends the day, and after the midnight that begins it. Days without a price are left out.
// Oldest first.
std::vector<std::pair<int64_t, double>> daily_closes(const nlohmann::json& body, int64_t first,
                                                     int64_t last);

}  // namespace markets::coingecko
