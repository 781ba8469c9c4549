#include "dynamic.hpp"
#include "output.hpp"

#include <algorithm>
#include <vector>

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
    std::vector<size_t> width;
    for (const auto& c : cols) {
        size_t w = c.size();
        for (const auto& r : rows) w = std::max(w, r.contains(c) ? cell(r[c]).size() : 0);
        width.push_back(w);
    }
    auto line = [&](auto get) {
        std::string out;
        for (size_t i = 0; i < cols.size(); ++i) {
            std::string v = get(i);
            out += v + (i + 1 < cols.size() ? std::string(width[i] - v.size() + 2, ' ') : "");
        }
        os << out << "\n";
    };
    line([&](size_t i) { std::string h = cols[i]; std::transform(h.begin(), h.end(), h.begin(), ::toupper); return h; });
    for (const auto& r : rows) line([&](size_t i) { return r.contains(cols[i]) ? cell(r[cols[i]]) : std::string(); });
}

bool rows_of_objects(const json& v) {
    return v.is_array() && std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_object(); });
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
    auto line = [&](const std::vector<std::string>& cells, bool upper) {
        std::string out;
        for (size_t i = 0; i < headers.size(); ++i) {
            std::string v = i < cells.size() ? cells[i] : "";
            if (upper) std::transform(v.begin(), v.end(), v.begin(), ::toupper);
            out += i + 1 < headers.size() ? v + std::string(width[i] - v.size() + 2, ' ') : v;
        }
        os << out << "\n";
    };
    line(headers, true);
    for (const auto& r : rows) line(r, false);
}

Format parse_format(const std::string& text) {
    if (text == "json") return Format::json;
    if (text == "table") return Format::table;
    throw UsageError("--output: must be json or table (got '" + text + "')");
}

void print(std::ostream& os, const json& value, Format format) {
    if (format == Format::table) {
        if (rows_of_objects(value)) return table(os, value);
        if (value.is_object() && value.size() == 1 && rows_of_objects(value.begin().value()))
            return table(os, value.begin().value());
        if (value.is_object()) {
            size_t w = 0;
            for (const auto& [k, _] : value.items()) w = std::max(w, k.size());
            for (const auto& [k, v] : value.items()) os << k << std::string(w - k.size() + 2, ' ') << cell(v) << "\n";
            return;
        }
    }
    os << value.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace platform::cli
