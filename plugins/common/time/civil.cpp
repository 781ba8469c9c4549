#include "common/time/civil.hpp"

#include <date/date.h>

namespace common::time {

const char* const kWeekdayNames[7] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                      "Thursday", "Friday", "Saturday"};
const char* const kMonthNames[12] = {"January",   "February", "March",    "April",
                                     "May",       "June",     "July",     "August",
                                     "September", "October",  "November", "December"};

namespace {
date::sys_days to_sys_days(int64_t days) {
    return date::sys_days{date::days{days}};
}
}  // namespace

int64_t days_from_civil(int year, int month, int day) {
    return date::sys_days{date::year{year} / month / day}.time_since_epoch().count();
}

CivilDate civil_from_days(int64_t days) {
    const date::year_month_day ymd{to_sys_days(days)};
    return {static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
            static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

int days_in_month(int year, int month) {
    const date::year_month_day_last last{date::year{year},
                                         date::month_day_last{date::month(month)}};
    return static_cast<int>(static_cast<unsigned>(last.day()));
}

bool valid_date(int year, int month, int day) {
    return month >= 1 && month <= 12 && day >= 1 && day <= 31 &&
           date::year_month_day{date::year{year}, date::month(month), date::day(day)}.ok();
}

int weekday_of(int64_t days) {
    return static_cast<int>(date::weekday{to_sys_days(days)}.c_encoding());
}

int64_t day_of(int64_t seconds) {
    return date::floor<date::days>(date::sys_seconds{std::chrono::seconds{seconds}})
        .time_since_epoch()
        .count();
}

int seconds_into_day(int64_t seconds) {
    return static_cast<int>(seconds - day_of(seconds) * 86400);
}

}  // namespace common::time
