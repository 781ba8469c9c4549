// The ECB's reference rates (plugins/markets/ecb.hpp) on the fixtures of tests/fixtures/ecb/: the
// daily XML read with libxml2 (its namespaces, single-quoted attributes, several days in one
// document as the 90-day file has them), the history CSV out of its ZIP (N/A, the trailing
// comma, a range of rows), the last working day on or before a date, and cross rates through
// the euro checked against values worked out by hand from the fixture's rates.
#include "ecb.hpp"

#include <gtest/gtest.h>

#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"

using common::upstream::Malformed;
using platform::test::fixture_text;
using namespace markets::ecb;

namespace {

// 12 significant digits, as the service answers rates and results.
double r12(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return std::strtod(buf, nullptr);
}

TEST(EcbXml, TheDailyFileHasOneDayOfThirtyCurrenciesAndTheEuro) {
    const auto days = parse_xml(fixture_text("ecb", "eurofxref-daily.xml"));
    ASSERT_EQ(days.size(), 1u);
    EXPECT_EQ(days[0].date, "2026-12-04");
    EXPECT_EQ(days[0].per_eur.size(), 31u);
    EXPECT_EQ(days[0].rate("EUR"), 1.0);
    EXPECT_EQ(days[0].rate("USD"), 1.165);
    EXPECT_EQ(days[0].rate("GBP"), 0.874);
    EXPECT_EQ(days[0].rate("IDR"), 19420.0);
    EXPECT_FALSE(days[0].rate("RUB"));
}

TEST(EcbXml, SeveralDaysComeOldestFirst) {
    const std::string xml = R"(<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <Cube>
    <Cube time="2026-12-04"><Cube currency="USD" rate="1.1650"/></Cube>
    <Cube time="2026-12-03"><Cube currency="USD" rate="1.1640"/><Cube currency="GBP" rate="0.8732"/></Cube>
  </Cube>
</gesmes:Envelope>)";
    const auto days = parse_xml(xml);
    ASSERT_EQ(days.size(), 2u);
    EXPECT_EQ(days[0].date, "2026-12-03");
    EXPECT_EQ(days[0].rate("GBP"), 0.8732);
    EXPECT_EQ(days[1].date, "2026-12-04");
    EXPECT_FALSE(days[1].rate("GBP"));
}

TEST(EcbXml, WhatIsNotTheRatesIsMalformed) {
    EXPECT_THROW(parse_xml(fixture_text("ecb", "malformed.xml")), Malformed);
    EXPECT_THROW(parse_xml("<html><body>Service unavailable</body></html>"), Malformed);
    EXPECT_THROW(parse_xml("<gesmes:Envelope xmlns:gesmes='g'><Cube/></gesmes:Envelope>"),
                 Malformed);  // no day
    EXPECT_THROW(parse_xml("<gesmes:Envelope xmlns:gesmes='g'><Cube><Cube time='2026-12-04'>"
                           "<Cube currency='USD' rate='one'/></Cube></Cube></gesmes:Envelope>"),
                 Malformed);
    EXPECT_THROW(parse_xml("<gesmes:Envelope xmlns:gesmes='g'><Cube><Cube time='yesterday'/>"
                           "</Cube></gesmes:Envelope>"),
                 Malformed);
    // An entity is not expanded (and a DTD is not fetched).
    EXPECT_THROW(parse_xml("<!DOCTYPE x [<!ENTITY e SYSTEM 'http://127.0.0.1/'>]>"
                           "<gesmes:Envelope xmlns:gesmes='g'><Cube><Cube time='2026-12-04'>"
                           "<Cube currency='USD' rate='&e;'/></Cube></Cube></gesmes:Envelope>"),
                 Malformed);
}

TEST(EcbCsv, TheHistoryZipHoldsEveryDayOldestFirst) {
    const std::string csv = csv_from_zip(fixture_text("ecb", "eurofxref-hist.zip"));
    EXPECT_EQ(csv, fixture_text("ecb", "eurofxref-hist.csv"));
    const auto days = parse_csv(csv);
    ASSERT_EQ(days.size(), 6u);
    EXPECT_EQ(days.front().date, "1999-01-04");
    EXPECT_EQ(days.front().rate("USD"), 1.1789);
    EXPECT_EQ(days.front().rate("GBP"), 0.7111);
    EXPECT_EQ(days.front().rate("CYP"), 0.58231);  // a currency the ECB dropped
    EXPECT_FALSE(days.front().rate("CNY"));        // N/A in 1999
    EXPECT_EQ(days.back().date, "2026-12-04");
    EXPECT_FALSE(days.back().rate("CYP"));
    EXPECT_EQ(days.back().per_eur.size(), 31u);
}

