// nearby: points of interest from Overpass around a point, nearest first, with open_now.
#include <algorithm>
#include <cmath>
#include <common/time/time_zone.hpp>

#include "opening_hours.hpp"
#include "overpass.hpp"
#include "places.hpp"

using common::upstream::Upstream;
using places::Point;
using platform::json;

std::string Places::zone_at(Point at) {
    // Great Britain, Northern Ireland, Ireland, Man and the Channel Islands' north, all on one
    // wall clock (Europe/Dublin keeps London's). The box's corner over the French coast (east of
    // the prime meridian, south of a line through the Strait of Dover) is cut off.
    if (at.lat < 49.79 || at.lat > 60.94 || at.lon < -10.7 || at.lon > 1.92) return "";
    if (at.lon > 0 && at.lat < 50.6 + std::max(0.0, at.lon - 1.0) * 0.667) return "";
    return "Europe/London";
}

json Places::nearby(platform::Request& r) {
    const Located where = *locate(r, "near", true);
    const double radius = r["radius"].get<double>();
    const std::string query = r.str("query");
    Upstream overpass(host_, kOverpass);
    const std::string ql = places::nearby_ql(where.at, radius, query, kOverpassElements);
    auto points = overpass.parse(
        overpass.get_json("/api/interpreter" + common::upstream::Query().str("data", ql).text()),
        [](const json& b) { return places::parse_elements(b); });

    const int64_t now_ms = host_.now_ms();
    const std::string zone_name = zone_at(where.at);
    std::shared_ptr<const common::time::TimeZone> zone;
    if (!zone_name.empty()) zone = common::time::TimeZone::load(zone_name);
    const int64_t local_s = zone ? zone->to_local(now_ms / 1000) : 0;

    for (auto& p : points) {
        const double d = places::distance_m(where.at, places::point_of(p));
        p["distance_m"] = std::round(d);
        std::optional<bool> open;
        if (zone && p.contains("opening_hours"))
            open = places::open_at_local(p["opening_hours"].get<std::string>(), local_s);
        p["open_now"] = open ? json(*open) : json(nullptr);
    }
    std::stable_sort(points.begin(), points.end(), [](const json& a, const json& b) {
        return a["distance_m"].get<double>() < b["distance_m"].get<double>();
    });
    json list = json::array();
    for (auto& p : points) {
        if (list.size() == static_cast<size_t>(kNearbyResults)) break;
        list.push_back(std::move(p));
    }
    json center = {{"lat", where.at.lat}, {"lon", where.at.lon}};
    if (!where.place.is_null()) center["place"] = where.place.value("display_name", "");
    return {{"center", center},
            {"radius", radius},
            {"query", query.empty() ? json(nullptr) : json(query)},
            {"time_zone", zone ? json(zone_name) : json(nullptr)},
            {"evaluated_at", platform::rfc3339(now_ms)},
            {"count", list.size()},
            {"points", list},
            {"attribution", places::kAttribution}};
}
