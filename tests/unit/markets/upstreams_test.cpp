// CoinGecko's and Alpha Vantage's answers as the markets plugin reads them (coingecko.hpp,
// alpha_vantage.hpp) on the fixtures of tests/fixtures/coingecko/ and alpha-vantage/, the paths
// it asks for, and which symbol goes to which upstream (symbols.hpp).
#include <gtest/gtest.h>

#include "alpha_vantage.hpp"
#include "coingecko.hpp"
#include "common/upstream/upstream.hpp"
#include "dates.hpp"
#include "fixtures.hpp"
#include "symbols.hpp"

using common::upstream::Malformed;
using nlohmann::json;
using platform::test::fixture_text;
using namespace markets;

namespace {

json fixture(const std::string& provider, const std::string& file) {
    return json::parse(fixture_text(provider, file));
}

TEST(CoinGecko, SimplePrice) {
    auto p = coingecko::price_from(fixture("coingecko", "simple-price-bitcoin.json"), "bitcoin");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->usd, 93200.0);
    EXPECT_EQ(p->updated_s, 1796644680);
    EXPECT_FALSE(coingecko::price_from(fixture("coingecko", "simple-price-empty.json"), "bitcoin"));
    EXPECT_THROW(coingecko::price_from(json::array(), "bitcoin"), Malformed);
    EXPECT_THROW(coingecko::price_from(json::parse(R"({"bitcoin":{"usd":"a lot"}})"), "bitcoin"),
                 Malformed);
    EXPECT_EQ(coingecko::price_path("bitcoin"),
              "/api/v3/simple/price?ids=bitcoin&vs_currencies=usd&include_last_updated_at=true");
}

TEST(CoinGecko, Markets) {
    const auto m = coingecko::markets_from(fixture("coingecko", "coins-markets.json"));
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m[0].id, "bitcoin");
    EXPECT_EQ(m[0].usd, 93200.0);
    EXPECT_EQ(m[0].market_cap, 1855123456789);
    EXPECT_EQ(m[0].updated, "2026-12-07T11:58:00.123Z");
    EXPECT_EQ(m[2].usd, 1.0002);
    EXPECT_THROW(coingecko::markets_from(json::object()), Malformed);
    EXPECT_EQ(coingecko::markets_path({"bitcoin", "ethereum"}),
              "/api/v3/coins/markets?vs_currency=usd&ids=bitcoin%2Cethereum&order=market_cap_desc"
              "&per_page=100&page=1");
}

TEST(CoinGecko, DailyClosesAreTheLastPriceOfEachUtcDay) {
    const json body = fixture("coingecko", "market-chart-range.json");
    const int64_t first = parse_day("start", "2026-12-01"), last = parse_day("end", "2026-12-04");
    const auto closes = coingecko::daily_closes(body, first, last);
    ASSERT_EQ(closes.size(), 3u);  // nothing on 12-02
    EXPECT_EQ(day_text(closes[0].first), "2026-12-01");
    EXPECT_EQ(closes[0].second, 92400.0);
    EXPECT_EQ(day_text(closes[1].first), "2026-12-03");
    EXPECT_EQ(closes[1].second, 93600.0);  // the point at midnight closes the day before
    EXPECT_EQ(day_text(closes[2].first), "2026-12-04");
    EXPECT_EQ(closes[2].second, 92800.0);
    // The range cuts: 12-03 alone.
    const auto one = coingecko::daily_closes(body, last - 1, last - 1);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].second, 93600.0);
    EXPECT_THROW(coingecko::daily_closes(json::object(), first, last), Malformed);
    EXPECT_THROW(coingecko::daily_closes(json::parse(R"({"prices":[[1,"x"]]})"), first, last),
                 Malformed);
    EXPECT_EQ(coingecko::range_path("bitcoin", 1796083200, 1796428800),
              "/api/v3/coins/bitcoin/market_chart/range?vs_currency=usd&from=1796083200&to="
              "1796428800");
}

TEST(AlphaVantage, GlobalQuote) {
    auto q = alpha_vantage::quote_from(fixture("alpha-vantage", "global-quote-ibm.json"));
    ASSERT_TRUE(q);
    EXPECT_EQ(q->price, 307.25);
    EXPECT_EQ(q->day, "2026-12-04");
    EXPECT_EQ(q->previous_close, 304.5);
    EXPECT_EQ(q->change_percent, 0.9031);
    EXPECT_FALSE(alpha_vantage::quote_from(fixture("alpha-vantage", "global-quote-empty.json")));
    EXPECT_THROW(alpha_vantage::quote_from(json::object()), Malformed);
    EXPECT_EQ(alpha_vantage::quote_path("IBM"), "/query?function=GLOBAL_QUOTE&symbol=IBM");
}