TEST(EcbCsv, ARangeOfRows) {
    const std::string csv = fixture_text("ecb", "eurofxref-hist.csv");
    const auto days = parse_csv(csv, "2026-11-30", "2026-12-03");
    ASSERT_EQ(days.size(), 3u);  // 11-30, 12-02, 12-03: no row on 12-01
    EXPECT_EQ(days[0].date, "2026-11-30");
    EXPECT_EQ(days[2].date, "2026-12-03");
    EXPECT_TRUE(parse_csv(csv, "2027-01-01").empty());
    EXPECT_THROW(parse_csv(""), Malformed);
    EXPECT_THROW(parse_csv("When,USD\n2026-12-04,1.1\n"), Malformed);
    EXPECT_THROW(parse_csv("Date,USD,\n2026-12-04,lots,\n"), Malformed);
    EXPECT_THROW(csv_from_zip("not a zip"), Malformed);
}

TEST(EcbCsv, TheLastWorkingDayOnOrBefore) {
    const auto days = parse_csv(fixture_text("ecb", "eurofxref-hist.csv"));
    EXPECT_EQ(on_or_before(days, "2026-12-06")->date, "2026-12-04");  // a Sunday
    EXPECT_EQ(on_or_before(days, "2026-12-01")->date, "2026-11-30");  // no row that day
    EXPECT_EQ(on_or_before(days, "2026-12-02")->date, "2026-12-02");
    EXPECT_EQ(on_or_before(days, "1999-01-04")->date, "1999-01-04");
    EXPECT_EQ(on_or_before(days, "1998-12-31"), nullptr);
}

TEST(EcbCrossRates, ThroughTheEuroExactlyAsByHand) {
    const auto day = parse_xml(fixture_text("ecb", "eurofxref-daily.xml"))[0];
    // 1 EUR = 1.165 USD = 0.874 GBP = 181.2 JPY.
    EXPECT_EQ(cross_rate(day, "EUR", "USD"), 1.165);
    EXPECT_EQ(cross_rate(day, "USD", "USD"), 1.0);
    EXPECT_EQ(r12(*cross_rate(day, "USD", "EUR")), 0.858369098712);  // 1 / 1.165
    EXPECT_EQ(r12(233 * *cross_rate(day, "USD", "EUR")), 200.0);     // 233 / 1.165
    EXPECT_EQ(r12(*cross_rate(day, "USD", "GBP")), 0.750214592275);  // 0.874 / 1.165
    EXPECT_EQ(r12(233 * *cross_rate(day, "USD", "GBP")), 174.8);     // 200 * 0.874
    EXPECT_EQ(r12(*cross_rate(day, "GBP", "JPY")), 207.322654462);   // 181.2 / 0.874
    EXPECT_FALSE(cross_rate(day, "USD", "RUB"));
    const auto hist = parse_csv(fixture_text("ecb", "eurofxref-hist.csv"));
    EXPECT_EQ(r12(*cross_rate(*on_or_before(hist, "2026-12-02"), "USD", "GBP")), 0.75);  // .87/1.16
    EXPECT_EQ(r12(*cross_rate(*on_or_before(hist, "2026-12-01"), "USD", "GBP")),
              0.75);  // 11-30: .867/1.156
    EXPECT_EQ(r12(1.1789 * *cross_rate(hist[0], "USD", "GBP")), 0.7111);
}

TEST(EcbCurrencies, TheTableKnowsTodaysAndDroppedCurrencies) {
    EXPECT_TRUE(is_currency("EUR"));
    EXPECT_TRUE(is_currency("GBP"));
    EXPECT_TRUE(is_currency("CYP"));
    EXPECT_FALSE(is_currency("BTC"));
    EXPECT_FALSE(is_currency("gbp"));
    for (const auto& d : parse_xml(fixture_text("ecb", "eurofxref-daily.xml")))
        for (const auto& [code, rate] : d.per_eur) EXPECT_TRUE(is_currency(code)) << code;
}

}  // namespace
