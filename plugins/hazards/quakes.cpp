// USGS's GeoJSON summary feeds (https://earthquake.usgs.gov/earthquakes/feed/v1.0/geojson.php)
// read into the quakes answer.
#include <algorithm>
#include <platform/sdk/text.hpp>

#include "common/upstream/upstream.hpp"
#include "parsers.hpp"

namespace hazards {

using common::upstream::Malformed;
using nlohmann::json;

std::string quake_feed_level(double min) {
    if (min >= 4.5) return "4.5";
    if (min >= 2.5) return "2.5";
    if (min >= 1.0) return "1.0";
    return "all";
}

namespace {

// The features array of a GeoJSON FeatureCollection.
const json& features_of(const json& body, const char* what) {
    if (!body.is_object() || body.value("type", "") != "FeatureCollection")
        throw Malformed(std::string(what) + " is not a GeoJSON FeatureCollection");
    const auto it = body.find("features");
    if (it == body.end() || !it->is_array()) throw Malformed("the feed has no features array");
    return *it;
}

// A feature's Point coordinates [lon, lat, (depth)], or null.
const json* point_of(const json& feature) {
    const auto g = feature.find("geometry");
    if (g == feature.end() || !g->is_object()) return nullptr;
    const auto c = g->find("coordinates");
    if (g->value("type", "") != "Point" || c == g->end() || !c->is_array() || c->size() < 2 ||
        !(*c)[0].is_number() || !(*c)[1].is_number())
        return nullptr;
    return &*c;
}

}  // namespace

json quakes_from(const json& feed, double min, const std::optional<Near>& near) {
    struct Quake {
        json j;
        double distance = 0;
        int64_t time = 0;
    };
    std::vector<Quake> found;
    for (const json& f : features_of(feed, "the USGS feed")) {
        if (!f.is_object()) throw Malformed("a feature is not an object");
        const json& p = f.at("properties");
        const json mag = p.value("mag", json());
        const json* c = point_of(f);
        if (!mag.is_number() || mag.get<double>() < min || c == nullptr) continue;
        const double lon = (*c)[0].get<double>(), lat = (*c)[1].get<double>();
        Quake q;
        q.time = p.value("time", json()).is_number() ? p["time"].get<int64_t>() : 0;
        q.j = {{"id", f.value("id", json())},
               {"magnitude", mag},
               {"magnitude_type", p.value("magType", json())},
               {"place", p.value("place", json())},
               {"time", q.time ? json(platform::rfc3339(q.time)) : json()},
               {"lat", lat},
               {"lon", lon},
               {"depth_km", c->size() > 2 && (*c)[2].is_number() ? (*c)[2] : json()},
               {"tsunami", p.value("tsunami", json()).is_number() && p["tsunami"].get<int>() != 0},
               {"url", p.value("url", json())}};
        if (near) {
            q.distance = distance_km(near->lat, near->lon, lat, lon);
            if (q.distance > near->within_km) continue;
            q.j["distance_km"] = round_km(q.distance);
        }
        found.push_back(std::move(q));
    }
    std::stable_sort(found.begin(), found.end(), [&](const Quake& a, const Quake& b) {
        return near ? a.distance < b.distance : a.time > b.time;
    });
    json list = json::array();
    for (std::size_t i = 0; i < found.size() && i < kMaxListed; ++i)
        list.push_back(std::move(found[i].j));
    return {{"quakes", list}, {"count", found.size()}, {"listed", list.size()}};
}

json utc_time(const json& text) {
    if (!text.is_string()) return json();
    std::string t = text.get<std::string>();
    if (t.empty()) return json();
    const auto tpos = t.find('T');
    const bool zoned =
        t.back() == 'Z' || t.back() == 'z' ||
        (tpos != std::string::npos && t.find_first_of("+-", tpos) != std::string::npos);
    return zoned ? t : t + "Z";
}

}  // namespace hazards