TEST(AlphaVantage, DailySeriesOldestFirst) {
    const auto d =
        alpha_vantage::daily_from(fixture("alpha-vantage", "time-series-daily-ibm.json"));
    ASSERT_EQ(d.size(), 6u);
    EXPECT_EQ(d[0], (std::pair<std::string, double>("2026-11-26", 296.75)));
    EXPECT_EQ(d[5], (std::pair<std::string, double>("2026-12-04", 307.25)));
    EXPECT_THROW(alpha_vantage::daily_from(fixture("alpha-vantage", "error-message.json")),
                 Malformed);
    EXPECT_EQ(alpha_vantage::daily_path("IBM", false),
              "/query?function=TIME_SERIES_DAILY&symbol=IBM&outputsize=compact");
}

TEST(AlphaVantage, CommoditySeriesSkipDaysWithoutAValueAndComeInDollars) {
    const auto wti = alpha_vantage::series_from(fixture("alpha-vantage", "wti-daily.json"), 1);
    ASSERT_EQ(wti.size(), 4u);  // "." on 2026-11-26
    EXPECT_EQ(wti.front().first, "2026-11-25");
    EXPECT_EQ(wti.back(), (std::pair<std::string, double>("2026-12-01", 58.41)));
    const auto coffee =
        alpha_vantage::series_from(fixture("alpha-vantage", "coffee-monthly.json"), 100);
    EXPECT_EQ(coffee.back().first, "2026-11-01");
    EXPECT_DOUBLE_EQ(coffee.back().second, 3.8525);  // 385.25 cents a pound
    EXPECT_EQ(alpha_vantage::series_path("WTI", "daily"), "/query?function=WTI&interval=daily");
}

TEST(AlphaVantage, RefusalsComeWith200) {
    auto n = alpha_vantage::notice_of(fixture("alpha-vantage", "information.json"));
    ASSERT_TRUE(n);
    EXPECT_TRUE(n->limit);
    n = alpha_vantage::notice_of(fixture("alpha-vantage", "error-message.json"));
    ASSERT_TRUE(n);
    EXPECT_FALSE(n->limit);
    EXPECT_NE(n->text.find("Invalid API call"), std::string::npos);
    EXPECT_FALSE(alpha_vantage::notice_of(fixture("alpha-vantage", "global-quote-ibm.json")));
}

TEST(Symbols, EachSymbolToItsUpstream) {
    EXPECT_EQ(resolve("btc").id, "bitcoin");
    EXPECT_EQ(resolve("BTC").upstream, "coingecko");
    EXPECT_EQ(resolve("GBP").category, "currencies");
    EXPECT_EQ(resolve("GBP").upstream, "ecb");
    EXPECT_EQ(resolve("OIL").id, "WTI");
    EXPECT_EQ(resolve("COFFEE").divisor, 100);
    EXPECT_EQ(resolve("CL").category, "futures");
    EXPECT_EQ(resolve("GOLD").upstream, "stooq");
    EXPECT_EQ(resolve("IBM").category, "stocks");
    EXPECT_EQ(resolve("brk.b").id, "BRK.B");  // any other ticker goes to Alpha Vantage
    EXPECT_EQ(resolve("brk.b").upstream, "alpha-vantage");
}

TEST(Symbols, TheListsOfEachCategory) {
    std::vector<std::string> commodities;
    for (const auto& i : listed("commodities")) commodities.push_back(i.symbol);
    EXPECT_EQ(commodities, (std::vector<std::string>{"OIL", "GOLD", "SILVER", "COPPER", "COFFEE",
                                                     "WHEAT", "CORN", "SOYBEANS", "OATS"}));
    std::vector<std::string> futures;
    for (const auto& i : listed("futures")) futures.push_back(i.symbol);
    EXPECT_EQ(futures, (std::vector<std::string>{"CL", "BZ", "HG", "GC", "SI", "PL", "PA"}));
    EXPECT_EQ(listed("crypto").size(), 24u);
    EXPECT_EQ(listed("stocks").size(), 21u);
    EXPECT_EQ(listed("currencies").size(), 42u);
}

}  // namespace
