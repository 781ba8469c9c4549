// The markets service (plugins/markets/) through the real host on the `test` profile, its four
// upstreams played by a FakeUpstream serving tests/fixtures/<provider>/ in their own formats: the
// ECB's reference rates (XML, and the history ZIP of CSV), CoinGecko, Alpha Vantage (keyed,
// ?apikey) and Stooq (CSV, as Stooq serves it). The business clock stands at 2026-12-07T12:00:00Z. Each method's answers and limits
// (history's 366 days, convert's 1999-01-04), conversions checked against values worked out by
// hand from the fixture's rates, staleness from the upstream's timestamp; the archive's `market`
// kind from the quotes seen; failures (502, 504, Alpha Vantage's 200 refusals as 503) and, on a
// host without the providers, the 503 naming each setting. Every call that must reach the
// upstream asks something no earlier call asked (the caches answer repeats).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "api_answers.hpp"
#include "fake_upstream.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

constexpr int64_t kNow = 1796644800000;  // 2026-12-07T12:00:00Z, a Monday
const std::string kDaily = "/ecb/stats/eurofxref/eurofxref-daily.xml";
const std::string kHist = "/ecb/stats/eurofxref/eurofxref-hist.zip";
const std::string kPrice = "/coingecko/api/v3/simple/price";
const std::string kCoins = "/coingecko/api/v3/coins/markets";
const std::string kAv = "/alpha-vantage/query";
const std::string kStooqQuote = "/stooq/q/l/";
const std::string kStooqDaily = "/stooq/q/d/l/";

FakeUpstream::Route csv(const std::string& file) {
    return FakeUpstream::fixture("stooq", file, "text/csv");
}

FakeUpstream::Route xml(const std::string& file) {
    return FakeUpstream::fixture("ecb", file, "text/xml");
}

class Markets : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() {
        start_with("markets",
                   {{"ecb"}, {"coingecko"}, {"alpha-vantage", "k-av", "?apikey", true}, {"stooq"}});
        HttpClient c("127.0.0.1", host->api_port());
        ASSERT_EQ(c.post_json("/clock/set", {{"unix_ms", kNow}}).status, 200);
        up->serve(kDaily, xml("eurofxref-daily.xml"));
        up->serve(kHist, FakeUpstream::fixture("ecb", "eurofxref-hist.zip", "application/zip"));
        up->serve(kPrice, FakeUpstream::fixture("coingecko", "simple-price-bitcoin-ethereum.json"));
    }
    void av(const std::string& file) {
        up->serve(kAv, FakeUpstream::fixture("alpha-vantage", file));
    }
    std::vector<std::string> closes_dates(const json& d) {
        std::vector<std::string> out;
        for (const auto& c : d["closes"]) out.push_back(c["date"]);
        return out;
    }
};

TEST_F(Markets, QuoteACoinInDollarsWithItsStaleness) {
    const json q = ok("quote?symbol=btc");
    EXPECT_EQ(q["symbol"], "BTC");
    EXPECT_EQ(q["name"], "Bitcoin");
    EXPECT_EQ(q["category"], "crypto");
    EXPECT_EQ(q["price"], 93200);
    EXPECT_EQ(q["currency"], "USD");
    EXPECT_EQ(q["source"], "CoinGecko");
    EXPECT_EQ(q["timestamp"], "2026-12-07T11:58:00Z");
    EXPECT_EQ(q["staleness_seconds"], 120);
    const auto asked = up->requests(kPrice);
    ASSERT_FALSE(asked.empty());
    EXPECT_EQ(asked.back().param("ids"), "bitcoin");
    EXPECT_EQ(asked.back().param("vs_currencies"), "usd");
    EXPECT_EQ(asked.back().param("include_last_updated_at"), "true");
}

