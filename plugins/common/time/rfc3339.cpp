#include "common/time/rfc3339.hpp"

#include <cstdio>
#include <cstdlib>

#include "common/time/civil.hpp"

namespace common::time {

namespace {

// Reads text[at, at + n) as digits; false when it is shorter or holds anything else.
bool digits(std::string_view text, size_t at, size_t n, int& out) {
    if (at + n > text.size()) return false;
    out = 0;
    for (size_t i = at; i < at + n; ++i) {
        if (text[i] < '0' || text[i] > '9') return false;
        out = out * 10 + (text[i] - '0');
    }
    return true;
}

bool separator_at(std::string_view text, size_t at, DateTimeSeparator separator) {
    if (at >= text.size()) return false;
    const char c = text[at];
    return c == 'T' || c == 't' || (c == ' ' && separator == DateTimeSeparator::t_or_space);
}

// "YYYY-MM-DDThh:mm:ss" on the wall clock: the clock time and its date.
std::string clock_text(int64_t local_s) {
    const CivilDate d = civil_from_days(day_of(local_s));
    const int s = seconds_into_day(local_s);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", d.year, d.month, d.day,
                  s / 3600, s / 60 % 60, s % 60);
    return buf;
}

}  // namespace

std::optional<Instant> parse_rfc3339(std::string_view s, DateTimeSeparator separator) {
    int y, mo, d, h, mi, sec;
    if (!digits(s, 0, 4, y) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, mo) ||
        s[7] != '-' || !digits(s, 8, 2, d) || !separator_at(s, 10, separator) ||
        !digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':' ||
        !digits(s, 17, 2, sec))
        return std::nullopt;
    if (!valid_date(y, mo, d) || h > 23 || mi > 59 || sec > 60) return std::nullopt;
    size_t i = 19;
    int millis = 0;
    if (i < s.size() && s[i] == '.') {
        const size_t start = ++i;
        for (int scale = 100; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10)
            millis += (s[i] - '0') * scale;
        if (i == start) return std::nullopt;
    }
    int offset = 0;
    if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
        ++i;
    } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        int oh, om;
        if (!digits(s, i + 1, 2, oh) || i + 3 >= s.size() || s[i + 3] != ':' ||
            !digits(s, i + 4, 2, om) || oh > 23 || om > 59)
            return std::nullopt;
        offset = (s[i] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
        i += 6;
    } else {
        return std::nullopt;
    }
    if (i != s.size()) return std::nullopt;
    if (sec == 60) sec = 59, millis = 999;
    const int64_t local = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
    return Instant{local - offset, millis, offset};
}

std::string format_rfc3339(int64_t utc_s, int offset_s, ZeroOffset zero) {
    std::string out = clock_text(utc_s + offset_s);
    if (offset_s == 0 && zero == ZeroOffset::z) return out + "Z";
    const int a = std::abs(offset_s);
    char buf[8];
    std::snprintf(buf, sizeof buf, "%c%02d:%02d", offset_s < 0 ? '-' : '+', a / 3600 % 100,
                  a / 60 % 60);
    return out + buf;
}

std::string format_rfc3339_ms(int64_t utc_ms) {
    const int64_t secs = utc_ms / 1000 - (utc_ms % 1000 < 0);
    const int millis = static_cast<int>(utc_ms - secs * 1000);
    std::string out = clock_text(secs);
    if (millis) {
        char buf[8];
        std::snprintf(buf, sizeof buf, ".%03d", millis);
        out += buf;
    }
    return out + "Z";
}

}  // namespace common::time
