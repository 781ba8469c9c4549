// Stooq's CSV as the markets plugin reads it (stooq.hpp) on the fixtures of tests/fixtures/stooq/
// (its format as Stooq serves it): the latest quote, N/D for a symbol it cannot price, daily bars,
// "No data", the paths it asks for, and every malformed body a Malformed (the upstream's 502).
#include "stooq.hpp"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"
#include "symbols.hpp"

using common::upstream::Malformed;
using platform::test::fixture_text;
using namespace markets;

namespace {

std::string csv(const std::string& file) {
    return fixture_text("stooq", file);
}

TEST(Stooq, Quote) {
    auto q = stooq::quote_from(csv("quote-xauusd.csv"), "xauusd", 1);
    ASSERT_TRUE(q);
    EXPECT_EQ(q->symbol, "XAUUSD");
    EXPECT_EQ(q->date, "2026-12-04");
    EXPECT_EQ(q->time, "22:59:58");
    EXPECT_EQ(q->close, 4212.87);
    q = stooq::quote_from(csv("quote-gc.csv"), "gc.f", 1);
    ASSERT_TRUE(q);
    EXPECT_EQ(q->close, 4245.6);
    q = stooq::quote_from(csv("quote-zs.csv"), "zs.f", 100);  // cents a bushel -> dollars
    ASSERT_TRUE(q);
    EXPECT_DOUBLE_EQ(q->close, 11.0675);
    // Without CRs, and without a final line end.
    q = stooq::quote_from("Symbol,Date,Time,Close\nPL.F,2026-12-04,22:58:00,1520.5", "pl.f", 1);
    ASSERT_TRUE(q);
    EXPECT_EQ(q->close, 1520.5);
}

TEST(Stooq, QuoteNotAvailableIsNullopt) {
    EXPECT_FALSE(stooq::quote_from(csv("quote-nd.csv"), "xagusd", 1));
    EXPECT_FALSE(
        stooq::quote_from("Symbol,Date,Time,Open,High,Low,Close,Volume\r\n"
                          "ZZ.F,N/D,N/D,N/D,N/D,N/D,N/D,N/D\r\n",
                          "zz.f", 1));
}

TEST(Stooq, MalformedQuotes) {
    const std::string header = "Symbol,Date,Time,Open,High,Low,Close,Volume\r\n";
    for (const std::string& body : {
             std::string(""),
             std::string("<!DOCTYPE html><html><body>Checking your browser</body></html>"),
             std::string("No data"),
             header,  // no row
             header + "XAUUSD,2026-12-04,22:59:58,1,2,0.5,1.5,\r\n" +
                 "XAUUSD,2026-12-04,"
                 "22:59:59,1,2,0.5,1.5,\r\n",                          // two rows
             header + "XAUUSD,2026-12-04,22:59:58,1,2,0.5,1.5\r\n",    // a field short
             header + "XAGUSD,2026-12-04,22:59:58,1,2,0.5,1.5,\r\n",   // another symbol
             header + "XAUUSD,04.12.2026,22:59:58,1,2,0.5,1.5,\r\n",   // the date
             header + "XAUUSD,2026-12-04,25:00:00,1,2,0.5,1.5,\r\n",   // the hour
             header + "XAUUSD,2026-12-04,2259,1,2,0.5,1.5,\r\n",       // the time
             header + "XAUUSD,2026-12-04,22:59:58,1,2,0.5,,\r\n",      // no close
             header + "XAUUSD,2026-12-04,22:59:58,1,2,0.5,1.5x,\r\n",  // not a number
             header + "XAUUSD,2026-12-04,22:59:58,1,2,0.5,-1,\r\n",    // negative
             header + "XAUUSD,2026-12-04,22:59:58,1,2,0.5,nan,\r\n",   // not finite
             std::string("Symbol,Date,Time,Open\r\nXAUUSD,2026-12-04,22:59:58,1\r\n"),  // no Close
             header + "\"XAUUSD\",2026-12-04,22:59:58,1,2,0.5,1.5,\r\n",                // quoted
         })
        EXPECT_THROW(stooq::quote_from(body, "xauusd", 1), Malformed) << body;
}

TEST(Stooq, Daily) {
    auto d = stooq::daily_from(csv("daily-xauusd.csv"), 1);
    ASSERT_EQ(d.size(), 4u);
    EXPECT_EQ(d[0].first, "2026-12-01");
    EXPECT_EQ(d[0].second, 4190.55);
    EXPECT_EQ(d[3].first, "2026-12-04");
    EXPECT_EQ(d[3].second, 4212.87);
    d = stooq::daily_from(csv("daily-gc.csv"), 1);
    ASSERT_EQ(d.size(), 5u);
    EXPECT_EQ(d[0], (std::pair<std::string, double>{"2026-11-30", 4230.4}));
    EXPECT_EQ(d[4], (std::pair<std::string, double>{"2026-12-04", 4245.6}));
    // No Volume column (a spot price), rows out of order, divided: still read.
    d = stooq::daily_from(
        "Date,Open,High,Low,Close\n2026-12-02,1,1,1,1105\n2026-12-01,1,1,1,1100\n", 100);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0], (std::pair<std::string, double>{"2026-12-01", 11}));
    EXPECT_EQ(d[1], (std::pair<std::string, double>{"2026-12-02", 11.05}));
    // A header alone: no day.
    EXPECT_TRUE(stooq::daily_from("Date,Open,High,Low,Close,Volume\r\n", 1).empty());
}

