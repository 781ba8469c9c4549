#include "markets.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "alpha_vantage.hpp"
#include "coingecko.hpp"
#include "common/time/time.hpp"
#include "dates.hpp"
#include "stooq.hpp"

namespace schema = platform::schema;

using common::upstream::Provider;
using common::upstream::Upstream;
using markets::Instrument;
using platform::json;

namespace {

constexpr int64_t kMinute = 60 * 1000;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;

const Provider kEcb{"ecb", "the ECB", "https://www.ecb.europa.eu", kHour};
const Provider kEcbHistory{"ecb", "the ECB", "https://www.ecb.europa.eu", 6 * kHour};
const Provider kCoinGecko{"coingecko", "CoinGecko", "https://api.coingecko.com", kMinute};
// Alpha Vantage answers its refusals with 200, so common/upstream keeps nothing of it; this
// plugin keeps the answers that hold data (alpha_vantage()).
const Provider kAlphaVantage{"alpha-vantage", "Alpha Vantage", "https://www.alphavantage.co",
                             common::upstream::kNoCache, true};
// Stooq (keyless CSV): latest quotes kept 5 minutes, daily bars an hour.
const Provider kStooq{"stooq", "Stooq", "https://stooq.com", 5 * kMinute};
const Provider kStooqHistory{"stooq", "Stooq", "https://stooq.com", kHour};

constexpr const char* kEcbSource = "ECB euro foreign exchange reference rates";
constexpr int64_t kSeenTtl = 30 * kDay;
constexpr int64_t kMaxOffset = 10000;
// TIME_SERIES_DAILY's compact answer holds the latest 100 trading days: about 140 calendar days.
constexpr int64_t kCompactDays = 140;

// 12 significant digits: what a rate or a product of rates is given to (no binary noise).
double rounded(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return std::strtod(buf, nullptr);
}

// Unix ms of `seconds` after midnight, local time in `zone`, on `day` (the zone's fixed
// `fallback_h` offset from UTC when the system has no tz database).
int64_t local_time_ms(int64_t day, int64_t seconds, const char* zone, int fallback_h) {
    const int64_t local_s = day * 86400 + seconds;
    if (auto tz = common::time::TimeZone::load(zone)) return tz->to_utc(local_s) * 1000;
    return (local_s - fallback_h * 3600) * 1000;
}

// The ECB publishes its rates at about 16:00 Frankfurt time.
int64_t ecb_published_ms(const std::string& date) {
    return local_time_ms(markets::parse_day("date", date), 16 * 3600, "Europe/Berlin", 1);
}

schema::Value symbol_schema(const std::string& doc) {
    return schema::string()
        .min_len(1)
        .max_len(15)
        .pattern("^[A-Za-z0-9][A-Za-z0-9.-]{0,14}$")
        .doc(doc);
}

schema::Value date_schema(const std::string& doc) {
    return schema::string().pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}$").doc(doc);
}

json page(const json& items, size_t offset, size_t limit) {
    json out = json::array();
    for (size_t i = offset; i < items.size() && out.size() < limit; ++i) out.push_back(items[i]);
    return out;
}

platform::Error not_carried(const Instrument& i) {
    return platform::unavailable("symbol: no upstream this host reads carries " + i.symbol + " (" +
                                 i.name + ")");
}

}  // namespace

