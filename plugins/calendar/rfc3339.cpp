#include "rfc3339.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "tz.hpp"

namespace calendar {

namespace {
bool digits(const std::string& s, size_t at, size_t n, int& out) {
    if (at + n > s.size()) return false;
    out = 0;
    for (size_t i = at; i < at + n; ++i) {
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
        out = out * 10 + (s[i] - '0');
    }
    return true;
}
}  // namespace

std::optional<Instant> parse_rfc3339(const std::string& s) {
    int y, mo, d, h, mi, sec;
    if (!digits(s, 0, 4, y) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, mo) ||
        s[7] != '-' || !digits(s, 8, 2, d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
        !digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':' ||
        !digits(s, 17, 2, sec))
        return std::nullopt;
    if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 60)
        return std::nullopt;
    size_t i = 19;
    if (i < s.size() && s[i] == '.') {
        size_t start = ++i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
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
    const int64_t local =
        days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + (sec == 60 ? 59 : sec);
    return Instant{local - offset, offset};
}

std::string format_rfc3339(int64_t utc_s, int offset_s) {
    const int64_t local = utc_s + offset_s;
    int64_t days = local / 86400, rem = local % 86400;
    if (rem < 0) rem += 86400, --days;
    const CivilDate c = civil_from_days(days);
    char buf[40];
    int n = std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", c.year, c.month, c.day,
                          static_cast<int>(rem / 3600), static_cast<int>(rem / 60 % 60),
                          static_cast<int>(rem % 60));
    if (offset_s == 0) {
        std::snprintf(buf + n, sizeof buf - n, "Z");
    } else {
        const int a = std::abs(offset_s);
        std::snprintf(buf + n, sizeof buf - n, "%c%02d:%02d", offset_s < 0 ? '-' : '+', a / 3600,
                      a / 60 % 60);
    }
    return buf;
}

}  // namespace calendar