TEST_F(Markets, QuoteACurrencyFromTheEcb) {
    const json q = ok("quote?symbol=GBP");
    EXPECT_EQ(q["category"], "currencies");
    EXPECT_EQ(q["price"], 1.33295194508);  // 1.165 / 0.874 dollars a pound
    EXPECT_EQ(q["rate_date"], "2026-12-04");
    EXPECT_EQ(q["timestamp"], "2026-12-04T15:00:00Z");  // 16:00 in Frankfurt (CET)
    EXPECT_EQ(q["staleness_seconds"], 248400);          // 2 days 21 hours
    EXPECT_EQ(ok("quote?symbol=EUR")["price"], 1.165);
    EXPECT_EQ(ok("quote?symbol=USD")["price"], 1);
}

TEST_F(Markets, QuoteAStockThroughAlphaVantageWithTheKey) {
    av("global-quote-ibm.json");
    const json q = ok("quote?symbol=IBM");
    EXPECT_EQ(q["category"], "stocks");
    EXPECT_EQ(q["price"], 307.25);
    EXPECT_EQ(q["trading_day"], "2026-12-04");
    EXPECT_EQ(q["previous_close"], 304.5);
    EXPECT_EQ(q["source"], "Alpha Vantage");
    EXPECT_EQ(q["timestamp"], "2026-12-04T21:00:00Z");  // the close, 16:00 in New York (EST)
    EXPECT_EQ(q["staleness_seconds"], 226800);
    const auto asked = up->requests(kAv);
    ASSERT_FALSE(asked.empty());
    EXPECT_EQ(asked.back().param("function"), "GLOBAL_QUOTE");
    EXPECT_EQ(asked.back().param("symbol"), "IBM");
    EXPECT_EQ(asked.back().param("apikey"), "k-av");
    ok("quote?symbol=ibm");  // kept by the plugin for five minutes
    EXPECT_EQ(up->requests(kAv).size(), asked.size());
    av("global-quote-empty.json");
    fails("quote?symbol=ZZZZ", 404, "symbol");
}

TEST_F(Markets, QuoteCommoditiesFromTheirSeries) {
    av("wti-daily.json");
    json q = ok("quote?symbol=oil");
    EXPECT_EQ(q["price"], 58.41);
    EXPECT_EQ(q["interval"], "daily");
    EXPECT_EQ(q["value_date"], "2026-12-01");
    EXPECT_EQ(q["timestamp"], "2026-12-01T00:00:00Z");
    EXPECT_EQ(q["staleness_seconds"], 561600);
    EXPECT_EQ(q["unit"], "per barrel");
    EXPECT_EQ(up->requests(kAv).back().param("function"), "WTI");
    EXPECT_EQ(up->requests(kAv).back().param("interval"), "daily");
    EXPECT_EQ(ok("quote?symbol=CL")["price"], 58.41);  // the same series, kept
    av("coffee-monthly.json");
    q = ok("quote?symbol=COFFEE");
    EXPECT_EQ(q["price"], 3.8525);  // 385.25 cents a pound
    EXPECT_EQ(q["interval"], "monthly");
}