void Markets::describe(platform::ServiceSpec<Markets>& s) {
    s.id("markets")
        .version("1.0.0")
        .service("v1.markets")
        .summary("Prices in US dollars, daily closes and currency conversion");
    s.get("quote")
        .title("Quote a price")
        .description(
            "The price of a crypto coin (BTC), a stock (AAPL), a commodity (OIL), a future (CL) or "
            "a currency (GBP) in US dollars: {symbol, name, category, price, currency: USD, unit, "
            "timestamp (when the upstream priced it), staleness_seconds (how long ago that was), "
            "source}. Crypto from CoinGecko, stocks and commodity series from Alpha Vantage, "
            "metals and grain futures from Stooq, currencies from the ECB's reference rates.")
        .schema(
            schema::object()
                .prop("symbol", symbol_schema("BTC, AAPL, OIL, CL, GBP (markets/list lists them)"))
                .required())
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Markets::quote);
    s.get("list")
        .title("List symbols")
        .description(
            "The symbols of a category with their names; crypto and currencies with their USD "
            "prices (stocks, commodities and futures are priced one by one with quote): "
            "{category, items: [{symbol, name, unit, price, timestamp}], total, offset, limit, "
            "source}. Commodities: OIL, GOLD, SILVER, COPPER, COFFEE, WHEAT, CORN, SOYBEANS, "
            "OATS; futures: metals and oil.")
        .schema(schema::object()
                    .str("category")
                    .one_of({"crypto", "stocks", "commodities", "futures", "currencies"})
                    .def("crypto")
                    .doc("crypto, stocks, commodities, futures or currencies (default crypto)")
                    .prop("offset", schema::offset("Skip this many"))
                    .max(kMaxOffset)
                    .prop("limit", schema::limit(100, 20, "At most this many (default 20)")))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Markets::list);
    s.get("history")
        .title("Daily closes")
        .description(
            "Daily closing prices in US dollars between two days, oldest first; days without "
            "trading are left out. The range is at most 366 days: {symbol, name, category, start, "
            "end, interval, closes: [{date, close}], total, offset, limit, currency, source}.")
        .schema(
            schema::object()
                .prop("symbol", symbol_schema("BTC, AAPL, OIL, GBP"))
                .required()
                .prop("start", date_schema("First day, YYYY-MM-DD (default 30 days before end)"))
                .prop("end", date_schema("Last day, YYYY-MM-DD, included (default today, UTC)"))
                .prop("offset", schema::offset("Skip this many closes"))
                .max(kMaxOffset)
                .prop("limit", schema::limit(100, 20, "At most this many closes (default 20)")))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Markets::history);
    s.get("convert")
        .title("Convert an amount")
        .description(
            "An amount in one currency or crypto coin in another: currencies at the ECB's euro "
            "reference rates (crossed through the euro; `date` for a past day, back to "
            "1999-01-04), crypto at its live US dollar price (through the dollar): {from, to, "
            "amount, rate, result, date, sources}.")
        .schema(schema::object()
                    .prop("from", symbol_schema("A currency (GBP) or crypto symbol (BTC)"))
                    .required()
                    .prop("to", symbol_schema("A currency (EUR) or crypto symbol (ETH)"))
                    .required()
                    .number("amount")
                    .range(0, 1e15)
                    .def(1)
                    .doc("How much of `from` (default 1)")
                    .prop("date", date_schema("A past day's rates, YYYY-MM-DD, back to "
                                              "1999-01-04 (currencies only)")))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Markets::convert);
    s.get("recent")
        .title("Quotes seen lately (internal)")
        .description(
            "Internal (the archive's kind market): the latest quote of each symbol this "
            "service answered in the last 30 days, most recently seen first.")
        .schema(schema::object().prop("limit", schema::limit(100, 20, "At most this many")))
        .access(platform::Access::public_)
        .read_only()
        .internal()
        .handler(&Markets::recent);
}

// ---- upstream reads ----------------------------------------------------------------------------

markets::ecb::Day Markets::ecb_latest() const {
    Upstream up(host_, kEcb);
    const auto a = up.fetch(markets::ecb::kDailyPath);
    try {
        return markets::ecb::parse_xml(a.body).back();
    } catch (const common::upstream::Malformed& e) {
        throw up.malformed(e.what());
    }
}

std::vector<markets::ecb::Day> Markets::ecb_days(const std::string& first,
                                                 const std::string& last) const {
    Upstream up(host_, kEcbHistory);
    const auto a = up.fetch(markets::ecb::kHistoryPath);
    try {
        return markets::ecb::parse_csv(markets::ecb::csv_from_zip(a.body), first, last);
    } catch (const common::upstream::Malformed& e) {
        throw up.malformed(e.what());
    }
}

