#include "due.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <fstream>
#include <iterator>
#include <vector>

namespace tasks {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

// Reads `n` digits at s[pos]; -1 when they are not all digits.
int digits(const std::string& s, size_t pos, size_t n) {
    if (pos + n > s.size()) return -1;
    int v = 0;
    for (size_t i = pos; i < pos + n; ++i) {
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

bool leap(int y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

// Seconds of a calendar date and time read as UTC; nullopt when a field is out of range.
std::optional<int64_t> civil(int y, int mo, int d, int h, int mi, int s) {
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y < 1 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 60) return std::nullopt;
    if (d > mdays[mo - 1] + (mo == 2 && leap(y))) return std::nullopt;
    return days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + std::min(s, 59);
}

// Date "YYYY-MM-DD", a separator, "HH:MM" at s[0..16): seconds as UTC.
std::optional<int64_t> date_hour_minute(const std::string& s, int sec) {
    int y = digits(s, 0, 4), mo = digits(s, 5, 2), d = digits(s, 8, 2), h = digits(s, 11, 2),
        mi = digits(s, 14, 2);
    if (s.size() < 16 || s[4] != '-' || s[7] != '-' || s[13] != ':' || y < 0 || mo < 0 || d < 0 ||
        h < 0 || mi < 0)
        return std::nullopt;
    return civil(y, mo, d, h, mi, sec);
}

struct Zone {
    std::vector<int64_t> when;     // transition times, ascending
    std::vector<uint8_t> type;     // the type each starts
    std::vector<int32_t> offsets;  // utoff of each type
};

int64_t be(const unsigned char* p, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v = v << 8 | p[i];
    if (n == 4) return static_cast<int32_t>(static_cast<uint32_t>(v));
    return static_cast<int64_t>(v);
}

std::optional<Zone> load(const std::string& name) {
    if (name.empty() || name.size() > 64 || name[0] == '/' || name.find("..") != std::string::npos)
        return std::nullopt;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '/' && c != '_' && c != '-' &&
            c != '+')
            return std::nullopt;
    std::ifstream in("/usr/share/zoneinfo/" + name, std::ios::binary);
    if (!in) return std::nullopt;
    std::vector<unsigned char> b((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>());
    auto header = [&](size_t at, int64_t* counts) {
        if (at + 44 > b.size() || b[at] != 'T' || b[at + 1] != 'Z' || b[at + 2] != 'i' ||
            b[at + 3] != 'f')
            return false;
        for (int i = 0; i < 6; ++i) counts[i] = be(&b[at + 20 + 4 * i], 4);
        return true;
    };
    int64_t c[6];  // isutcnt isstdcnt leapcnt timecnt typecnt charcnt
    if (!header(0, c)) return std::nullopt;
    size_t at = 44, tsize = 4;
    if (b[4] >= '2') {  // skip the 32-bit block: the 64-bit one follows
        at += c[3] * 4 + c[3] + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0];
        if (!header(at, c)) return std::nullopt;
        at += 44;
        tsize = 8;
    }
    if (at + c[3] * (tsize + 1) + c[4] * 6 > b.size() || c[4] < 1) return std::nullopt;
    Zone z;
    for (int64_t i = 0; i < c[3]; ++i) z.when.push_back(be(&b[at + i * tsize], tsize));
    at += c[3] * tsize;
    for (int64_t i = 0; i < c[3]; ++i)
        z.type.push_back(std::min<uint8_t>(b[at + i], static_cast<uint8_t>(c[4] - 1)));
    at += c[3];
    for (int64_t i = 0; i < c[4]; ++i)
        z.offsets.push_back(static_cast<int32_t>(be(&b[at + i * 6], 4)));
    return z;
}

}  // namespace

std::optional<int64_t> parse_rfc3339(const std::string& s) {
    if (s.size() < 20 || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || s[16] != ':')
        return std::nullopt;
    int sec = digits(s, 17, 2);
    if (sec < 0) return std::nullopt;
    auto base = date_hour_minute(s, sec);
    if (!base) return std::nullopt;
    size_t i = 19;
    int64_t ms = 0;
    if (i < s.size() && s[i] == '.') {
        size_t start = ++i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        if (i == start) return std::nullopt;
        std::string frac = s.substr(start, 3);
        frac.resize(3, '0');
        ms = std::stoi(frac);
    }
    if (i == s.size() - 1 && (s[i] == 'Z' || s[i] == 'z')) return *base * 1000 + ms;
    if (i + 6 != s.size() || (s[i] != '+' && s[i] != '-') || s[i + 3] != ':') return std::nullopt;
    int oh = digits(s, i + 1, 2), om = digits(s, i + 4, 2);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return std::nullopt;
    int64_t offset = (oh * 3600 + om * 60) * (s[i] == '+' ? 1 : -1);
    return (*base - offset) * 1000 + ms;
}

std::optional<int64_t> parse_local_layout(const std::string& s) {
    if (s.size() != 16 || s[10] != ' ') return std::nullopt;
    return date_hour_minute(s, 0);
}

std::optional<int32_t> utc_offset(const std::string& zone, int64_t t) {
    if (zone.empty() || zone == "UTC" || zone == "Etc/UTC") return 0;
    auto z = load(zone);
    if (!z) return std::nullopt;
    auto it = std::upper_bound(z->when.begin(), z->when.end(), t);
    if (it == z->when.begin()) return z->offsets[0];
    return z->offsets[z->type[static_cast<size_t>(it - z->when.begin()) - 1]];
}

std::optional<int64_t> local_to_utc(const std::string& zone, int64_t local) {
    // The offset a day earlier is the one "before" any change near `local`.
    auto before = utc_offset(zone, local - 86400);
    if (!before) return std::nullopt;
    const int64_t first = local - *before;
    if (*utc_offset(zone, first) == *before) return first;  // no change, or the first of a repeat
    const int64_t after = local - *utc_offset(zone, first);
    return *utc_offset(zone, after) == *utc_offset(zone, first) ? after : first;
}

}  // namespace tasks