TEST_F(Markets, QuoteMetalsAndGrainsFromStooq) {
    up->serve(kStooqQuote + "?s=xauusd", csv("quote-xauusd.csv"));
    up->serve(kStooqQuote + "?s=gc.f", csv("quote-gc.csv"));
    up->serve(kStooqQuote + "?s=zs.f", csv("quote-zs.csv"));
    json q = ok("quote?symbol=gold");
    EXPECT_EQ(q["symbol"], "GOLD");
    EXPECT_EQ(q["category"], "commodities");
    EXPECT_EQ(q["price"], 4212.87);
    EXPECT_EQ(q["currency"], "USD");
    EXPECT_EQ(q["unit"], "per troy ounce");
    EXPECT_EQ(q["interval"], "daily");
    EXPECT_EQ(q["value_date"], "2026-12-04");
    EXPECT_EQ(q["source"], "Stooq (XAUUSD)");
    EXPECT_EQ(q["timestamp"], "2026-12-04T21:59:58Z");  // 22:59:58 in Warsaw (CET)
    EXPECT_EQ(q["staleness_seconds"], 223202);          // 2 days 14 hours and 2 seconds
    auto asked = up->requests(kStooqQuote);
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_EQ(asked[0].param("s"), "xauusd");
    EXPECT_EQ(asked[0].param("f"), "sd2t2ohlcv");
    EXPECT_EQ(asked[0].param("e"), "csv");
    EXPECT_NE(("&" + asked[0].query + "&").find("&h&"), std::string::npos) << asked[0].query;
    q = ok("quote?symbol=GC");
    EXPECT_EQ(q["category"], "futures");
    EXPECT_EQ(q["name"], "Gold");
    EXPECT_EQ(q["price"], 4245.6);
    EXPECT_EQ(q["value_date"], "2026-12-04");
    EXPECT_EQ(q["source"], "Stooq (GC.F)");
    EXPECT_EQ(q["timestamp"], "2026-12-04T21:59:00Z");
    EXPECT_EQ(q["staleness_seconds"], 223260);
    EXPECT_EQ(up->requests(kStooqQuote).back().param("s"), "gc.f");
    ok("quote?symbol=GOLD");  // kept five minutes
    EXPECT_EQ(up->requests(kStooqQuote).size(), 2u);
    // Soybeans: Stooq's 1106.75 cents a bushel, in dollars.
    q = ok("quote?symbol=SOYBEANS");
    EXPECT_EQ(q["price"], 11.0675);
    EXPECT_NE(q["unit"].get<std::string>().find("cents"), std::string::npos) << q["unit"];
    // A symbol Stooq cannot price (N/D) is the 404; a page that is not its CSV the 502.
    up->serve(kStooqQuote + "?s=xagusd", csv("quote-nd.csv"));
    fails("quote?symbol=SILVER", 404, "SILVER");
    up->serve(
        kStooqQuote + "?s=pl.f",
        FakeUpstream::status(200, "<html><body>Checking your browser</body></html>", "text/html"));
    fails("quote?symbol=PL", 502, "Stooq");
}

TEST_F(Markets, QuoteRefusals) {
    expect_400(get("quote"), "symbol");
    expect_400(get("quote?symbol=%24%24"), "symbol");
    expect_400(get("quote?symbol=ABCDEFGHIJKLMNOP"), "symbol");
    up->serve(kPrice, FakeUpstream::fixture("coingecko", "simple-price-empty.json"));
    fails("quote?symbol=POL", 404, "POL");
    up->serve(kPrice, FakeUpstream::fixture("coingecko", "simple-price-bitcoin-ethereum.json"));
    av("information.json");  // past the free rate limit: not kept, a 503
    fails("quote?symbol=MSFT", 503, "rate limit");
    av("global-quote-ibm.json");
    EXPECT_EQ(get("quote?symbol=MSFT").status, 200);
}

TEST_F(Markets, ListEachCategory) {
    up->serve(kCoins, FakeUpstream::fixture("coingecko", "coins-markets.json"));
    json l = ok("list");
    EXPECT_EQ(l["category"], "crypto");
    EXPECT_EQ(l["total"], 24);
    EXPECT_EQ(l["limit"], 20);
    ASSERT_EQ(l["items"].size(), 20u);
    EXPECT_EQ(l["items"][0]["symbol"], "BTC");
    EXPECT_EQ(l["items"][0]["price"], 93200);
    EXPECT_EQ(l["items"][2]["price"], 1.0002);
    EXPECT_TRUE(l["items"][3]["price"].is_null());  // BNB: not in the answer
    EXPECT_NE(up->requests(kCoins).back().param("ids").find("bitcoin,ethereum,tether"),
              std::string::npos);
    EXPECT_EQ(up->requests(kCoins).back().param("vs_currency"), "usd");
    EXPECT_EQ(listed(get("list?offset=1&limit=2"), "items", "symbol"),
              (std::vector<std::string>{"ETH", "USDT"}));
    EXPECT_EQ(listed(get("list?category=commodities"), "items", "symbol"),
              (std::vector<std::string>{"OIL", "GOLD", "SILVER", "COPPER", "COFFEE", "WHEAT",
                                        "CORN", "SOYBEANS", "OATS"}));
    EXPECT_EQ(listed(get("list?category=futures"), "items", "symbol"),
              (std::vector<std::string>{"CL", "BZ", "HG", "GC", "SI", "PL", "PA"}));
    EXPECT_EQ(ok("list?category=stocks&limit=100")["total"], 21);
    l = ok("list?category=currencies&limit=100");
    EXPECT_EQ(l["total"], 31);  // the 30 of the day and the euro
    std::map<std::string, json> prices;
    for (const auto& i : l["items"]) prices[i["symbol"]] = i["price"];
    EXPECT_EQ(prices["EUR"], 1.165);
    EXPECT_EQ(prices["GBP"], 1.33295194508);  // 1.165 / 0.874
    EXPECT_EQ(prices["USD"], 1);
    expect_400(get("list?category=bonds"), "category");
    expect_400(get("list?limit=0"), "limit");
    expect_400(get("list?limit=101"), "limit");
    expect_400(get("list?offset=-1"), "offset");
}

