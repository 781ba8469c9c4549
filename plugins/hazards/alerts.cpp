// GDACS's event list for apps (https://www.gdacs.org/gdacsapi/api/events/geteventlist/EVENTS4APP,
// a GeoJSON FeatureCollection of the current events) read into the alerts answer.
#include <algorithm>
#include <map>
#include <platform/sdk/text.hpp>

#include "common/upstream/upstream.hpp"
#include "parsers.hpp"

namespace hazards {

using common::upstream::Malformed;
using common::upstream::text_or_null;
using nlohmann::json;

int alert_rank(const std::string& level) {
    const std::string l = platform::lower(level);
    return l == "green" ? 1 : l == "orange" ? 2 : l == "red" ? 3 : 0;
}

namespace {

// GDACS's event type codes, as words.
std::string type_name(const std::string& code) {
    static const std::map<std::string, std::string> names = {
        {"EQ", "earthquake"}, {"TC", "tropical cyclone"}, {"FL", "flood"},  {"VO", "volcano"},
        {"DR", "drought"},    {"WF", "wildfire"},         {"TS", "tsunami"}};
    const auto it = names.find(code);
    return it == names.end() ? platform::lower(code) : it->second;
}

}  // namespace

json alerts_from(const json& list, int min_level, const std::optional<Near>& near) {
    if (!list.is_object() || !list.contains("features") || !list["features"].is_array())
        throw Malformed("the event list is not a GeoJSON FeatureCollection with features");
    struct Alert {
        json j;
        int rank = 0;
        double distance = 0;
        std::string from;
    };
    std::vector<Alert> found;
    for (const json& f : list["features"]) {
        if (!f.is_object() || !f.contains("properties") || !f["properties"].is_object())
            throw Malformed("an event has no properties");
        const json& p = f["properties"];
        Alert a;
        a.rank = alert_rank(p.value("alertlevel", ""));
        if (a.rank == 0 || a.rank < min_level) continue;
        json lat, lon;
        const json g = f.value("geometry", json::object());
        if (g.is_object() && g.value("type", "") == "Point" && g.contains("coordinates") &&
            g["coordinates"].is_array() && g["coordinates"].size() >= 2 &&
            g["coordinates"][0].is_number() && g["coordinates"][1].is_number()) {
            lon = g["coordinates"][0];
            lat = g["coordinates"][1];
        }
        const json sev = p.value("severitydata", json::object());
        const json url = p.value("url", json::object());
        const std::string code = p.value("eventtype", "");
        a.j = {{"id", p.contains("eventid") ? json(code + "-" + p["eventid"].dump()) : json()},
               {"type", type_name(code)},
               {"type_code", code},
               {"level", platform::lower(p.value("alertlevel", ""))},
               {"name", text_or_null(p, "name")},
               {"description", text_or_null(p, "description")},
               {"country", text_or_null(p, "country")},
               {"from", utc_time(p.value("fromdate", json()))},
               {"to", utc_time(p.value("todate", json()))},
               {"lat", lat},
               {"lon", lon},
               {"severity", sev.is_object() ? json{{"value", sev.value("severity", json())},
                                                   {"text", text_or_null(sev, "severitytext")},
                                                   {"unit", text_or_null(sev, "severityunit")}}
                                            : json()},
               {"url", url.is_object() ? text_or_null(url, "report") : json()}};
        a.from = a.j["from"].is_string() ? a.j["from"].get<std::string>() : "";
        if (near) {
            if (!lat.is_number()) continue;
            a.distance = distance_km(near->lat, near->lon, lat.get<double>(), lon.get<double>());
            if (a.distance > near->within_km) continue;
            a.j["distance_km"] = round_km(a.distance);
        }
        found.push_back(std::move(a));
    }
    std::stable_sort(found.begin(), found.end(), [&](const Alert& a, const Alert& b) {
        if (a.rank != b.rank) return a.rank > b.rank;
        return near ? a.distance < b.distance : a.from > b.from;
    });
    json out = json::array();
    for (std::size_t i = 0; i < found.size() && i < kMaxListed; ++i)
        out.push_back(std::move(found[i].j));
    return {{"alerts", out}, {"count", found.size()}, {"listed", out.size()}};
}

}  // namespace hazards
