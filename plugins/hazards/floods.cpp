// The Environment Agency's flood warnings in force
// (https://environment.data.gov.uk/flood-monitoring/doc/reference#flood-warnings) read into the
// floods answer.
#include <algorithm>

#include "common/upstream/upstream.hpp"
#include "parsers.hpp"

namespace hazards {

using common::upstream::Malformed;
using common::upstream::text_or_null;
using nlohmann::json;

json floods_from(const json& body, bool severe_only) {
    if (!body.is_object() || !body.contains("items") || !body["items"].is_array())
        throw Malformed("the answer has no items array");
    struct Flood {
        json j;
        int level;
        std::string changed;
    };
    std::vector<Flood> found;
    for (const json& w : body["items"]) {
        if (!w.is_object()) throw Malformed("an item is not an object");
        const json lv = w.value("severityLevel", json());
        if (!lv.is_number_integer()) throw Malformed("an item has no severityLevel");
        const int level = lv.get<int>();
        if (severe_only && level != 1) continue;
        const json area = w.value("floodArea", json::object());
        const bool has_area = area.is_object();
        Flood f{json{{"id", text_or_null(w, "floodAreaID")},
                     {"area", text_or_null(w, "description")},
                     {"region", text_or_null(w, "eaAreaName")},
                     {"county", has_area ? text_or_null(area, "county") : json()},
                     {"river_or_sea", has_area ? text_or_null(area, "riverOrSea") : json()},
                     {"severity", text_or_null(w, "severity")},
                     {"severity_level", level},
                     {"in_force", level >= 1 && level <= 3},
                     {"tidal", w.value("isTidal", json()).is_boolean() ? w["isTidal"] : json()},
                     {"message", text_or_null(w, "message")},
                     {"raised", utc_time(w.value("timeRaised", json()))},
                     {"severity_changed", utc_time(w.value("timeSeverityChanged", json()))},
                     {"message_changed", utc_time(w.value("timeMessageChanged", json()))},
                     {"url", text_or_null(w, "@id")}},
                level, ""};
        f.changed =
            f.j["severity_changed"].is_string() ? f.j["severity_changed"].get<std::string>() : "";
        found.push_back(std::move(f));
    }
    std::stable_sort(found.begin(), found.end(), [](const Flood& a, const Flood& b) {
        return a.level != b.level ? a.level < b.level : a.changed > b.changed;
    });
    json out = json::array();
    for (auto& f : found) out.push_back(std::move(f.j));
    return {{"floods", out}, {"count", out.size()}};
}

}  // namespace hazards
