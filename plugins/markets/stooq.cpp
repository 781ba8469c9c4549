#include "stooq.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/upstream/upstream.hpp"

namespace markets::stooq {

using common::upstream::Malformed;

namespace {

using Row = std::vector<std::string>;

// The body's lines split at commas: a UTF-8 BOM, CRs and empty lines at the end left out.
std::vector<Row> rows_of(const std::string& csv) {
    std::string text = csv;
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
    std::vector<Row> rows;
    size_t at = 0;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(at, end - at);
        at = end + 1;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find('"') != std::string::npos) throw Malformed("a quoted CSV field");
        Row row;
        size_t from = 0;
        while (true) {
            const size_t comma = line.find(',', from);
            row.push_back(line.substr(from, comma == std::string::npos ? comma : comma - from));
            if (comma == std::string::npos) break;
            from = comma + 1;
        }
        rows.push_back(std::move(row));
    }
    while (!rows.empty() && rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
    return rows;
}

// The index of each of `names` in the header row; Malformed when one is missing.
std::vector<size_t> columns(const Row& header, std::initializer_list<const char*> names) {
    std::vector<size_t> out;
    for (const char* name : names) {
        auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end())
            throw Malformed(std::string("no ") + name + " column in the CSV header");
        out.push_back(static_cast<size_t>(it - header.begin()));
    }
    return out;
}

bool digits(const std::string& s, size_t from, size_t n) {
    for (size_t k = from; k < from + n; ++k)
        if (k >= s.size() || s[k] < '0' || s[k] > '9') return false;
    return true;
}

bool is_date(const std::string& s) {
    return s.size() == 10 && digits(s, 0, 4) && s[4] == '-' && digits(s, 5, 2) && s[7] == '-' &&
           digits(s, 8, 2);
}

bool is_time(const std::string& s) {
    return s.size() == 8 && digits(s, 0, 2) && s[2] == ':' && digits(s, 3, 2) && s[5] == ':' &&
           digits(s, 6, 2) && s.compare(0, 2, "24") < 0 && s.compare(3, 2, "60") < 0 &&
           s.compare(6, 2, "60") < 0;
}

double price(const std::string& s, const std::string& where) {
    char* end = nullptr;
    const double d = s.empty() ? NAN : std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(d) || d < 0)
        throw Malformed(where + ", the close '" + s + "' is not a price");
    return d;
}

std::string lower(std::string s) {
    for (auto& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

std::string compact(const std::string& date) {
    return date.substr(0, 4) + date.substr(5, 2) + date.substr(8, 2);
}

}  // namespace

std::string quote_path(const std::string& symbol) {
    return "/q/l/?s=" + common::upstream::encode(symbol) + "&f=sd2t2ohlcv&h&e=csv";
}

std::optional<Quote> quote_from(const std::string& csv, const std::string& symbol, double divisor) {
    const auto rows = rows_of(csv);
    if (rows.empty()) throw Malformed("an empty quote CSV");
    const auto col = columns(rows[0], {"Symbol", "Date", "Time", "Close"});
    if (rows.size() != 2)
        throw Malformed("a quote CSV with " + std::to_string(rows.size() - 1) + " rows, not 1");
    const Row& r = rows[1];
    if (r.size() != rows[0].size())
        throw Malformed("a quote row of " + std::to_string(r.size()) +
                        " fields under a header of " + std::to_string(rows[0].size()));
    if (lower(r[col[0]]) != lower(symbol))
        throw Malformed("a quote of '" + r[col[0]] + "', not of " + symbol);
    if (r[col[1]] == "N/D" || r[col[3]] == "N/D") return std::nullopt;
    Quote q;
    q.symbol = r[col[0]];
    q.date = r[col[1]];
    q.time = r[col[2]];
    if (!is_date(q.date)) throw Malformed("the quote's date '" + q.date + "' is not YYYY-MM-DD");
    if (!is_time(q.time)) throw Malformed("the quote's time '" + q.time + "' is not HH:MM:SS");
    q.close = price(r[col[3]], "in the quote") / divisor;
    return q;
}

std::string daily_path(const std::string& symbol, const std::string& first,
                       const std::string& last) {
    return "/q/d/l/?s=" + common::upstream::encode(symbol) + "&d1=" + compact(first) +
           "&d2=" + compact(last) + "&i=d";
}

std::vector<std::pair<std::string, double>> daily_from(const std::string& csv, double divisor) {
    const auto rows = rows_of(csv);
    if (rows.size() == 1 && rows[0].size() == 1 && rows[0][0] == "No data") return {};
    if (rows.empty()) throw Malformed("an empty daily CSV");
    const auto col = columns(rows[0], {"Date", "Close"});
    std::vector<std::pair<std::string, double>> out;
    for (size_t k = 1; k < rows.size(); ++k) {
        const Row& r = rows[k];
        if (r.size() != rows[0].size())
            throw Malformed("line " + std::to_string(k + 1) + " has " + std::to_string(r.size()) +
                            " fields under a header of " + std::to_string(rows[0].size()));
        if (!is_date(r[col[0]]))
            throw Malformed("line " + std::to_string(k + 1) + ": '" + r[col[0]] +
                            "' is not a YYYY-MM-DD date");
        out.emplace_back(r[col[0]], price(r[col[1]], "on " + r[col[0]]) / divisor);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace markets::stooq
