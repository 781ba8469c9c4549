#include "opening_hours.hpp"

#include <cctype>
#include <string>

namespace places {

namespace {

constexpr int kDay = 24 * 60;
constexpr const char* kDayNames[7] = {"Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"};

// A cursor over the text that skips spaces before each token.
struct Reader {
    std::string_view s;
    size_t i = 0;

    void skip() {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    }
    bool done() {
        skip();
        return i >= s.size();
    }
    bool eat(std::string_view word) {
        skip();
        if (s.substr(i, word.size()) != word) return false;
        i += word.size();
        return true;
    }
    // A weekday name (0..6), "PH" as 7, or -1 (nothing consumed).
    int day() {
        skip();
        for (int d = 0; d < 7; ++d)
            if (s.substr(i, 2) == kDayNames[d]) {
                i += 2;
                return d;
            }
        if (s.substr(i, 2) == "PH") {
            i += 2;
            return 7;
        }
        return -1;
    }
    // HH:MM as minutes (00:00 .. 24:00), or -1.
    int time() {
        skip();
        if (i + 5 > s.size()) return -1;
        auto digit = [&](size_t k) { return std::isdigit(static_cast<unsigned char>(s[i + k])); };
        if (!digit(0) || !digit(1) || s[i + 2] != ':' || !digit(3) || !digit(4)) return -1;
        const int h = (s[i] - '0') * 10 + (s[i + 1] - '0');
        const int m = (s[i + 3] - '0') * 10 + (s[i + 4] - '0');
        if (h > 24 || m > 59 || (h == 24 && m != 0)) return -1;
        i += 5;
        return h * 60 + m;
    }
};

// One rule (the text between semicolons) applied to `week`; false when not understood.
bool apply_rule(std::string_view text, Week& week) {
    Reader r{text};
    bool selected[7] = {false};
    bool any_day = false, holiday = false;
    for (;;) {
        const size_t at = r.i;
        const int d = r.day();
        if (d < 0) {
            r.i = at;
            break;
        }
        if (d == 7) {
            holiday = true;
        } else if (r.eat("-")) {
            const int to = r.day();
            if (to < 0 || to == 7) return false;
            for (int k = d;; k = (k + 1) % 7) {
                selected[k] = true;
                if (k == to) break;
            }
            any_day = true;
        } else {
            selected[d] = true;
            any_day = true;
        }
        if (!r.eat(",")) break;
    }
    if (!any_day && !holiday)
        for (bool& s : selected) s = true;  // no day selector: every day

    std::vector<std::pair<int, int>> spans;
    if (r.eat("off") || r.eat("closed")) {
        if (!r.done()) return false;
    } else {
        do {
            const int from = r.time();
            if (from < 0 || from == kDay || !r.eat("-")) return false;
            int to = r.time();
            if (to < 0) return false;
            if (to <= from) to += kDay;  // past midnight
            spans.emplace_back(from, to);
        } while (r.eat(","));
        if (!r.done()) return false;
    }
    if (holiday && !any_day) return true;  // public holidays only: unknown dates, ignored
    for (int d = 0; d < 7; ++d)
        if (selected[d]) week.days[d] = spans;
    return true;
}

}  // namespace

std::optional<Week> parse_opening_hours(std::string_view text) {
    Week week;
    std::string t(text);
    if (t.find("||") != std::string::npos) return std::nullopt;
    size_t start = 0;
    bool any = false;
    while (start <= t.size()) {
        size_t end = t.find(';', start);
        if (end == std::string::npos) end = t.size();
        std::string_view rule = std::string_view(t).substr(start, end - start);
        Reader probe{rule};
        if (!probe.done()) {
            if (probe.eat("24/7")) {
                if (!probe.done()) return std::nullopt;
                for (auto& d : week.days) d = {{0, kDay}};
            } else if (!apply_rule(rule, week)) {
                return std::nullopt;
            }
            any = true;
        }
        start = end + 1;
    }
    if (!any) return std::nullopt;
    return week;
}

bool open_at(const Week& week, int weekday, int minute) {
    for (const auto& [from, to] : week.days[weekday])
        if (minute >= from && minute < to) return true;
    for (const auto& [from, to] : week.days[(weekday + 6) % 7])
        if (to > kDay && minute + kDay >= from && minute + kDay < to) return true;
    return false;
}

std::optional<bool> open_at_local(std::string_view text, int64_t local_s) {
    auto week = parse_opening_hours(text);
    if (!week) return std::nullopt;
    int64_t days = local_s / 86400, secs = local_s % 86400;
    if (secs < 0) {
        secs += 86400;
        --days;
    }
    const int weekday = static_cast<int>(((days + 3) % 7 + 7) % 7);  // 1970-01-01: Thursday
    return open_at(*week, weekday, static_cast<int>(secs / 60));
}

}  // namespace places