TEST_F(Markets, HistoryOfACoinLeavesOutDaysWithoutAPrice) {
    const std::string chart = "/coingecko/api/v3/coins/bitcoin/market_chart/range";
    up->serve(chart, FakeUpstream::fixture("coingecko", "market-chart-range.json"));
    const json h = ok("history?symbol=BTC&start=2026-12-01&end=2026-12-04");
    EXPECT_EQ(closes_dates(h),
              (std::vector<std::string>{"2026-12-01", "2026-12-03", "2026-12-04"}));
    EXPECT_EQ(h["closes"][1]["close"], 93600);
    EXPECT_EQ(h["total"], 3);
    EXPECT_EQ(h["start"], "2026-12-01");
    EXPECT_EQ(h["end"], "2026-12-04");
    const auto asked = up->requests(chart);
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_EQ(asked[0].param("from"), "1796083200");  // 2026-12-01T00:00:00Z
    EXPECT_EQ(asked[0].param("to"), "1796428800");    // 2026-12-05T00:00:00Z
    EXPECT_EQ(asked[0].param("vs_currency"), "usd");
}

TEST_F(Markets, HistoryOfACurrencyFromTheEcbFile) {
    json h = ok("history?symbol=gbp&start=2026-11-30&end=2026-12-04");
    EXPECT_EQ(closes_dates(h),
              (std::vector<std::string>{"2026-11-30", "2026-12-02", "2026-12-03", "2026-12-04"}));
    EXPECT_EQ(h["closes"][0]["close"], 1.33333333333);  // 1.156 / 0.867
    EXPECT_EQ(h["closes"][2]["close"], 1.3330279432);   // 1.164 / 0.8732
    EXPECT_EQ(h["closes"][3]["close"], 1.33295194508);  // 1.165 / 0.874
    h = ok("history?symbol=GBP&start=2026-11-30&end=2026-12-04&offset=1&limit=2");
    EXPECT_EQ(closes_dates(h), (std::vector<std::string>{"2026-12-02", "2026-12-03"}));
    EXPECT_EQ(h["total"], 4);
    // Default: the 30 days before today, and today.
    h = ok("history?symbol=GBP");
    EXPECT_EQ(h["start"], "2026-11-07");
    EXPECT_EQ(h["end"], "2026-12-07");
    EXPECT_EQ(h["total"], 4);
}

TEST_F(Markets, HistoryOfAStockAndAFuture) {
    av("time-series-daily-ibm.json");
    json h = ok("history?symbol=IBM&start=2026-11-26&end=2026-12-03");
    EXPECT_EQ(closes_dates(h), (std::vector<std::string>{"2026-11-26", "2026-11-28", "2026-12-01",
                                                         "2026-12-02", "2026-12-03"}));
    EXPECT_EQ(h["closes"][0]["close"], 296.75);
    EXPECT_EQ(up->requests(kAv).back().param("function"), "TIME_SERIES_DAILY");
    EXPECT_EQ(up->requests(kAv).back().param("outputsize"), "compact");
    av("wti-daily.json");
    h = ok("history?symbol=BZ&start=2026-11-20");
    EXPECT_EQ(closes_dates(h),
              (std::vector<std::string>{"2026-11-25", "2026-11-27", "2026-11-30", "2026-12-01"}));
    EXPECT_EQ(up->requests(kAv).back().param("function"), "BRENT");
    av("error-message.json");
    fails("history?symbol=NOPE&start=2026-12-01", 404, "NOPE");
}

