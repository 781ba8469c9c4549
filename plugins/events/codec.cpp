// events — time, ids, names and the JSON shape of an event.
#include "codec.hpp"

#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <platform/sdk/error.hpp>
#include <platform/sdk/random.hpp>

namespace events_service {

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

bool leap(int64_t y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned days_in_month(int64_t y, unsigned m) {
    static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : days[m - 1];
}

// Reads exactly n digits at text[pos...]; false when they are not digits.
bool digits(std::string_view text, size_t& pos, size_t n, int& out) {
    if (pos + n > text.size()) return false;
    out = 0;
    for (size_t i = 0; i < n; ++i) {
        char c = text[pos + i];
        if (c < '0' || c > '9') return false;
        out = out * 10 + (c - '0');
    }
    pos += n;
    return true;
}

bool expect(std::string_view text, size_t& pos, char c) {
    if (pos >= text.size() || std::toupper(static_cast<unsigned char>(text[pos])) != c)
        return false;
    ++pos;
    return true;
}

}  // namespace

std::string rfc3339(int64_t unix_ms) {
    int64_t secs = unix_ms / 1000, ms = unix_ms % 1000;
    if (ms < 0) ms += 1000, secs -= 1;
    std::time_t t = static_cast<std::time_t>(secs);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[48];
    size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    if (ms)
        std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms));
    else
        std::snprintf(buf + n, sizeof buf - n, "Z");
    return buf;
}

int64_t parse_rfc3339(std::string_view text, const char* arg) {
    auto bad = [&]() -> platform::Error {
        return platform::invalid_argument(std::string(arg) +
                                          ": must be an RFC 3339 date-time such as "
                                          "2026-01-01T10:00:00Z, got '" +
                                          std::string(text.substr(0, 64)) + "'");
    };
    size_t pos = 0;
    int y, mo, d, h, mi, s;
    if (!digits(text, pos, 4, y) || !expect(text, pos, '-') || !digits(text, pos, 2, mo) ||
        !expect(text, pos, '-') || !digits(text, pos, 2, d) || !expect(text, pos, 'T') ||
        !digits(text, pos, 2, h) || !expect(text, pos, ':') || !digits(text, pos, 2, mi) ||
        !expect(text, pos, ':') || !digits(text, pos, 2, s))
        throw bad();
    if (mo < 1 || mo > 12 || d < 1 ||
        static_cast<unsigned>(d) > days_in_month(y, static_cast<unsigned>(mo)) || h > 23 ||
        mi > 59 || s > 60)
        throw bad();
    int64_t ms = 0;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        size_t start = pos, scale = 100;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            if (scale)
                ms += (text[pos] - '0') * static_cast<int64_t>(scale),
                    scale /= 10;  // truncated to ms
            ++pos;
        }
        if (pos == start) throw bad();
    }
    int64_t offset_min = 0;
    if (pos < text.size() && std::toupper(static_cast<unsigned char>(text[pos])) == 'Z') {
        ++pos;
    } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
        int sign = text[pos] == '-' ? -1 : 1, oh, om;
        ++pos;
        if (!digits(text, pos, 2, oh) || !expect(text, pos, ':') || !digits(text, pos, 2, om) ||
            oh > 23 || om > 59)
            throw bad();
        offset_min = sign * (oh * 60 + om);
    } else {
        throw bad();
    }
    if (pos != text.size()) throw bad();
    if (s == 60) s = 59, ms = 999;  // a leap second: the last instant of the minute
    int64_t days = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
    int64_t secs = days * 86400 + h * 3600 + mi * 60 + s - offset_min * 60;
    return secs * 1000 + ms;
}

int64_t timestamp_arg(const json& value) {
    int64_t ms = 0;
    if (value.is_string()) {
        ms = parse_rfc3339(value.get_ref<const std::string&>(), "timestamp");
    } else if (value.is_number_integer()) {
        ms = value.get<int64_t>();
    } else if (value.is_number_float() &&
               value.get<double>() ==
                   static_cast<double>(static_cast<int64_t>(value.get<double>()))) {
        ms = static_cast<int64_t>(value.get<double>());
    } else {
        throw platform::invalid_argument(
            "timestamp: must be an RFC 3339 string or integer Unix milliseconds");
    }
    if (ms < 1) throw platform::invalid_argument("timestamp: must be after 1970-01-01T00:00:00Z");
    if (ms > 253402300799999)
        throw platform::invalid_argument("timestamp: must be before year 10000 (RFC 3339)");
    return ms;
}

std::optional<int64_t> integer_arg(const json& args, const char* name, int64_t min, int64_t max) {
    auto it = args.find(name);
    if (it == args.end() || it->is_null()) return std::nullopt;
    int64_t v = 0;
    if (it->is_number_unsigned()) {
        v = it->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : it->get<int64_t>();
    } else if (it->is_number_integer()) {
        v = it->get<int64_t>();
    } else if (it->is_number_float() && std::abs(it->get<double>()) < 9e18 &&
               it->get<double>() == static_cast<double>(static_cast<int64_t>(it->get<double>()))) {
        v = static_cast<int64_t>(it->get<double>());
    } else {
        throw platform::invalid_argument(std::string(name) + ": must be an integer");
    }
    if (v < min)
        throw platform::invalid_argument(std::string(name) + ": must be at least " +
                                         std::to_string(min));
    if (v > max)
        throw platform::invalid_argument(std::string(name) + ": must be at most " +
                                         std::to_string(max));
    return v;
}

std::string new_id() {
    return platform::uuid4();
}

void check_name(const json& value, const char* arg) {
    if (!value.is_string())
        throw platform::invalid_argument(std::string(arg) + ": must be a string");
    const auto& s = value.get_ref<const std::string&>();
    if (s.empty()) throw platform::invalid_argument(std::string(arg) + ": must not be empty");
    if (s.size() > 200)
        throw platform::invalid_argument(std::string(arg) + ": must be at most 200 characters");
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
            throw platform::invalid_argument(std::string(arg) +
                                             ": may hold only letters, digits, '.', '_' and '-'");
}

json event_json(const platform::Event& e) {
    json payload = json::parse(e.payload, nullptr, false);
    if (payload.is_discarded()) payload = e.payload;  // not JSON: the bytes as a string
    return {{"id", e.id},
            {"topic", e.topic},
            {"offset", e.offset},
            {"timestamp", rfc3339(e.timestamp_ms)},
            {"metadata", e.metadata.is_object() ? e.metadata : json::object()},
            {"payload", std::move(payload)}};
}

}  // namespace events_service