TEST(Stooq, NoDataIsNoDay) {
    EXPECT_TRUE(stooq::daily_from(csv("no-data.csv"), 1).empty());
    EXPECT_TRUE(stooq::daily_from("No data\r\n", 1).empty());
}

TEST(Stooq, MalformedDaily) {
    const std::string header = "Date,Open,High,Low,Close,Volume\r\n";
    for (const std::string& body : {
             std::string(""),
             std::string("<html><body>Exceeded the daily hits limit</body></html>"),
             std::string("No data, try later"),
             header + "2026-12-01,1,2,0.5,1.5\r\n",                        // a field short
             header + "20261201,1,2,0.5,1.5,10\r\n",                       // the date
             header + "2026-12-01,1,2,0.5,N/D,10\r\n",                     // the close
             std::string("Date,Open,High,Low\r\n2026-12-01,1,2,0.5\r\n"),  // no Close
         })
        EXPECT_THROW(stooq::daily_from(body, 1), Malformed) << body;
}

TEST(Stooq, Paths) {
    EXPECT_EQ(stooq::quote_path("xauusd"), "/q/l/?s=xauusd&f=sd2t2ohlcv&h&e=csv");
    EXPECT_EQ(stooq::daily_path("gc.f", "2026-11-30", "2026-12-04"),
              "/q/d/l/?s=gc.f&d1=20261130&d2=20261204&i=d");
}

TEST(Stooq, SymbolsItCarries) {
    for (const auto& [symbol, id, divisor] :
         std::vector<std::tuple<std::string, std::string, double>>{{"GOLD", "xauusd", 1},
                                                                   {"silver", "xagusd", 1},
                                                                   {"SOYBEANS", "zs.f", 100},
                                                                   {"OATS", "zo.f", 100},
                                                                   {"GC", "gc.f", 1},
                                                                   {"SI", "si.f", 1},
                                                                   {"PL", "pl.f", 1},
                                                                   {"pa", "pa.f", 1}}) {
        const Instrument i = resolve(symbol);
        EXPECT_EQ(i.upstream, "stooq") << symbol;
        EXPECT_EQ(i.id, id) << symbol;
        EXPECT_EQ(i.divisor, divisor) << symbol;
        EXPECT_EQ(i.interval, "daily") << symbol;
    }
    EXPECT_EQ(resolve("GOLD").unit, "per troy ounce");
    EXPECT_NE(resolve("OATS").unit.find("cents"), std::string::npos);
    for (const char* category : {"commodities", "futures"})
        for (const auto& i : listed(category)) EXPECT_FALSE(i.upstream.empty()) << i.symbol;
}

}  // namespace