TEST_F(Markets, HistoryOfGoldAndItsFutureFromStooq) {
    up->serve(kStooqDaily + "?s=xauusd", csv("daily-xauusd.csv"));
    up->serve(kStooqDaily + "?s=gc.f", csv("daily-gc.csv"));
    json h = ok("history?symbol=GOLD&start=2026-12-01&end=2026-12-04");
    EXPECT_EQ(closes_dates(h),
              (std::vector<std::string>{"2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04"}));
    EXPECT_EQ(h["closes"][0]["close"], 4190.55);
    EXPECT_EQ(h["closes"][1]["close"], 4208.1);
    EXPECT_EQ(h["closes"][2]["close"], 4195.25);
    EXPECT_EQ(h["closes"][3]["close"], 4212.87);
    EXPECT_EQ(h["total"], 4);
    EXPECT_EQ(h["interval"], "daily");
    EXPECT_EQ(h["currency"], "USD");
    EXPECT_EQ(h["source"], "Stooq (xauusd)");
    auto asked = up->requests(kStooqDaily);
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_EQ(asked[0].param("s"), "xauusd");
    EXPECT_EQ(asked[0].param("d1"), "20261201");
    EXPECT_EQ(asked[0].param("d2"), "20261204");
    EXPECT_EQ(asked[0].param("i"), "d");
    h = ok("history?symbol=gc&start=2026-11-30&end=2026-12-04&offset=1&limit=3");
    EXPECT_EQ(h["category"], "futures");
    EXPECT_EQ(closes_dates(h),
              (std::vector<std::string>{"2026-12-01", "2026-12-02", "2026-12-03"}));
    EXPECT_EQ(h["closes"][0]["close"], 4238.2);
    EXPECT_EQ(h["closes"][1]["close"], 4255.7);
    EXPECT_EQ(h["closes"][2]["close"], 4226.3);
    EXPECT_EQ(h["total"], 5);
    EXPECT_EQ(up->requests(kStooqDaily).back().param("s"), "gc.f");
    EXPECT_EQ(up->requests(kStooqDaily).back().param("d1"), "20261130");
    // A row outside the range asked for is left out (the file holds 2026-11-30 to 12-04).
    h = ok("history?symbol=GC&start=2026-12-03&end=2026-12-04");
    EXPECT_EQ(closes_dates(h), (std::vector<std::string>{"2026-12-03", "2026-12-04"}));
    // "No data": no closes, not a failure.
    up->serve(kStooqDaily + "?s=xagusd", csv("no-data.csv"));
    h = ok("history?symbol=SILVER&start=2026-12-05&end=2026-12-06");
    EXPECT_EQ(h["total"], 0);
    EXPECT_TRUE(h["closes"].empty());
    up->serve(kStooqDaily + "?s=pa.f", FakeUpstream::status(500, "oops", "text/plain"));
    fails("history?symbol=PA", 502, "Stooq");
}

TEST_F(Markets, HistoryRangeRules) {
    up->forget();
    fails("history?symbol=BTC&start=2025-01-01&end=2026-01-02", 400, "at most 366 days");
    fails("history?symbol=BTC&start=2025-01-01&end=2026-01-02", 400, "start, end");
    fails("history?symbol=BTC&start=2025-12-06", 400, "367");  // to today
    fails("history?symbol=BTC&start=2026-12-03&end=2026-12-02", 400, "is after end");
    fails("history?symbol=BTC&end=2026-12-08", 400, "after today");
    fails("history?symbol=BTC&start=2026-02-30", 400, "start");
    fails("history?symbol=BTC&start=2026-1-01", 400, "start");
    expect_400(get("history?start=2026-12-01"), "symbol");
    expect_400(get("history?symbol=BTC&limit=101"), "limit");
    EXPECT_TRUE(up->requests().empty());
    // 366 days, counting both ends, is allowed.
    up->serve("/coingecko/api/v3/coins/ethereum/market_chart/range",
              FakeUpstream::fixture("coingecko", "market-chart-range.json"));
    EXPECT_EQ(get("history?symbol=ETH&start=2025-01-01&end=2026-01-01").status, 200);
}

