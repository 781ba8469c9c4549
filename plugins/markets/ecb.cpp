#include "ecb.hpp"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include "common/upstream/upstream.hpp"
#include "common/zip/zip_archive.hpp"

namespace markets::ecb {

using common::upstream::Malformed;

namespace {

bool named(const xmlNode* n, const char* name) {
    return n && n->type == XML_ELEMENT_NODE &&
           std::strcmp(reinterpret_cast<const char*>(n->name), name) == 0;
}

std::string attribute(const xmlNode* n, const char* name) {
    std::unique_ptr<xmlChar, void (*)(void*)> v(
        xmlGetProp(const_cast<xmlNode*>(n), reinterpret_cast<const xmlChar*>(name)), xmlFree);
    return v ? reinterpret_cast<const char*>(v.get()) : "";
}

// A positive finite decimal, the whole of `s`; nullopt otherwise.
std::optional<double> rate_of(const std::string& s) {
    if (s.empty()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v) || v <= 0) return std::nullopt;
    return v;
}

bool looks_like_date(const std::string& s) {
    if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    size_t i = 0;
    while (true) {
        const size_t comma = line.find(',', i);
        std::string cell =
            line.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
        while (!cell.empty() && (cell.back() == ' ' || cell.back() == '\r')) cell.pop_back();
        while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
        out.push_back(cell);
        if (comma == std::string::npos) break;
        i = comma + 1;
    }
    return out;
}

}  // namespace

std::optional<double> Day::rate(const std::string& code) const {
    auto it = per_eur.find(code);
    if (it == per_eur.end()) return std::nullopt;
    return it->second;
}

std::vector<Day> parse_xml(const std::string& xml) {
    static std::once_flag init;
    std::call_once(init, [] { xmlInitParser(); });
    std::unique_ptr<xmlDoc, void (*)(xmlDoc*)> doc(
        xmlReadMemory(xml.data(), static_cast<int>(xml.size()), "eurofxref.xml", nullptr,
                      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING),
        xmlFreeDoc);
    if (!doc) throw Malformed("the reference rates are not well-formed XML");
    const xmlNode* root = xmlDocGetRootElement(doc.get());
    if (!named(root, "Envelope")) throw Malformed("the XML's root is not gesmes:Envelope");
    const xmlNode* outer = nullptr;
    for (const xmlNode* c = root->children; c && !outer; c = c->next)
        if (named(c, "Cube")) outer = c;
    if (!outer) throw Malformed("no Envelope/Cube");
    std::vector<Day> days;
    for (const xmlNode* t = outer->children; t; t = t->next) {
        if (!named(t, "Cube")) continue;
        Day d;
        d.date = attribute(t, "time");
        if (!looks_like_date(d.date))
            throw Malformed("a Cube's time '" + d.date + "' is not a date");
        d.per_eur["EUR"] = 1;
        for (const xmlNode* c = t->children; c; c = c->next) {
            if (!named(c, "Cube")) continue;
            const std::string code = attribute(c, "currency"), text = attribute(c, "rate");
            auto r = rate_of(text);
            if (code.size() != 3 || !r)
                throw Malformed("on " + d.date + ", currency '" + code + "' has rate '" + text +
                                "'");
            d.per_eur[code] = *r;
        }
        days.push_back(std::move(d));
    }
    if (days.empty()) throw Malformed("no day of rates in the XML");
    std::sort(days.begin(), days.end(), [](const Day& a, const Day& b) { return a.date < b.date; });
    return days;
}

