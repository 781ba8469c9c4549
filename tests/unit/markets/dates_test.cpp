// The calendar rules of markets/history and markets/convert (plugins/markets/dates.hpp): the
// defaults, the 366-day range (367 is refused, naming start and end and the rule), start after
// end, end after today, dates that do not exist, and convert's first day 1999-01-04.
#include "dates.hpp"

#include <gtest/gtest.h>

#include <platform/sdk.hpp>

using namespace markets;

namespace {

const int64_t kToday = parse_day("today", "2026-12-07");

// The message of the 400 `f` throws ("" when it does not throw one).
template <class F>
std::string refusal(F&& f) {
    try {
        f();
    } catch (const platform::Error& e) {
        EXPECT_EQ(e.code(), platform::Code::invalid_argument) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no error";
    return "";
}

TEST(Dates, DaysReadAndWrite) {
    EXPECT_EQ(parse_day("d", "1970-01-01"), 0);
    EXPECT_EQ(parse_day("d", "1999-01-04"), 10595);
    EXPECT_EQ(day_text(parse_day("d", "2024-02-29")), "2024-02-29");
    EXPECT_EQ(day_of_ms(1796644800000), kToday);  // 2026-12-07T12:00:00Z
    EXPECT_EQ(day_of_ms(-1), -1);
    EXPECT_NE(refusal([] { parse_day("start", "2026-02-30"); }).find("start"), std::string::npos);
    EXPECT_NE(refusal([] { parse_day("end", "2026-13-01"); }).find("end"), std::string::npos);
    EXPECT_NE(refusal([] { parse_day("end", "2026-1-01"); }).find("YYYY-MM-DD"), std::string::npos);
}

TEST(Dates, HistoryDefaultsToTheLastThirtyDaysAndToday) {
    Range r = history_range(std::nullopt, std::nullopt, kToday);
    EXPECT_EQ(day_text(r.first), "2026-11-07");
    EXPECT_EQ(day_text(r.last), "2026-12-07");
    EXPECT_EQ(r.days(), 31);
    r = history_range(std::string("2026-12-01"), std::nullopt, kToday);
    EXPECT_EQ(day_text(r.last), "2026-12-07");
    r = history_range(std::nullopt, std::string("2026-06-30"), kToday);  // 30 days before end
    EXPECT_EQ(day_text(r.first), "2026-05-31");
    r = history_range(std::string("2026-12-07"), std::string("2026-12-07"), kToday);
    EXPECT_EQ(r.days(), 1);
}

TEST(Dates, HistoryRangeIsAtMost366DaysCountingBothEnds) {
    // 2025-01-01 .. 2026-01-01 is 366 days; a day more is 367.
    Range r = history_range(std::string("2025-01-01"), std::string("2026-01-01"), kToday);
    EXPECT_EQ(r.days(), 366);
    const std::string m = refusal(
        [] { history_range(std::string("2025-01-01"), std::string("2026-01-02"), kToday); });
    EXPECT_NE(m.find("start, end"), std::string::npos) << m;
    EXPECT_NE(m.find("at most 366 days"), std::string::npos) << m;
    EXPECT_NE(m.find("367"), std::string::npos) << m;
    // A leap year: 2024-01-01 .. 2024-12-31 is 366 days.
    EXPECT_EQ(history_range(std::string("2024-01-01"), std::string("2024-12-31"), kToday).days(),
              366);
    refusal([] { history_range(std::string("2023-12-31"), std::string("2024-12-31"), kToday); });
    // start alone, more than 366 days back from today.
    refusal([] { history_range(std::string("2025-12-05"), std::nullopt, kToday); });
}

TEST(Dates, StartAfterEndAndEndAfterTodayAreRefused) {
    std::string m = refusal(
        [] { history_range(std::string("2026-12-02"), std::string("2026-12-01"), kToday); });
    EXPECT_NE(m.find("start (2026-12-02) is after end (2026-12-01)"), std::string::npos) << m;
    m = refusal([] { history_range(std::nullopt, std::string("2026-12-08"), kToday); });
    EXPECT_NE(m.find("end: 2026-12-08 is after today"), std::string::npos) << m;
    // end defaults to today, so a start in the future is after it.
    m = refusal([] { history_range(std::string("2026-12-08"), std::nullopt, kToday); });
    EXPECT_NE(m.find("after end"), std::string::npos) << m;
}

TEST(Dates, ConvertGoesBackTo1999January4) {
    EXPECT_EQ(day_text(convert_day("1999-01-04", kToday)), "1999-01-04");
    EXPECT_EQ(day_text(convert_day("2026-12-07", kToday)), "2026-12-07");
    std::string m = refusal([] { convert_day("1998-12-31", kToday); });
    EXPECT_NE(m.find("date: 1998-12-31 is before"), std::string::npos) << m;
    EXPECT_NE(m.find("1999-01-04"), std::string::npos) << m;
    refusal([] { convert_day("1999-01-03", kToday); });
    m = refusal([] { convert_day("2026-12-08", kToday); });
    EXPECT_NE(m.find("after today"), std::string::npos) << m;
    refusal([] { convert_day("2026-02-29", kToday); });
}

}  // namespace