TEST_F(Markets, ConvertCurrenciesThroughTheEuroExactly) {
    json c = ok("convert?from=USD&to=EUR&amount=233");
    EXPECT_EQ(c["result"], 200);  // 233 / 1.165
    EXPECT_EQ(c["rate"], 0.858369098712);
    EXPECT_EQ(c["date"], "2026-12-04");
    EXPECT_EQ(c["sources"], json::array({"ECB euro foreign exchange reference rates"}));
    c = ok("convert?from=usd&to=gbp&amount=233");
    EXPECT_EQ(c["result"], 174.8);  // 200 * 0.874
    EXPECT_EQ(c["rate"], 0.750214592275);
    c = ok("convert?from=EUR&to=USD");  // amount 1
    EXPECT_EQ(c["amount"], 1);
    EXPECT_EQ(c["result"], 1.165);
    EXPECT_EQ(ok("convert?from=GBP&to=JPY&amount=0.874")["result"], 181.2);
    fails("convert?from=USD&to=RUB", 404, "RUB");
}

TEST_F(Markets, ConvertOnAPastDayBackTo1999) {
    json c = ok("convert?from=USD&to=GBP&amount=100&date=2026-12-02");
    EXPECT_EQ(c["result"], 75);  // 100 * 0.87 / 1.16
    EXPECT_EQ(c["date"], "2026-12-02");
    c = ok("convert?from=USD&to=GBP&amount=100&date=2026-12-01");  // no rates that day
    EXPECT_EQ(c["result"], 75);                                    // 100 * 0.867 / 1.156
    EXPECT_EQ(c["date"], "2026-11-30");
    c = ok("convert?from=USD&to=GBP&amount=233&date=2026-12-06");  // a Sunday: Friday's
    EXPECT_EQ(c["result"], 174.8);
    EXPECT_EQ(c["date"], "2026-12-04");
    c = ok("convert?from=USD&to=GBP&amount=1.1789&date=1999-01-04");
    EXPECT_EQ(c["result"], 0.7111);
    EXPECT_EQ(c["date"], "1999-01-04");
    fails("convert?from=USD&to=GBP&date=1998-12-31", 400, "1999-01-04");
    fails("convert?from=USD&to=GBP&date=1998-12-31", 400, "date");
    fails("convert?from=USD&to=GBP&date=2026-12-08", 400, "after today");
    fails("convert?from=BTC&to=USD&date=2026-12-01", 400, "date");
}

TEST_F(Markets, ConvertCryptoThroughTheDollar) {
    json c = ok("convert?from=BTC&to=EUR&amount=0.5");
    EXPECT_EQ(c["rate"], 80000);  // 93200 / 1.165
    EXPECT_EQ(c["result"], 40000);
    EXPECT_EQ(c["via"], "USD");
    EXPECT_EQ(c["sources"],
              json::array({"CoinGecko", "ECB euro foreign exchange reference rates"}));
    c = ok("convert?from=btc&to=eth&amount=2");
    EXPECT_EQ(c["rate"], 25);  // 93200 / 3728
    EXPECT_EQ(c["result"], 50);
    EXPECT_EQ(ok("convert?from=ETH&to=USD&amount=3")["result"], 11184);
    fails("convert?from=IBM&to=USD", 400, "from");
    fails("convert?from=USD&to=OIL", 400, "to");
    expect_400(get("convert?from=USD"), "to");
    expect_400(get("convert?from=USD&to=EUR&amount=-1"), "amount");
}

