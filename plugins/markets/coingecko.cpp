#include "coingecko.hpp"

#include <cmath>
#include <map>

#include "common/upstream/upstream.hpp"

namespace markets::coingecko {

using common::upstream::Malformed;
using common::upstream::Query;
using nlohmann::json;

namespace {

constexpr int64_t kDayMs = 86400000;

double positive(const json& v, const std::string& what) {
    if (!v.is_number()) throw Malformed(what + " is not a number");
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < 0) throw Malformed(what + " is not a price");
    return d;
}

}  // namespace

std::string price_path(const std::string& id) {
    return "/api/v3/simple/price" + Query()
                                        .str("ids", id)
                                        .str("vs_currencies", "usd")
                                        .str("include_last_updated_at", "true")
                                        .text();
}

std::optional<Price> price_from(const json& body, const std::string& id) {
    if (!body.is_object()) throw Malformed("simple/price is not an object");
    auto it = body.find(id);
    if (it == body.end() || !it->is_object() || !it->contains("usd")) return std::nullopt;
    Price p;
    p.usd = positive(it->at("usd"), id + ".usd");
    if (auto t = it->find("last_updated_at"); t != it->end() && t->is_number_integer())
        p.updated_s = t->get<int64_t>();
    return p;
}

std::string markets_path(const std::vector<std::string>& ids) {
    std::string joined;
    for (const auto& id : ids) joined += (joined.empty() ? "" : ",") + id;
    return "/api/v3/coins/markets" + Query()
                                         .str("vs_currency", "usd")
                                         .str("ids", joined)
                                         .str("order", "market_cap_desc")
                                         .integer("per_page", 100)
                                         .integer("page", 1)
                                         .text();
}

std::vector<Market> markets_from(const json& body) {
    if (!body.is_array()) throw Malformed("coins/markets is not an array");
    std::vector<Market> out;
    for (const auto& c : body) {
        if (!c.is_object() || !c.contains("id") || !c["id"].is_string())
            throw Malformed("a coin without an id");
        if (c.value("current_price", json()).is_null()) continue;  // not priced yet
        Market m;
        m.id = c["id"];
        m.name = c.value("name", m.id);
        m.usd = positive(c["current_price"], m.id + ".current_price");
        m.market_cap = common::upstream::number_or_null(c, "market_cap");
        m.updated =
            c.value("last_updated", json()).is_string() ? c["last_updated"].get<std::string>() : "";
        out.push_back(std::move(m));
    }
    return out;
}

std::string range_path(const std::string& id, int64_t from_s, int64_t to_s) {
    return "/api/v3/coins/" + common::upstream::encode(id) + "/market_chart/range" +
           Query().str("vs_currency", "usd").integer("from", from_s).integer("to", to_s).text();
}

std::vector<std::pair<int64_t, double>> daily_closes(const json& body, int64_t first,
                                                     int64_t last) {
    if (!body.is_object() || !body.contains("prices") || !body["prices"].is_array())
        throw Malformed("market_chart has no prices array");
    std::map<int64_t, std::pair<int64_t, double>> by_day;  // day -> (ms, price) latest
    for (const auto& p : body["prices"]) {
        if (!p.is_array() || p.size() < 2 || !p[0].is_number() || !p[1].is_number())
            throw Malformed("a price is not [ms, price]");
        const int64_t ms = static_cast<int64_t>(p[0].get<double>());
        const double price = positive(p[1], "a price");
        // (D 00:00, D+1 00:00] belongs to day D: a point at midnight closes the day before.
        const int64_t day = ms > 0 ? (ms - 1) / kDayMs : -1;
        if (day < first || day > last) continue;
        auto it = by_day.find(day);
        if (it == by_day.end() || ms >= it->second.first) by_day[day] = {ms, price};
    }
    std::vector<std::pair<int64_t, double>> out;
    for (const auto& [day, point] : by_day) out.emplace_back(day, point.second);
    return out;
}

}  // namespace markets::coingecko
