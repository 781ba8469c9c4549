// ecb — the European Central Bank's euro foreign exchange reference rates
// (https://www.ecb.europa.eu/stats/eurofxref/) and the cross rates made from them.
//
// Files read (under providers.ecb.base_url, public https://www.ecb.europa.eu):
//   /stats/eurofxref/eurofxref-daily.xml   the latest day: a gesmes:Envelope whose Cube holds one
//                                          <Cube time='YYYY-MM-DD'> of <Cube currency rate/>
//                                          (the same shape, several days, as -hist-90d.xml)
//   /stats/eurofxref/eurofxref-hist.zip    every day since 1999-01-04: eurofxref-hist.csv, a
//                                          header "Date,USD,JPY,...," and one row per day, newest
//                                          first, "N/A" where a currency had no rate that day
// A rate is units of the currency for one euro (USD 1.0921: 1 EUR = 1.0921 USD); the euro is 1.
// XML is read with libxml2 (no network, no entities); CSV by hand (no quoting in these files).
// Malformed input is common::upstream::Malformed (the 502 through Upstream::parse).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace markets::ecb {

inline constexpr const char* kDailyPath = "/stats/eurofxref/eurofxref-daily.xml";
inline constexpr const char* kHistoryPath = "/stats/eurofxref/eurofxref-hist.zip";
inline constexpr const char* kHistoryMember = "eurofxref-hist.csv";

// One day's rates: currency code -> units per euro (EUR itself included, 1).
struct Day {
    std::string date;  // YYYY-MM-DD
    std::map<std::string, double> per_eur;
    // The currency's rate, or nullopt when the day has none for it.
    std::optional<double> rate(const std::string& code) const;
};

// Every day of an eurofxref XML document (daily, hist-90d, hist), oldest first.
std::vector<Day> parse_xml(const std::string& xml);
// The rows of eurofxref-hist.csv dated first..last (YYYY-MM-DD, both included; empty: no bound),
// oldest first. Currencies a row marks N/A are left out of its day.
std::vector<Day> parse_csv(const std::string& csv, const std::string& first = "",
                           const std::string& last = "");
// eurofxref-hist.csv out of eurofxref-hist.zip's bytes (Malformed when it is not there).
std::string csv_from_zip(const std::string& zip);

// The last day dated on or before `date` (the ECB publishes on TARGET working days only), or
// nullptr. `days` oldest first.
const Day* on_or_before(const std::vector<Day>& days, const std::string& date);

// Units of `to` for one unit of `from` on `day`, through the euro: per_eur[to] / per_eur[from];
// nullopt when the day has no rate for one of them.
std::optional<double> cross_rate(const Day& day, const std::string& from, const std::string& to);

// The currencies the ECB publishes or has published (the 30 of today, the euro, and those it has
// dropped: CYP, EEK, HRK, LTL, LVL, MTL, ROL, RUB, SIT, SKK, TRL), with English names.
const std::map<std::string, std::string>& currency_names();
bool is_currency(const std::string& code);

}  // namespace markets::ecb
