#include "dates.hpp"

#include <cstdio>
#include <platform/sdk.hpp>

#include "common/time/civil.hpp"

namespace markets {

namespace {

bool digits(const std::string& s, size_t from, size_t n) {
    for (size_t i = from; i < from + n; ++i)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

}  // namespace

int64_t parse_day(const std::string& name, const std::string& text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !digits(text, 0, 4) ||
        !digits(text, 5, 2) || !digits(text, 8, 2))
        throw platform::invalid_argument(name + ": '" + text + "' is not a date (YYYY-MM-DD)");
    const int y = std::stoi(text.substr(0, 4)), m = std::stoi(text.substr(5, 2)),
              d = std::stoi(text.substr(8, 2));
    if (!common::time::valid_date(y, m, d))
        throw platform::invalid_argument(name + ": " + text + " is not a date");
    return common::time::days_from_civil(y, m, d);
}

std::string day_text(int64_t day) {
    const auto c = common::time::civil_from_days(day);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", c.year, c.month, c.day);
    return buf;
}

int64_t day_of_ms(int64_t unix_ms) {
    int64_t s = unix_ms / 1000;
    if (unix_ms % 1000 < 0) --s;
    return common::time::day_of(s);
}

Range history_range(const std::optional<std::string>& start, const std::optional<std::string>& end,
                    int64_t today) {
    Range r;
    r.last = end ? parse_day("end", *end) : today;
    r.first = start ? parse_day("start", *start) : r.last - kDefaultDaysBack;
    if (r.last > today)
        throw platform::invalid_argument("end: " + day_text(r.last) + " is after today (" +
                                         day_text(today) + ", UTC)");
    if (r.first > r.last)
        throw platform::invalid_argument("start, end: start (" + day_text(r.first) +
                                         ") is after end (" + day_text(r.last) + ")");
    if (r.days() > kMaxRangeDays)
        throw platform::invalid_argument("start, end: the range is at most " +
                                         std::to_string(kMaxRangeDays) +
                                         " days counting both ends; " + day_text(r.first) + " to " +
                                         day_text(r.last) + " is " + std::to_string(r.days()));
    return r;
}

int64_t convert_day(const std::string& date, int64_t today) {
    const int64_t day = parse_day("date", date);
    if (day < parse_day("date", kFirstRateDay))
        throw platform::invalid_argument("date: " + date +
                                         " is before the first euro reference rates (" +
                                         std::string(kFirstRateDay) + ")");
    if (day > today)
        throw platform::invalid_argument("date: " + date + " is after today (" + day_text(today) +
                                         ", UTC)");
    return day;
}

}  // namespace markets
