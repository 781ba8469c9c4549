// The Nominatim lookups (address, geocode, search), `near`/`place` resolution, and elevation.
#include <algorithm>
#include <cmath>

#include "elevation.hpp"
#include "places.hpp"

using common::upstream::Upstream;
using places::Point;
using platform::json;

namespace {

json center_json(const Places::Located& where) {
    json c = {{"lat", where.at.lat}, {"lon", where.at.lon}};
    if (!where.place.is_null()) c["place"] = where.place.value("display_name", "");
    return c;
}

}  // namespace

std::optional<Places::Located> Places::locate(const platform::Request& r, const char* name_arg,
                                              bool required) const {
    const json& a = r.args();
    const bool lat = a.contains("lat"), lon = a.contains("lon"), name = a.contains(name_arg);
    if (lat != lon) throw platform::invalid_argument("lat, lon: give both, or neither");
    if (lat && name)
        throw platform::invalid_argument(std::string(name_arg) +
                                         ": give a place name or lat and lon, not both");
    if (lat) return Located{{a["lat"].get<double>(), a["lon"].get<double>()}, nullptr};
    if (!name) {
        if (!required) return std::nullopt;
        throw platform::invalid_argument(std::string(name_arg) + ", lat, lon: give a place name (" +
                                         name_arg + ") or lat and lon");
    }
    const std::string text = r.str(name_arg);
    Upstream nominatim(host_, kNominatim);
    const json found = nominatim.parse(nominatim.get_json(places::search_path(text, 1)),
                                       [](const json& b) { return places::parse_search(b); });
    if (found.empty())
        throw platform::not_found(std::string(name_arg) + ": no place found for '" + text + "'");
    return Located{places::point_of(found[0]), found[0]};
}

json Places::address(platform::Request& r) {
    const Point at{r["lat"].get<double>(), r["lon"].get<double>()};
    Upstream nominatim(host_, kNominatim);
    auto place = nominatim.parse(nominatim.get_json(places::reverse_path(at)),
                                 [](const json& b) { return places::parse_reverse(b); });
    if (!place)
        throw platform::not_found("lat, lon: no address found at " + r["lat"].dump() + ", " +
                                  r["lon"].dump());
    return {
        {"lat", at.lat}, {"lon", at.lon}, {"place", *place}, {"attribution", places::kAttribution}};
}

json Places::geocode(platform::Request& r) {
    const std::string q = r.str("address");
    Upstream nominatim(host_, kNominatim);
    json results = nominatim.parse(nominatim.get_json(places::search_path(q, kGeocodeResults)),
                                   [](const json& b) { return places::parse_search(b); });
    return {{"query", q},
            {"count", results.size()},
            {"results", results},
            {"attribution", places::kAttribution}};
}

json Places::search(platform::Request& r) {
    const std::string q = r.str("query");
    const double radius = r["radius"].get<double>();
    auto where = locate(r, "near", false);
    Upstream nominatim(host_, kNominatim);
    json found = nominatim.parse(
        nominatim.get_json(places::search_path(
            q, kSearchResults, where ? std::optional<Point>(where->at) : std::nullopt, radius)),
        [](const json& b) { return places::parse_search(b); });
    json out = {{"query", q}};
    if (where) {
        // The viewbox is a square: keep what lies within the circle, nearest first.
        json kept = json::array();
        for (auto& p : found) {
            const double d = places::distance_m(where->at, places::point_of(p));
            if (d > radius) continue;
            p["distance_m"] = std::round(d);
            kept.push_back(std::move(p));
        }
        std::stable_sort(kept.begin(), kept.end(), [](const json& a, const json& b) {
            return a["distance_m"].get<double>() < b["distance_m"].get<double>();
        });
        found = std::move(kept);
        out["center"] = center_json(*where);
        out["radius"] = radius;
    }
    out["count"] = found.size();
    out["results"] = std::move(found);
    out["attribution"] = places::kAttribution;
    return out;
}

json Places::elevation(platform::Request& r) {
    const Located where = *locate(r, "place", true);
    Upstream dem(host_, kElevation);
    const double metres = dem.parse(dem.get_json(places::elevation_path(where.at)),
                                    [](const json& b) { return places::parse_elevation(b); });
    json out = {{"lat", where.at.lat}, {"lon", where.at.lon}};
    if (!where.place.is_null()) out["place"] = where.place.value("display_name", "");
    out["elevation_m"] = places::tenths(metres);
    out["elevation_ft"] = places::feet_of(metres);
    out["model"] = "Copernicus DEM GLO-90 (90 m)";
    out["source"] = "Open-Meteo Elevation API";
    return out;
}
