#include "adsb.hpp"

#include <algorithm>
#include <cmath>

#include "common/upstream/upstream.hpp"

namespace flights {

using common::upstream::Malformed;
using nlohmann::json;

namespace {

std::string text(const json& ac, const char* name) {
    auto it = ac.find(name);
    if (it == ac.end() || !it->is_string()) return "";
    std::string s = it->get<std::string>();
    while (!s.empty() && s.back() == ' ') s.pop_back();
    while (!s.empty() && s.front() == ' ') s.erase(s.begin());
    return s;
}

std::optional<double> number(const json& ac, const char* name) {
    auto it = ac.find(name);
    if (it == ac.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
}

json opt(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}
json opt(const std::string& v) {
    return v.empty() ? json(nullptr) : json(v);
}

}  // namespace

std::vector<Aircraft> parse_aircraft(const json& body) {
    if (!body.is_object()) throw Malformed("the answer is not a JSON object");
    auto list = body.find("ac");
    if (list == body.end()) {
        if (body.contains("now") || body.contains("total")) return {};  // nothing in range
        throw Malformed("no \"ac\" list");
    }
    if (list->is_null()) return {};
    if (!list->is_array()) throw Malformed("\"ac\" is not a list");
    std::vector<Aircraft> out;
    for (const json& ac : *list) {
        if (!ac.is_object()) throw Malformed("an \"ac\" entry is not an object");
        Aircraft a;
        a.hex = text(ac, "hex");
        if (a.hex.empty()) throw Malformed("an aircraft without \"hex\"");
        a.callsign = text(ac, "flight");
        a.registration = text(ac, "r");
        a.type = text(ac, "t");
        a.squawk = text(ac, "squawk");
        a.category = text(ac, "category");
        auto alt = ac.find("alt_baro");
        if (alt != ac.end() && alt->is_string() && alt->get<std::string>() == "ground")
            a.on_ground = true;
        else
            a.altitude_ft = number(ac, "alt_baro");
        a.speed_kt = number(ac, "gs");
        a.track_deg = number(ac, "track");
        a.vertical_rate_fpm = number(ac, "baro_rate");
        if (!a.vertical_rate_fpm) a.vertical_rate_fpm = number(ac, "geom_rate");
        a.lat = number(ac, "lat");
        a.lon = number(ac, "lon");
        a.seen_s = number(ac, "seen");
        out.push_back(std::move(a));
    }
    return out;
}

double distance_nm(double lat1, double lon1, double lat2, double lon2) {
    constexpr double kRad = M_PI / 180.0, kEarthNm = 3440.065;
    const double dlat = (lat2 - lat1) * kRad, dlon = (lon2 - lon1) * kRad;
    const double h =
        std::sin(dlat / 2) * std::sin(dlat / 2) +
        std::cos(lat1 * kRad) * std::cos(lat2 * kRad) * std::sin(dlon / 2) * std::sin(dlon / 2);
    return 2 * kEarthNm * std::asin(std::min(1.0, std::sqrt(h)));
}

std::vector<Aircraft> nearest(std::vector<Aircraft> all, double lat, double lon, double radius_nm) {
    std::vector<Aircraft> out;
    for (Aircraft& a : all) {
        if (!a.lat || !a.lon) continue;
        const double d = distance_nm(lat, lon, *a.lat, *a.lon);
        if (d > radius_nm) continue;
        a.distance_nm = std::round(d * 10) / 10;
        out.push_back(std::move(a));
    }
    std::stable_sort(out.begin(), out.end(), [](const Aircraft& x, const Aircraft& y) {
        return *x.distance_nm < *y.distance_nm;
    });
    return out;
}

std::string phase(const Aircraft& a) {
    if (a.on_ground || (a.speed_kt && *a.speed_kt < 50)) return "ground";
    if (a.vertical_rate_fpm && *a.vertical_rate_fpm < 0) return "approach";
    if (a.vertical_rate_fpm && *a.vertical_rate_fpm > 0) return "climb_out";
    return "level";
}

json to_json(const Aircraft& a) {
    return {{"hex", a.hex},
            {"callsign", opt(a.callsign)},
            {"registration", opt(a.registration)},
            {"type", opt(a.type)},
            {"on_ground", a.on_ground},
            {"altitude_ft", opt(a.altitude_ft)},
            {"speed_kt", opt(a.speed_kt)},
            {"track_deg", opt(a.track_deg)},
            {"vertical_rate_fpm", opt(a.vertical_rate_fpm)},
            {"lat", opt(a.lat)},
            {"lon", opt(a.lon)},
            {"squawk", opt(a.squawk)},
            {"category", opt(a.category)},
            {"seen_s", opt(a.seen_s)},
            {"distance_nm", opt(a.distance_nm)}};
}

}  // namespace flights
