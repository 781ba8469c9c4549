#include "tz.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace calendar {

int64_t days_from_civil(int y, int m, int d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

CivilDate civil_from_days(int64_t z) {
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    return {static_cast<int>(yoe + era * 400) + (m <= 2), m, d};
}

int days_in_month(int y, int m) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

namespace {

int64_t floor_div(int64_t a, int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

// Reads a POSIX TZ string left to right; each reader returns false on malformed input.
struct Cursor {
    const std::string& s;
    size_t i = 0;
    bool end() const { return i >= s.size(); }
    char peek() const { return end() ? '\0' : s[i]; }
    bool number(int& out, int max_digits = 3) {
        int n = 0, digits = 0;
        while (!end() && std::isdigit(static_cast<unsigned char>(s[i])) && digits < max_digits)
            n = n * 10 + (s[i++] - '0'), ++digits;
        out = n;
        return digits > 0;
    }
    bool name() {
        if (peek() == '<') {
            size_t close = s.find('>', i);
            if (close == std::string::npos) return false;
            i = close + 1;
            return true;
        }
        size_t start = i;
        while (!end() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
        return i - start >= 3;
    }
    // [+-]hh[:mm[:ss]] in seconds, with the sign as written.
    bool clock(int& out) {
        int sign = 1;
        if (peek() == '+' || peek() == '-') sign = s[i++] == '-' ? -1 : 1;
        int h = 0, m = 0, sec = 0;
        if (!number(h)) return false;
        if (peek() == ':') {
            ++i;
            if (!number(m, 2)) return false;
            if (peek() == ':') {
                ++i;
                if (!number(sec, 2)) return false;
            }
        }
        out = sign * (h * 3600 + m * 60 + sec);
        return true;
    }
};

}  // namespace

PosixRule::PosixRule(const std::string& text) {
    Cursor c{text};
    int off = 0;
    if (!c.name() || !c.clock(off)) return;
    std_off_ = -off;
    if (c.end()) {
        ok_ = true;
        return;
    }
    if (!c.name()) return;
    dst_ = true;
    dst_off_ = std_off_ + 3600;
    if (c.peek() != ',' && !c.end()) {
        if (!c.clock(off)) return;
        dst_off_ = -off;
    }
    auto when = [&](When& w) {
        if (c.peek() != ',') return false;
        ++c.i;
        if (c.peek() == 'J') {
            ++c.i;
            w.kind = 'J';
            if (!c.number(w.a) || w.a < 1 || w.a > 365) return false;
        } else if (c.peek() == 'M') {
            ++c.i;
            w.kind = 'M';
            if (!c.number(w.a, 2) || c.peek() != '.') return false;
            ++c.i;
            if (!c.number(w.b, 1) || c.peek() != '.') return false;
            ++c.i;
            if (!c.number(w.c, 1) || w.a < 1 || w.a > 12 || w.b < 1 || w.b > 5 || w.c > 6)
                return false;
        } else {
            w.kind = 'D';
            if (!c.number(w.a) || w.a > 365) return false;
        }
        if (c.peek() == '/') {
            ++c.i;
            if (!c.clock(w.time)) return false;
        }
        return true;
    };
    if (c.end()) {  // no rule given: the POSIX default (US rules since 2007)
        start_ = {'M', 3, 2, 0, 7200};
        end_ = {'M', 11, 1, 0, 7200};
        ok_ = true;
        return;
    }
    ok_ = when(start_) && when(end_) && c.end();
}

int64_t PosixRule::local_seconds(const When& w, int year) {
    const bool leap = days_in_month(year, 2) == 29;
    int64_t day = 0;
    if (w.kind == 'J') {
        day = w.a - 1 + (leap && w.a >= 60 ? 1 : 0);
    } else if (w.kind == 'D') {
        day = w.a;
    } else {
        const int64_t first = days_from_civil(year, w.a, 1);
        const int weekday =
            static_cast<int>(((first % 7) + 7 + 4) % 7);  // 1970-01-01 was a Thursday
        int dom = 1 + (w.c - weekday + 7) % 7 + (w.b - 1) * 7;
        while (dom > days_in_month(year, w.a)) dom -= 7;
        day = first + dom - 1 - days_from_civil(year, 1, 1);
    }
    return day * 86400 + w.time;
}

int PosixRule::offset_at(int64_t t) const {
    if (!dst_) return std_off_;
    const int year = civil_from_days(floor_div(t + std_off_, 86400)).year;
    const int64_t y0 = days_from_civil(year, 1, 1) * 86400;
    const int64_t start = y0 + local_seconds(start_, year) - std_off_;
    const int64_t end = y0 + local_seconds(end_, year) - dst_off_;
    const bool dst = start < end ? (t >= start && t < end) : !(t >= end && t < start);
    return dst ? dst_off_ : std_off_;
}

std::shared_ptr<TimeZone> TimeZone::parse(const std::string& name, const std::string& b) {
    auto be = [&](size_t at, int bytes) -> int64_t {
        uint64_t v = 0;
        for (int k = 0; k < bytes; ++k) v = (v << 8) | static_cast<uint8_t>(b[at + k]);
        if (bytes == 4) return static_cast<int32_t>(static_cast<uint32_t>(v));
        return static_cast<int64_t>(v);
    };
    auto header = [&](size_t at, int64_t counts[6]) {
        if (b.size() < at + 44 || b.compare(at, 4, "TZif") != 0) return false;
        for (int k = 0; k < 6; ++k) counts[k] = be(at + 20 + 4 * k, 4);
        return true;
    };
    int64_t n[6];  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
    if (!header(0, n)) return nullptr;
    auto block = [&](const int64_t* c, int tsize) {
        return c[3] * tsize + c[3] + c[4] * 6 + c[5] + c[2] * (tsize + 4) + c[1] + c[0];
    };
    size_t at = 44;
    int tsize = 4;
    if (b[4] >= '2') {
        at += block(n, 4);
        if (!header(at, n)) return nullptr;
        at += 44;
        tsize = 8;
    }
    if (n[4] < 1 || b.size() < at + static_cast<size_t>(block(n, tsize))) return nullptr;
    auto zone = std::make_shared<TimeZone>();
    zone->name_ = name;
    for (int64_t k = 0; k < n[3]; ++k) zone->times_.push_back(be(at + k * tsize, tsize));
    at += n[3] * tsize;
    for (int64_t k = 0; k < n[3]; ++k) {
        uint8_t idx = static_cast<uint8_t>(b[at + k]);
        if (idx >= n[4]) return nullptr;
        zone->indices_.push_back(idx);
    }
    at += n[3];
    for (int64_t k = 0; k < n[4]; ++k, at += 6)
        zone->types_.push_back({static_cast<int32_t>(be(at, 4)), b[at + 4] != 0});
    at += n[5] + n[2] * (tsize + 4) + n[1] + n[0];
    if (tsize == 8 && at < b.size() && b[at] == '\n') {
        size_t close = b.find('\n', at + 1);
        if (close != std::string::npos && close > at + 1) {
            auto rule = std::make_unique<PosixRule>(b.substr(at + 1, close - at - 1));
            if (rule->ok()) zone->footer_ = std::move(rule);
        }
    }
    return zone;
}

std::shared_ptr<const TimeZone> TimeZone::utc() {
    static const std::shared_ptr<const TimeZone> zone = [] {
        auto z = std::make_shared<TimeZone>();
        z->name_ = "UTC";
        z->types_.push_back({0, false});
        return z;
    }();
    return zone;
}

std::shared_ptr<const TimeZone> TimeZone::load(const std::string& name) {
    if (name == "UTC") return utc();
    if (name.empty() || name.size() > 64 || name.front() == '/' ||
        name.find("..") != std::string::npos)
        return nullptr;
    for (char ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '/' && ch != '_' && ch != '+' &&
            ch != '-')
            return nullptr;
    static std::mutex m;
    static std::map<std::string, std::shared_ptr<const TimeZone>> cache;
    std::lock_guard<std::mutex> g(m);
    if (auto it = cache.find(name); it != cache.end()) return it->second;
    std::ifstream in("/usr/share/zoneinfo/" + name, std::ios::binary);
    if (!in) return nullptr;
    std::stringstream bytes;
    bytes << in.rdbuf();
    std::shared_ptr<const TimeZone> zone = parse(name, bytes.str());
    if (zone) cache[name] = zone;
    return zone;
}

int TimeZone::offset_at(int64_t t) const {
    if (times_.empty() || t >= times_.back()) {
        if (footer_) return footer_->offset_at(t);
        if (times_.empty()) return types_[0].offset;
    }
    if (t < times_.front()) return types_[0].offset;
    auto it = std::upper_bound(times_.begin(), times_.end(), t);
    return types_[indices_[static_cast<size_t>(it - times_.begin()) - 1]].offset;
}

int64_t TimeZone::to_utc(int64_t local) const {
    const int before = offset_at(local - 86400), after = offset_at(local + 86400);
    const bool before_fits = offset_at(local - before) == before;
    const bool after_fits = offset_at(local - after) == after;
    if (before_fits && after_fits) return std::min(local - before, local - after);
    if (before_fits) return local - before;
    if (after_fits) return local - after;
    return local - before;  // in a gap: the offset before it moves the time forward
}

}  // namespace calendar