json Markets::alpha_vantage(const std::string& path, int64_t ttl_ms) const {
    const std::string key = "av:" + path;
    auto store = host_.store();
    if (auto v = store.get(key)) {
        json j = json::parse(*v, nullptr, false);
        if (!j.is_discarded()) return j;
    }
    Upstream up(host_, kAlphaVantage);
    json body = up.get_json(path);
    if (auto n = markets::alpha_vantage::notice_of(body)) {
        if (n->limit)
            throw platform::unavailable("Alpha Vantage is not answering this now: " + n->text);
        if (n->text.find("apikey") != std::string::npos)
            throw platform::unavailable(
                "providers.alpha-vantage.api_key: Alpha Vantage refused "
                "the key: " +
                n->text);
        return body;  // an unknown symbol: the caller says so
    }
    store.put(key, body.dump(), ttl_ms);
    return body;
}

Markets::Usd Markets::usd_of(const Instrument& i) const {
    if (i.category == "crypto") {
        Upstream up(host_, kCoinGecko);
        const json body = up.get_json(markets::coingecko::price_path(i.id));
        auto p =
            up.parse(body, [&](const json& j) { return markets::coingecko::price_from(j, i.id); });
        if (!p) throw platform::not_found("symbol: CoinGecko has no price for " + i.symbol);
        Usd u{p->usd, "CoinGecko", "", p->updated_s * 1000};
        if (p->updated_s) u.date = markets::day_text(markets::day_of_ms(u.at_ms));
        return u;
    }
    const auto day = ecb_latest();
    auto usd = day.rate("USD"), mine = day.rate(i.symbol);
    if (!usd || !mine)
        throw platform::not_found("symbol: the ECB's latest rates (" + day.date + ") have no " +
                                  (usd ? i.symbol : std::string("USD")));
    return Usd{*usd / *mine, kEcbSource, day.date, ecb_published_ms(day.date)};
}

// ---- quote -------------------------------------------------------------------------------------

