#include "output.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

#include "dynamic.hpp"

namespace platform::cli {

using nlohmann::json;

namespace {
std::string cell(const json& v) {
    std::string s = v.is_string() ? v.get<std::string>() : v.dump();
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

void table(std::ostream& os, const json& rows) {
    std::vector<std::string> cols;
    for (const auto& r : rows)
        for (const auto& [k, _] : r.items())
            if (std::find(cols.begin(), cols.end(), k) == cols.end()) cols.push_back(k);
    // Identifying columns first; the rest keep their (alphabetical) order.
    std::stable_partition(cols.begin(), cols.end(), [](const std::string& c) {
        return c == "id" || c == "name" || c == "title";
    });
    std::vector<std::vector<std::string>> cells;
    for (const auto& r : rows) {
        cells.emplace_back();
        for (const auto& c : cols)
            cells.back().push_back(r.contains(c) ? cell(r[c]) : std::string());
    }
    print_table(os, cols, cells);
}

bool rows_of_objects(const json& v) {
    return v.is_array() &&
           std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_object(); });
}
}  // namespace

void print_table(std::ostream& os, const std::vector<std::string>& headers,
                 const std::vector<std::vector<std::string>>& rows) {
    std::vector<size_t> width;
    for (size_t i = 0; i < headers.size(); ++i) {
        size_t w = headers[i].size();
        for (const auto& r : rows) w = std::max(w, i < r.size() ? r[i].size() : 0);
        width.push_back(w);
    }
    auto line = [&](const std::vector<std::string>& cells, bool header) {
        std::string out;
        for (size_t i = 0; i < headers.size(); ++i) {
            std::string v = i < cells.size() ? cells[i] : "";
            if (header) std::transform(v.begin(), v.end(), v.begin(), ::toupper);
            out += i + 1 < headers.size() ? v + std::string(width[i] - v.size() + 2, ' ') : v;
        }
        while (!out.empty() && out.back() == ' ') out.pop_back();
        os << (header ? paint(os, "1", out) : out) << "\n";
    };
    line(headers, true);
    for (const auto& r : rows) line(r, false);
}

bool colour(const std::ostream& os) {
    const int fd = &os == &std::cout ? STDOUT_FILENO : &os == &std::cerr ? STDERR_FILENO : -1;
    if (fd < 0 || !isatty(fd)) return false;
    if (const char* v = std::getenv("NO_COLOR"); v && *v) return false;
    const char* term = std::getenv("TERM");
    return !(term && std::strcmp(term, "dumb") == 0);
}

std::string paint(const std::ostream& os, const std::string& sgr, const std::string& text) {
    return colour(os) ? "\033[" + sgr + "m" + text + "\033[0m" : text;
}

Format parse_format(const std::string& text) {
    if (text == "json") return Format::json;
    if (text == "table") return Format::table;
    if (text == "raw") return Format::raw;
    throw UsageError("--output: must be json, table or raw (got '" + text + "')");
}

void print(std::ostream& os, const json& value, Format format) {
    if (format == Format::raw) {
        os << (value.is_string() ? value.get<std::string>()
                                 : value.dump(-1, ' ', false, json::error_handler_t::replace))
           << "\n";
        return;
    }
    if (format == Format::table) {
        if (rows_of_objects(value)) return table(os, value);
        if (value.is_object() && value.size() == 1 && rows_of_objects(value.begin().value()))
            return table(os, value.begin().value());
        if (value.is_object()) {
            size_t w = 0;
            for (const auto& [k, _] : value.items()) w = std::max(w, k.size());
            for (const auto& [k, v] : value.items())
                os << k << std::string(w - k.size() + 2, ' ') << cell(v) << "\n";
            return;
        }
    }
    os << value.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace platform::cli