TEST_F(Markets, TheArchiveKeepsTheQuotesSeen) {
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 1000}}).status, 200);
    ok("quote?symbol=GBP");
    ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 1000}}).status, 200);
    ok("quote?symbol=BTC");
    const auto ids = listed(api.get("/api/v1/archive/list?kind=market"), "items", "id");
    ASSERT_GE(ids.size(), 2u);
    EXPECT_EQ(ids[0], "market:BTC");  // the latest seen first
    EXPECT_EQ(ids[1], "market:GBP");
    auto item = api.get("/api/v1/archive/get?id=market:BTC");
    ASSERT_EQ(item.status, 200) << item.body;
    const json d = item.json()["data"];
    EXPECT_EQ(d["kind"], "market");
    EXPECT_EQ(d["title"], "Bitcoin (BTC): 93200 USD");
    EXPECT_EQ(d["url"], "/api/v1/markets/quote?symbol=BTC");
    EXPECT_EQ(d["date"], "2026-12-07T12:00:02Z");
    EXPECT_NE(d["text"].get<std::string>().find("CoinGecko"), std::string::npos);
    EXPECT_EQ(listed(api.get("/api/v1/archive/search?query=bitcoin&kind=market"), "items", "id"),
              std::vector<std::string>{"market:BTC"});
    EXPECT_EQ(api.get("/api/v1/archive/get?id=market:NOPE").status, 404);
    // Not a route from outside.
    EXPECT_EQ(get("recent").status, 404);
}

// The same host with its upstreams failing: a 5xx is a 502, silence a 504, a body that is not
// the rates a 502; Alpha Vantage configured without its key is the 503 naming the key.
class MarketsFailing : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() {
        start_with("markets", {{"ecb"}, {"coingecko"}, {"alpha-vantage", "", "?apikey", true}});
        HttpClient c("127.0.0.1", host->api_port());
        ASSERT_EQ(c.post_json("/clock/set", {{"unix_ms", kNow}}).status, 200);
    }
};

TEST_F(MarketsFailing, EachWayAnUpstreamFailsHasItsStatus) {
    up->serve(kDaily, FakeUpstream::status(500, "<html>oops</html>", "text/html"));
    fails("quote?symbol=GBP", 502, "the ECB");
    up->serve(kDaily, xml("malformed.xml"));
    fails("convert?from=USD&to=GBP", 502, "malformed");
    up->serve(kHist, FakeUpstream::status(200, "not a zip", "application/zip"));
    fails("history?symbol=GBP", 502, "eurofxref-hist.zip");
    up->serve(kPrice, FakeUpstream::hang());
    fails("quote?symbol=ETH", 504, "CoinGecko");
    up->serve(kPrice, FakeUpstream::status(429, "{\"status\":{\"error_code\":429}}"));
    fails("quote?symbol=SOL", 503, "CoinGecko");
    fails("quote?symbol=IBM", 503, "providers.alpha-vantage.api_key");
    EXPECT_TRUE(up->requests(kAv).empty());
}

class MarketsUnconfigured : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        HostProcess::Options o;
        o.profile = test_profile_with(suite_dir() + "/markets-bare.yaml", "");
        start_host(o);
    }
};

TEST_F(MarketsUnconfigured, EveryUpstreamIs503NamingItsSetting) {
    for (const auto& [call, setting] : std::vector<std::pair<std::string, std::string>>{
             {"quote?symbol=BTC", "providers.coingecko.base_url"},
             {"list", "providers.coingecko.base_url"},
             {"quote?symbol=GBP", "providers.ecb.base_url"},
             {"convert?from=USD&to=EUR", "providers.ecb.base_url"},
             {"history?symbol=GBP", "providers.ecb.base_url"},
             {"quote?symbol=IBM", "providers.alpha-vantage.base_url"},
             {"history?symbol=OIL", "providers.alpha-vantage.base_url"},
             {"quote?symbol=GOLD", "providers.stooq.base_url"},
             {"history?symbol=GC", "providers.stooq.base_url"}}) {
        HttpResult r = api.get("/api/v1/markets/" + call);
        EXPECT_EQ(r.status, 503) << call << ": " << r.body;
        EXPECT_NE(r.body.find(setting), std::string::npos) << call << ": " << r.body;
    }
    // The ECB's public address is offered.
    EXPECT_NE(api.get("/api/v1/markets/quote?symbol=GBP").body.find("https://www.ecb.europa.eu"),
              std::string::npos);
    EXPECT_NE(api.get("/api/v1/markets/quote?symbol=PA").body.find("https://stooq.com"),
              std::string::npos);
}

}  // namespace