std::vector<Day> parse_csv(const std::string& csv, const std::string& first,
                           const std::string& last) {
    size_t pos = 0;
    auto next_line = [&](std::string& line) {
        if (pos >= csv.size()) return false;
        size_t nl = csv.find('\n', pos);
        line = csv.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        pos = nl == std::string::npos ? csv.size() : nl + 1;
        return true;
    };
    std::string line;
    if (!next_line(line)) throw Malformed("the rates CSV is empty");
    const auto header = split(line);
    if (header.empty() || header[0] != "Date")
        throw Malformed("the rates CSV's header is not Date,...");
    std::vector<Day> days;
    while (next_line(line)) {
        if (line.empty() || line == "\r") continue;
        const auto cells = split(line);
        if (!looks_like_date(cells[0]))
            throw Malformed("a row's date '" + cells[0] + "' is not a date");
        if ((!first.empty() && cells[0] < first) || (!last.empty() && cells[0] > last)) continue;
        Day d;
        d.date = cells[0];
        d.per_eur["EUR"] = 1;
        for (size_t i = 1; i < cells.size() && i < header.size(); ++i) {
            if (header[i].empty() || cells[i].empty() || cells[i] == "N/A") continue;
            auto r = rate_of(cells[i]);
            if (!r) throw Malformed("on " + d.date + ", " + header[i] + " is '" + cells[i] + "'");
            d.per_eur[header[i]] = *r;
        }
        days.push_back(std::move(d));
    }
    std::sort(days.begin(), days.end(), [](const Day& a, const Day& b) { return a.date < b.date; });
    return days;
}

std::string csv_from_zip(const std::string& zip) {
    try {
        common::zip::Archive archive(zip);
        const auto* e = archive.find(kHistoryMember);
        if (!e) throw Malformed(std::string("the ZIP holds no ") + kHistoryMember);
        return archive.read_all(*e, 64ull << 20);
    } catch (const common::zip::Error& e) {
        throw Malformed(std::string("eurofxref-hist.zip: ") + e.what());
    }
}

const Day* on_or_before(const std::vector<Day>& days, const std::string& date) {
    const Day* best = nullptr;
    for (const auto& d : days)
        if (d.date <= date) best = &d;
    return best;
}

std::optional<double> cross_rate(const Day& day, const std::string& from, const std::string& to) {
    auto f = day.rate(from), t = day.rate(to);
    if (!f || !t) return std::nullopt;
    return *t / *f;
}

const std::map<std::string, std::string>& currency_names() {
    static const std::map<std::string, std::string> names = {
        {"AUD", "Australian dollar"},
        {"BGN", "Bulgarian lev"},
        {"BRL", "Brazilian real"},
        {"CAD", "Canadian dollar"},
        {"CHF", "Swiss franc"},
        {"CNY", "Chinese yuan renminbi"},
        {"CYP", "Cypriot pound"},
        {"CZK", "Czech koruna"},
        {"DKK", "Danish krone"},
        {"EEK", "Estonian kroon"},
        {"EUR", "Euro"},
        {"GBP", "Pound sterling"},
        {"HKD", "Hong Kong dollar"},
        {"HRK", "Croatian kuna"},
        {"HUF", "Hungarian forint"},
        {"IDR", "Indonesian rupiah"},
        {"ILS", "Israeli shekel"},
        {"INR", "Indian rupee"},
        {"ISK", "Icelandic krona"},
        {"JPY", "Japanese yen"},
        {"KRW", "South Korean won"},
        {"LTL", "Lithuanian litas"},
        {"LVL", "Latvian lats"},
        {"MTL", "Maltese lira"},
        {"MXN", "Mexican peso"},
        {"MYR", "Malaysian ringgit"},
        {"NOK", "Norwegian krone"},
        {"NZD", "New Zealand dollar"},
        {"PHP", "Philippine peso"},
        {"PLN", "Polish zloty"},
        {"ROL", "Romanian leu (old)"},
        {"RON", "Romanian leu"},
        {"RUB", "Russian rouble"},
        {"SEK", "Swedish krona"},
        {"SGD", "Singapore dollar"},
        {"SIT", "Slovenian tolar"},
        {"SKK", "Slovak koruna"},
        {"THB", "Thai baht"},
        {"TRL", "Turkish lira (old)"},
        {"TRY", "Turkish lira"},
        {"USD", "US dollar"},
        {"ZAR", "South African rand"},
    };
    return names;
}

bool is_currency(const std::string& code) {
    return currency_names().count(code) > 0;
}

}  // namespace markets::ecb