json Markets::quote_of(const Instrument& i) const {
    json out = {{"symbol", i.symbol},
                {"name", i.name},
                {"category", i.category},
                {"currency", "USD"},
                {"unit", i.unit}};
    int64_t at_ms = 0;
    if (i.upstream.empty()) throw not_carried(i);
    if (i.category == "crypto" || i.category == "currencies") {
        const Usd u = usd_of(i);
        out["price"] = rounded(u.price);
        out["source"] = u.source;
        at_ms = u.at_ms;
        if (i.category == "currencies") out["rate_date"] = u.date;
    } else if (i.category == "stocks") {
        const json body = alpha_vantage(markets::alpha_vantage::quote_path(i.id), 5 * kMinute);
        Upstream up(host_, kAlphaVantage);
        if (markets::alpha_vantage::notice_of(body))
            throw platform::not_found("symbol: Alpha Vantage knows no symbol " + i.symbol);
        auto q = up.parse(body, markets::alpha_vantage::quote_from);
        if (!q) throw platform::not_found("symbol: Alpha Vantage knows no symbol " + i.symbol);
        out["price"] = q->price;
        out["trading_day"] = q->day;
        out["previous_close"] = q->previous_close;
        out["change_percent"] = q->change_percent;
        out["source"] = "Alpha Vantage";
        // The quote names its trading day only: the day's close (16:00 New York) stands for it.
        at_ms =
            local_time_ms(markets::parse_day("date", q->day), 16 * 3600, "America/New_York", -5);
    } else if (i.upstream == "stooq") {
        Upstream up(host_, kStooq);
        const auto a = up.fetch(markets::stooq::quote_path(i.id));
        std::optional<markets::stooq::Quote> q;
        try {
            q = markets::stooq::quote_from(a.body, i.id, i.divisor);
        } catch (const common::upstream::Malformed& e) {
            throw up.malformed(e.what());
        }
        if (!q)
            throw platform::not_found("symbol: Stooq has no price for " + i.symbol + " (" + i.id +
                                      ") now (N/D)");
        out["price"] = rounded(q->close);
        out["interval"] = i.interval;
        out["value_date"] = q->date;
        out["source"] = "Stooq (" + q->symbol + ")";
        // Stooq writes its times in Warsaw time.
        const int64_t seconds = std::stoll(q->time.substr(0, 2)) * 3600 +
                                std::stoll(q->time.substr(3, 2)) * 60 +
                                std::stoll(q->time.substr(6));
        at_ms = local_time_ms(markets::parse_day("date", q->date), seconds, "Europe/Warsaw", 1);
    } else {
        const json body =
            alpha_vantage(markets::alpha_vantage::series_path(i.id, i.interval), 6 * kHour);
        Upstream up(host_, kAlphaVantage);
        if (auto n = markets::alpha_vantage::notice_of(body)) throw up.malformed(n->text);
        auto values = up.parse(
            body, [&](const json& j) { return markets::alpha_vantage::series_from(j, i.divisor); });
        if (values.empty()) throw up.malformed("the " + i.id + " series holds no value");
        out["price"] = rounded(values.back().second);
        out["interval"] = i.interval;
        out["value_date"] = values.back().first;
        out["source"] = "Alpha Vantage (" + body.value("name", i.id) + ")";
        at_ms = markets::parse_day("date", values.back().first) * kDay;
    }
    if (at_ms > 0) {
        out["timestamp"] = platform::rfc3339(at_ms);
        out["staleness_seconds"] = std::max<int64_t>(0, (host_.now_ms() - at_ms) / 1000);
    } else {
        out["timestamp"] = nullptr;
        out["staleness_seconds"] = nullptr;
    }
    return out;
}

json Markets::quote(platform::Request& r) {
    const Instrument i = markets::resolve(r.str("symbol"));
    json out = quote_of(i);
    json seen = out;
    seen["seen"] = platform::rfc3339(host_.now_ms());
    seen["seen_ms"] = host_.now_ms();
    host_.store().put("seen:" + i.symbol, seen.dump(), kSeenTtl);
    return out;
}

// ---- list --------------------------------------------------------------------------------------

json Markets::list(platform::Request& r) {
    const std::string category = r.str("category", "crypto");
    const size_t offset = r["offset"].get<size_t>(), limit = r["limit"].get<size_t>();
    json items = json::array();
    std::string source;
    if (category == "crypto") {
        const auto coins = markets::listed("crypto");
        std::vector<std::string> ids;
        for (const auto& c : coins) ids.push_back(c.id);
        Upstream up(host_, kCoinGecko);
        const json body = up.get_json(markets::coingecko::markets_path(ids));
        const auto priced = up.parse(body, markets::coingecko::markets_from);
        for (const auto& c : coins) {
            json item = {{"symbol", c.symbol},
                         {"name", c.name},
                         {"unit", c.unit},
                         {"price", nullptr},
                         {"timestamp", nullptr}};
            for (const auto& m : priced)
                if (m.id == c.id) {
                    item["price"] = m.usd;
                    item["market_cap"] = m.market_cap;
                    if (!m.updated.empty()) item["timestamp"] = m.updated;
                }
            items.push_back(item);
        }
        source = "CoinGecko";
    } else if (category == "currencies") {
        const auto day = ecb_latest();
        const double usd = day.rate("USD").value_or(0);
        for (const auto& [code, per_eur] : day.per_eur) {
            const auto& names = markets::ecb::currency_names();
            json item = {{"symbol", code},
                         {"name", names.count(code) ? names.at(code) : code},
                         {"unit", "per unit"},
                         {"price", usd > 0 ? json(rounded(usd / per_eur)) : json(nullptr)},
                         {"timestamp", platform::rfc3339(ecb_published_ms(day.date))}};
            items.push_back(item);
        }
        source = kEcbSource;
    } else {
        for (const auto& i : markets::listed(category))
            items.push_back({{"symbol", i.symbol},
                             {"name", i.name},
                             {"unit", i.unit},
                             {"carried", !i.upstream.empty()},
                             {"interval", i.interval}});
        source = "Alpha Vantage and Stooq (prices through markets/quote)";
    }
    return {{"category", category},  {"items", page(items, offset, limit)},
            {"total", items.size()}, {"offset", offset},
            {"limit", limit},        {"currency", "USD"},
            {"source", source}};
}

