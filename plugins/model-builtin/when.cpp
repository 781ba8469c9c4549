#include "when.hpp"

#include <cctype>
#include <platform/sdk/text.hpp>
#include <vector>

namespace builtin {

namespace {

namespace pt = common::time;

struct Token {
    size_t begin, end;  // bytes of the original text
    std::string word;   // lower case, without trailing punctuation
};

std::vector<Token> tokens_of(const std::string& text) {
    std::vector<Token> out;
    for (size_t i = 0; i < text.size();) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        const size_t b = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (b == i) break;
        std::string w = platform::lower(text.substr(b, i - b));
        while (!w.empty() &&
               (w.back() == ',' || w.back() == ';' || w.back() == '!' || w.back() == '?'))
            w.pop_back();
        if (w.size() > 1 && w.back() == '.' && w.find('.') == w.size() - 1)
            w.pop_back();  // "9am." but not "p.m."
        out.push_back({b, i, w});
    }
    return out;
}

int index_of(const std::string& w, const char* const* names, int count, size_t min_len) {
    if (w.size() < min_len) return -1;
    for (int k = 0; k < count; ++k) {
        const std::string name = names[k];
        const std::string lower = platform::lower(name);
        if (lower == w || (w.size() <= lower.size() && lower.compare(0, w.size(), w) == 0 &&
                           (w.size() == 3 || w.size() == 4)))
            return k;
    }
    return -1;
}
int weekday_index(const std::string& w) {
    return index_of(w, pt::kWeekdayNames, 7, 3);
}
int month_index(const std::string& w) {
    return w == "may" ? 4 : index_of(w, pt::kMonthNames, 12, 3);
}

bool all_digits(const std::string& s, size_t b, size_t e) {
    if (b >= e) return false;
    for (size_t i = b; i < e; ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
}

// "3", "3rd", "21st": the day of the month, else -1.
int ordinal(const std::string& w) {
    size_t e = w.size();
    for (const char* s : {"st", "nd", "rd", "th"})
        if (e > 2 && w.compare(e - 2, 2, s) == 0) e -= 2;
    if (e == 0 || e > 2 || !all_digits(w, 0, e)) return -1;
    const int d = std::stoi(w.substr(0, e));
    return d >= 1 && d <= 31 ? d : -1;
}

int number_word(const std::string& w) {
    static const char* const words[] = {"zero",  "one",   "two",  "three", "four",   "five",  "six",
                                        "seven", "eight", "nine", "ten",   "eleven", "twelve"};
    if (w == "a" || w == "an") return 1;
    for (int k = 0; k < 13; ++k)
        if (w == words[k]) return k;
    if (all_digits(w, 0, w.size()) && w.size() <= 4) return std::stoi(w);
    return -1;
}

struct Scanner {
    const std::vector<Token>& t;
    const LocalClock& clock;
    bool evening = false, meridiem = false;

    const std::string& at(size_t i) const {
        static const std::string none;
        return i < t.size() ? t[i].word : none;
    }

    // A calendar date at i ("2026-12-03", "3rd of December", "December 3"): tokens used, or 0.
    size_t date(size_t i, int64_t& day) const {
        const std::string& w = at(i);
        if (w.size() == 10 && w[4] == '-' && w[7] == '-' && all_digits(w, 0, 4) &&
            all_digits(w, 5, 7) && all_digits(w, 8, 10)) {
            const int y = std::stoi(w.substr(0, 4)), m = std::stoi(w.substr(5, 2)),
                      d = std::stoi(w.substr(8, 2));
            if (!pt::valid_date(y, m, d)) return 0;
            day = pt::days_from_civil(y, m, d);
            return 1;
        }
        int d = ordinal(w), m = -1;
        size_t used = 0;
        if (d > 0) {
            const size_t j = at(i + 1) == "of" ? i + 2 : i + 1;
            if ((m = month_index(at(j))) >= 0) used = j - i + 1;
        } else if ((m = month_index(w)) >= 0 && (d = ordinal(at(i + 1))) > 0) {
            used = 2;
        }
        if (!used) return 0;
        const int year = pt::civil_from_days(clock.today()).year;
        for (int y = year; y <= year + 1; ++y) {
            if (d > pt::days_in_month(y, m + 1)) continue;
            day = pt::days_from_civil(y, m + 1, d);
            if (day >= clock.today()) return used;
        }
        return 0;
    }

    // A day at i: tokens used, or 0. `bare` allows a weekday without a preposition.
    size_t day(size_t i, bool bare, WhenFound& f) {
        const int64_t today = clock.today();
        const std::string& w = at(i);
        if (w == "today") return f.day = today, 1;
        if (w == "tonight") return f.day = today, evening = true, 1;
        if (w == "tomorrow" || w == "tmrw" || w == "tomorow") return f.day = today + 1, 1;
        const size_t the = w == "the" ? 1 : 0;
        if (at(i + the) == "day" && at(i + the + 1) == "after" && at(i + the + 2) == "tomorrow")
            return f.day = today + 2, the + 3;
        if ((w == "this" || w == "next") && at(i + 1) == "week") {
            const int wd = LocalClock::weekday_of(today);
            f.day = w == "this" ? today : today + (wd == 1 ? 7 : (8 - wd) % 7);
            f.days = 7;
            return 2;
        }
        if (w == "this" && at(i + 1) == "weekend") {
            const int wd = LocalClock::weekday_of(today);
            f.day = wd == 0 ? today : today + (6 - wd);
            f.days = wd == 0 ? 1 : 2;
            return 2;
        }
        const bool prep =
            w == "on" || w == "next" || w == "this" || w == "coming" || w == "by" || w == "until";
        const size_t j = prep ? i + 1 : i;
        int64_t date_day = 0;
        if (const size_t used = date(j + (prep && at(j) == "the" ? 1 : 0), date_day)) {
            f.day = date_day;
            return used + (j - i) + (prep && at(j) == "the" ? 1 : 0);
        }
        const int wd = weekday_index(at(j));
        if (wd < 0 || (!prep && !bare)) return 0;
        int64_t d = today + (wd - LocalClock::weekday_of(today) + 7) % 7;
        if (w == "next" && d == today) d += 7;
        f.day = d;
        f.weekday = true;
        return j - i + 1;
    }

    // A clock time at i: tokens used, or 0.
    size_t time(size_t i, WhenFound* f) {
        size_t j = i;
        const bool prep = at(j) == "at" || at(j) == "@" || at(j) == "around" || at(j) == "by";
        if (prep) ++j;
        const std::string& w = at(j);
        int minute = -1;
        bool am = false, pm = false, colon = false, zero = false;
        size_t used = 0;
        if (w == "noon" || w == "midday")
            minute = 720, used = j - i + 1, am = true;
        else if (w == "midnight")
            minute = 1440, used = j - i + 1, am = true;
        else {
            size_t k = 0;
            while (k < w.size() && std::isdigit(static_cast<unsigned char>(w[k]))) ++k;
            if (k == 0 || k > 2) return 0;
            int h = std::stoi(w.substr(0, k)), m = 0;
            zero = w[0] == '0' && k == 2;
            if (k < w.size() && (w[k] == ':' || w[k] == '.') && k + 3 <= w.size() &&
                all_digits(w, k + 1, k + 3)) {
                m = std::stoi(w.substr(k + 1, 2));
                colon = true;
                k += 3;
            }
            std::string suffix = w.substr(k);
            size_t extra = 0;
            if (suffix.empty()) {
                const std::string& next = at(j + 1);
                if (next == "am" || next == "a.m." || next == "pm" || next == "p.m." ||
                    next == "o'clock")
                    suffix = next, extra = 1;
            }
            if (suffix == "am" || suffix == "a.m.")
                am = true;
            else if (suffix == "pm" || suffix == "p.m.")
                pm = true;
            else if (!suffix.empty() && suffix != "o'clock")
                return 0;
            if (!prep && !am && !pm && !colon) return 0;
            if (h > 23 || m > 59 || ((am || pm) && (h < 1 || h > 12))) return 0;
            if (pm && h < 12) h += 12;
            if (am && h == 12) h = 0;
            minute = h * 60 + m;
            used = j - i + 1 + extra;
        }
        const size_t p = i + used;  // "in the morning / afternoon / evening"
        if (!am && !pm && at(p) == "in" && at(p + 1) == "the") {
            const std::string& part = at(p + 2);
            if (part == "morning")
                am = true, used += 3;
            else if (part == "afternoon" || part == "evening")
                pm = true, used += 3, minute += minute < 720 ? 720 : 0;
        }
        if (f) {
            const int h = minute / 60;
            if (!am && !pm && !zero && h >= 1 && h <= 6) minute += 720;
            f->minute = minute;
            meridiem = am || pm || zero;
        }
        return used;
    }

    // "in 2 hours", "in half an hour": tokens used, or 0.
    size_t relative(size_t i, WhenFound& f) const {
        if (at(i) != "in") return 0;
        if (at(i + 1) == "half" && at(i + 2) == "an" && at(i + 3) == "hour")
            return f.instant = clock.now() + 1800, 4;
        size_t j = i + 1;
        int n = -1;
        if (at(j) == "a" && at(j + 1) == "couple" && at(j + 2) == "of")
            n = 2, j += 3;
        else if (at(j) == "a" && at(j + 1) == "few")
            n = 3, j += 2;
        else if ((n = number_word(at(j))) >= 0)
            ++j;
        if (n < 0) return 0;
        const std::string& u = at(j);
        int64_t unit = 0;
        if (u == "minute" || u == "minutes" || u == "min" || u == "mins")
            unit = 60;
        else if (u == "hour" || u == "hours" || u == "hr" || u == "hrs")
            unit = 3600;
        else if (u == "day" || u == "days")
            unit = 86400;
        else if (u == "week" || u == "weeks")
            unit = 7 * 86400;
        if (!unit) return 0;
        f.instant = clock.now() + n * unit;
        return j - i + 1;
    }
};

std::string trimmed(std::string s) {
    while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == ','))
        s.pop_back();
    size_t b = 0;
    while (b < s.size() && (std::isspace(static_cast<unsigned char>(s[b])) || s[b] == ',')) ++b;
    return s.substr(b);
}

}  // namespace

