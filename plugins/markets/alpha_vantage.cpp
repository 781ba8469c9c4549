#include "alpha_vantage.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/upstream/upstream.hpp"

namespace markets::alpha_vantage {

using common::upstream::Malformed;
using common::upstream::Query;
using nlohmann::json;

namespace {

// A decimal written as a string ("172.0500", "1.1880%"); nullopt when it is not one.
std::optional<double> decimal(const json& v, bool percent = false) {
    if (v.is_number()) return v.get<double>();
    if (!v.is_string()) return std::nullopt;
    std::string s = v.get<std::string>();
    if (percent && !s.empty() && s.back() == '%') s.pop_back();
    if (s.empty()) return std::nullopt;
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(d)) return std::nullopt;
    return d;
}

json number_or_null(const std::optional<double>& d) {
    return d ? json(*d) : json(nullptr);
}

}  // namespace

std::optional<Notice> notice_of(const json& body) {
    if (!body.is_object()) return std::nullopt;
    for (const char* key : {"Information", "Note"})
        if (auto it = body.find(key); it != body.end() && it->is_string())
            return Notice{true, it->get<std::string>()};
    if (auto it = body.find("Error Message"); it != body.end() && it->is_string())
        return Notice{false, it->get<std::string>()};
    return std::nullopt;
}

std::string quote_path(const std::string& symbol) {
    return "/query" + Query().str("function", "GLOBAL_QUOTE").str("symbol", symbol).text();
}

std::optional<Quote> quote_from(const json& body) {
    if (!body.is_object() || !body.contains("Global Quote") || !body["Global Quote"].is_object())
        throw Malformed("no \"Global Quote\" object");
    const json& q = body["Global Quote"];
    if (q.empty()) return std::nullopt;
    auto price = decimal(q.value("05. price", json()));
    if (!price || *price < 0) throw Malformed("\"05. price\" is not a price");
    Quote out;
    out.price = *price;
    out.day = q.value("07. latest trading day", "");
    if (out.day.size() != 10) throw Malformed("\"07. latest trading day\" is not a date");
    out.previous_close = number_or_null(decimal(q.value("08. previous close", json())));
    out.change_percent = number_or_null(decimal(q.value("10. change percent", json()), true));
    return out;
}

std::string daily_path(const std::string& symbol, bool full) {
    return "/query" + Query()
                          .str("function", "TIME_SERIES_DAILY")
                          .str("symbol", symbol)
                          .str("outputsize", full ? "full" : "compact")
                          .text();
}

std::vector<std::pair<std::string, double>> daily_from(const json& body) {
    if (!body.is_object() || !body.contains("Time Series (Daily)") ||
        !body["Time Series (Daily)"].is_object())
        throw Malformed("no \"Time Series (Daily)\" object");
    std::vector<std::pair<std::string, double>> out;
    for (const auto& [date, day] : body["Time Series (Daily)"].items()) {
        if (date.size() != 10 || !day.is_object())
            throw Malformed("a day '" + date + "' is not one");
        auto close = decimal(day.value("4. close", json()));
        if (!close || *close < 0) throw Malformed("on " + date + ", \"4. close\" is not a price");
        out.emplace_back(date, *close);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string series_path(const std::string& function, const std::string& interval) {
    return "/query" + Query().str("function", function).str("interval", interval).text();
}

std::vector<std::pair<std::string, double>> series_from(const json& body, double divisor) {
    if (!body.is_object() || !body.contains("data") || !body["data"].is_array())
        throw Malformed("no \"data\" array");
    std::vector<std::pair<std::string, double>> out;
    for (const auto& p : body["data"]) {
        if (!p.is_object() || !p.contains("date") || !p["date"].is_string())
            throw Malformed("a value without a date");
        const std::string date = p["date"];
        const json v = p.value("value", json());
        if (v.is_string() && v.get<std::string>() == ".") continue;  // no value that day
        auto d = decimal(v);
        if (!d || *d < 0) throw Malformed("on " + date + ", the value is not a price");
        out.emplace_back(date, *d / divisor);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace markets::alpha_vantage