// ---- history -----------------------------------------------------------------------------------

json Markets::history(platform::Request& r) {
    const Instrument i = markets::resolve(r.str("symbol"));
    auto optional = [&](const char* name) -> std::optional<std::string> {
        if (!r.args().contains(name)) return std::nullopt;
        return r.str(name);
    };
    const int64_t today = markets::day_of_ms(host_.now_ms());
    const auto range = markets::history_range(optional("start"), optional("end"), today);
    const std::string first = markets::day_text(range.first), last = markets::day_text(range.last);
    if (i.upstream.empty()) throw not_carried(i);

    std::vector<std::pair<std::string, double>> closes;
    std::string source, interval = "daily";
    if (i.category == "crypto") {
        Upstream up(host_, kCoinGecko);
        const json body = up.get_json(
            markets::coingecko::range_path(i.id, range.first * 86400, (range.last + 1) * 86400));
        auto days = up.parse(body, [&](const json& j) {
            return markets::coingecko::daily_closes(j, range.first, range.last);
        });
        for (const auto& [day, close] : days) closes.emplace_back(markets::day_text(day), close);
        source = "CoinGecko";
    } else if (i.category == "currencies") {
        for (const auto& d : ecb_days(first, last)) {
            auto usd = d.rate("USD"), mine = d.rate(i.symbol);
            if (usd && mine) closes.emplace_back(d.date, rounded(*usd / *mine));
        }
        source = kEcbSource;
    } else if (i.category == "stocks") {
        const bool full = range.first < today - kCompactDays;
        const json body = alpha_vantage(markets::alpha_vantage::daily_path(i.id, full), 6 * kHour);
        Upstream up(host_, kAlphaVantage);
        if (markets::alpha_vantage::notice_of(body))
            throw platform::not_found("symbol: Alpha Vantage has no daily series for " + i.symbol);
        for (const auto& [date, close] : up.parse(body, markets::alpha_vantage::daily_from))
            if (date >= first && date <= last) closes.emplace_back(date, close);
        source = "Alpha Vantage";
    } else if (i.upstream == "stooq") {
        Upstream up(host_, kStooqHistory);
        const auto a = up.fetch(markets::stooq::daily_path(i.id, first, last));
        std::vector<std::pair<std::string, double>> days;
        try {
            days = markets::stooq::daily_from(a.body, i.divisor);
        } catch (const common::upstream::Malformed& e) {
            throw up.malformed(e.what());
        }
        for (const auto& [date, close] : days)
            if (date >= first && date <= last) closes.emplace_back(date, rounded(close));
        source = "Stooq (" + i.id + ")";
    } else {
        const json body =
            alpha_vantage(markets::alpha_vantage::series_path(i.id, i.interval), 6 * kHour);
        Upstream up(host_, kAlphaVantage);
        if (auto n = markets::alpha_vantage::notice_of(body)) throw up.malformed(n->text);
        auto values = up.parse(
            body, [&](const json& j) { return markets::alpha_vantage::series_from(j, i.divisor); });
        for (const auto& [date, value] : values)
            if (date >= first && date <= last) closes.emplace_back(date, rounded(value));
        source = "Alpha Vantage (" + body.value("name", i.id) + ")";
        interval = i.interval;
    }
    json all = json::array();
    for (const auto& [date, close] : closes) all.push_back({{"date", date}, {"close", close}});
    const size_t offset = r["offset"].get<size_t>(), limit = r["limit"].get<size_t>();
    return {{"symbol", i.symbol},
            {"name", i.name},
            {"category", i.category},
            {"start", first},
            {"end", last},
            {"interval", interval},
            {"currency", "USD"},
            {"closes", page(all, offset, limit)},
            {"total", all.size()},
            {"offset", offset},
            {"limit", limit},
            {"source", source}};
}