WhenFound find_when(const std::string& text, const LocalClock& clock) {
    const std::vector<Token> t = tokens_of(text);
    Scanner s{t, clock};
    WhenFound f;
    std::vector<bool> cut(t.size(), false);
    size_t last_end = static_cast<size_t>(-1);
    for (size_t i = 0; i < t.size();) {
        size_t used = 0;
        if (!f.instant && !f.day && !f.minute) used = s.relative(i, f);
        if (!used && !f.day && !f.instant) {
            const bool bare = i == 0 || last_end == i || s.time(i + 1, nullptr) > 0;
            used = s.day(i, bare, f);
        }
        if (!used && !f.minute && !f.instant) used = s.time(i, &f);
        if (!used) {
            ++i;
            continue;
        }
        for (size_t k = i; k < i + used && k < t.size(); ++k) cut[k] = true;
        i += used;
        last_end = i;
    }
    if (s.evening && f.minute && !s.meridiem && *f.minute < 720) *f.minute += 720;
    if (s.evening && !f.minute) f.minute = 20 * 60;
    std::string rest;
    for (size_t k = 0; k < t.size(); ++k)
        if (!cut[k])
            rest += (rest.empty() ? "" : " ") + text.substr(t[k].begin, t[k].end - t[k].begin);
    f.rest = trimmed(rest);
    return f;
}

std::optional<int64_t> reminder_instant(const WhenFound& f, const LocalClock& clock) {
    if (f.instant) return f.instant;
    if (!f.day && !f.minute) return std::nullopt;
    const int64_t day = f.day.value_or(clock.today());
    const int minute = f.minute.value_or(9 * 60);
    auto on = [&](int64_t d) { return clock.to_utc(d * 86400 + int64_t{minute} * 60); };
    int64_t at = on(day);
    if (at <= clock.now() && !f.day)
        at = on(day + 1);
    else if (at <= clock.now() && f.weekday)
        at = on(day + 7);
    return at;
}

}  // namespace builtin
