#include "tfl.hpp"

#include <algorithm>
#include <cctype>
#include <platform/sdk/error.hpp>

#include "common/upstream/upstream.hpp"

namespace transit {

using common::upstream::Malformed;
using common::upstream::number_or_null;
using common::upstream::string_or_null;
using nlohmann::json;

namespace {

json strings(const json& o, const char* name) {
    json out = json::array();
    auto it = o.find(name);
    if (it != o.end() && it->is_array())
        for (const json& v : *it)
            if (v.is_string()) out.push_back(v);
    return out;
}

std::string trim_lower(std::string s) {
    s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }),
            s.end());
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

std::vector<std::string> tfl_modes(const std::string& modes) {
    std::vector<std::string> out;
    std::string rest = modes;
    size_t start = 0;
    while (start <= rest.size()) {
        size_t comma = rest.find(',', start);
        if (comma == std::string::npos) comma = rest.size();
        std::string m = trim_lower(rest.substr(start, comma - start));
        start = comma + 1;
        if (m.empty()) continue;
        if (m == "elizabeth" || m == "elizabeth-line" || m == "elizabethline")
            m = "elizabeth-line";
        else if (m == "london-overground")
            m = "overground";
        if (std::find(kStatusModes.begin(), kStatusModes.end(), m) == kStatusModes.end())
            throw platform::invalid_argument(
                "modes: '" + m +
                "' is not a London mode; use tube, dlr, overground, elizabeth-line or tram, "
                "comma-separated");
        if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    }
    return out.empty() ? kStatusModes : out;
}

bool looks_like_stop_id(const std::string& stop) {
    if (stop.size() < 5) return false;
    bool digit = false;
    for (unsigned char c : stop) {
        if (!std::isalnum(c)) return false;
        digit = digit || std::isdigit(c);
    }
    return digit;
}

bool is_tfl_stop_id(const std::string& id) {
    std::string u = id;
    for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return u.rfind("490", 0) == 0 || u.rfind("940G", 0) == 0 || u.rfind("910G", 0) == 0 ||
           u.rfind("HUB", 0) == 0;
}

std::optional<StopMatch> parse_search(const json& body) {
    if (!body.is_object()) throw Malformed("the search answer is not a JSON object");
    auto matches = body.find("matches");
    if (matches == body.end() || !matches->is_array()) throw Malformed("no \"matches\" list");
    std::optional<StopMatch> first;
    for (const json& m : *matches) {
        if (!m.is_object() || !m.contains("id") || !m["id"].is_string())
            throw Malformed("a match without an id");
        StopMatch s{m["id"].get<std::string>(), m.value("name", "")};
        if (s.id.rfind("HUB", 0) != 0) return s;
        if (!first) first = s;
    }
    return first;
}

json parse_arrivals(const json& body) {
    if (!body.is_array()) throw Malformed("the arrivals answer is not a list");
    json out = json::array();
    for (const json& a : body) {
        if (!a.is_object()) throw Malformed("an arrival is not an object");
        auto t = a.find("timeToStation");
        if (t == a.end() || !t->is_number()) throw Malformed("an arrival without timeToStation");
        out.push_back({{"line", string_or_null(a, "lineName")},
                       {"destination", string_or_null(a, "destinationName")},
                       {"platform", string_or_null(a, "platformName")},
                       {"direction", string_or_null(a, "direction")},
                       {"mode", string_or_null(a, "modeName")},
                       {"expected", string_or_null(a, "expectedArrival")},
                       {"in_seconds", *t},
                       {"vehicle", string_or_null(a, "vehicleId")},
                       {"stop_name", string_or_null(a, "stationName")}});
    }
    std::stable_sort(out.begin(), out.end(), [](const json& x, const json& y) {
        return x["in_seconds"].get<double>() < y["in_seconds"].get<double>();
    });
    return out;
}

json parse_nearby(const json& body) {
    if (!body.is_object()) throw Malformed("the stop-point answer is not a JSON object");
    auto stops = body.find("stopPoints");
    if (stops == body.end() || !stops->is_array()) throw Malformed("no \"stopPoints\" list");
    json out = json::array();
    for (const json& s : *stops) {
        if (!s.is_object() || !s.contains("naptanId") || !s["naptanId"].is_string())
            throw Malformed("a stop point without naptanId");
        json lines = json::array();
        if (auto l = s.find("lines"); l != s.end() && l->is_array())
            for (const json& line : *l)
                if (line.is_object() && line.contains("name")) lines.push_back(line["name"]);
        out.push_back({{"id", s["naptanId"]},
                       {"name", string_or_null(s, "commonName")},
                       {"indicator", string_or_null(s, "indicator")},
                       {"distance_m", number_or_null(s, "distance")},
                       {"lat", number_or_null(s, "lat")},
                       {"lon", number_or_null(s, "lon")},
                       {"modes", strings(s, "modes")},
                       {"lines", lines}});
    }
    auto key = [](const json& s) {  // stops without a distance last
        return s["distance_m"].is_number() ? s["distance_m"].get<double>() : 1e300;
    };
    std::stable_sort(out.begin(), out.end(),
                     [&](const json& x, const json& y) { return key(x) < key(y); });
    return out;
}

json parse_status(const json& body) {
    if (!body.is_array()) throw Malformed("the status answer is not a list");
    json out = json::array();
    for (const json& l : body) {
        if (!l.is_object() || !l.contains("id") || !l["id"].is_string())
            throw Malformed("a line without an id");
        json statuses = json::array();
        if (auto s = l.find("lineStatuses"); s != l.end() && s->is_array())
            for (const json& st : *s)
                if (st.is_object())
                    statuses.push_back(
                        {{"severity", number_or_null(st, "statusSeverity")},
                         {"description", string_or_null(st, "statusSeverityDescription")},
                         {"reason", string_or_null(st, "reason")}});
        out.push_back({{"id", l["id"]},
                       {"name", string_or_null(l, "name")},
                       {"mode", string_or_null(l, "modeName")},
                       {"statuses", statuses}});
    }
    return out;
}

}  // namespace transit