// ---- convert -----------------------------------------------------------------------------------

json Markets::convert(platform::Request& r) {
    const Instrument from = markets::resolve(r.str("from")), to = markets::resolve(r.str("to"));
    for (const auto* side : {&from, &to})
        if (side->category != "currencies" && side->category != "crypto")
            throw platform::invalid_argument(std::string(side == &from ? "from" : "to") + ": " +
                                             side->symbol +
                                             " is not a currency or a crypto symbol");
    const double amount = r["amount"].get<double>();
    const bool currencies = from.category == "currencies" && to.category == "currencies";
    json out = {{"from", from.symbol}, {"to", to.symbol}, {"amount", amount}};
    double rate = 0;
    if (r.args().contains("date")) {
        const int64_t today = markets::day_of_ms(host_.now_ms());
        const int64_t day = markets::convert_day(r.str("date"), today);
        if (!currencies)
            throw platform::invalid_argument(
                "date: past rates are for conversions between currencies only (crypto converts "
                "at its live price)");
        // The rates of the day, or of the last working day before it (a weekend, a holiday).
        const auto days = ecb_days(markets::day_text(day - 10), markets::day_text(day));
        const auto* d = markets::ecb::on_or_before(days, markets::day_text(day));
        if (!d)
            throw platform::not_found("date: the ECB published no rates in the ten days to " +
                                      r.str("date"));
        auto x = markets::ecb::cross_rate(*d, from.symbol, to.symbol);
        if (!x)
            throw platform::not_found("from, to: the ECB's rates of " + d->date + " have no " +
                                      (d->rate(from.symbol) ? to.symbol : from.symbol));
        rate = *x;
        out["date"] = d->date;
        out["sources"] = json::array({kEcbSource});
    } else if (currencies) {
        const auto d = ecb_latest();
        auto x = markets::ecb::cross_rate(d, from.symbol, to.symbol);
        if (!x)
            throw platform::not_found("from, to: the ECB's rates of " + d.date + " have no " +
                                      (d.rate(from.symbol) ? to.symbol : from.symbol));
        rate = *x;
        out["date"] = d.date;
        out["sources"] = json::array({kEcbSource});
    } else {
        // Through the dollar: USD per unit of each side.
        const Usd f = usd_of(from), t = usd_of(to);
        rate = f.price / t.price;
        json sources = json::array({f.source});
        if (t.source != f.source) sources.push_back(t.source);
        out["date"] = std::max(f.date, t.date);
        out["sources"] = sources;
        out["via"] = "USD";
    }
    out["rate"] = rounded(rate);
    out["result"] = rounded(amount * rate);
    return out;
}

// ---- recent (the archive's market kind) --------------------------------------------------------

json Markets::recent(platform::Request& r) {
    std::vector<json> seen;
    for (const auto& rec : host_.store().scan({"seen:", false, 0, 0})) {
        json j = json::parse(rec.value, nullptr, false);
        if (j.is_object()) seen.push_back(std::move(j));
    }
    std::stable_sort(seen.begin(), seen.end(), [](const json& a, const json& b) {
        return a.value("seen_ms", int64_t{0}) > b.value("seen_ms", int64_t{0});
    });
    const size_t limit = r["limit"].get<size_t>();
    json quotes = json::array();
    for (size_t k = 0; k < seen.size() && k < limit; ++k) quotes.push_back(seen[k]);
    return {{"quotes", quotes}, {"total", seen.size()}};
}

PLATFORM_SERVICE(Markets)
