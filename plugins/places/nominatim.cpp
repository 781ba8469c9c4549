#include "nominatim.hpp"

#include <algorithm>
#include <cmath>
#include <common/upstream/upstream.hpp>
#include <cstdio>

namespace places {

using common::upstream::Malformed;
using common::upstream::Query;
using nlohmann::json;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kEarthRadius = 6371008.8;
constexpr double kMetresPerDegree = kEarthRadius * kPi / 180.0;  // along a meridian

// A coordinate Nominatim writes as a string ("51.5007325"), or as a number; `what` names it.
double coordinate_value(const json& v, const std::string& what) {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        size_t used = 0;
        double d = 0;
        try {
            d = std::stod(s, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == s.size() && used > 0 && std::isfinite(d)) return d;
    }
    throw Malformed("'" + what + "' is not a coordinate: " + v.dump());
}

double coordinate(const json& j, const char* name) {
    auto it = j.find(name);
    if (it == j.end()) throw Malformed(std::string("a place without '") + name + "'");
    return coordinate_value(*it, name);
}

}  // namespace

double distance_m(Point a, Point b) {
    const double rad = kPi / 180.0;
    const double dlat = (b.lat - a.lat) * rad, dlon = (b.lon - a.lon) * rad;
    const double h =
        std::sin(dlat / 2) * std::sin(dlat / 2) +
        std::cos(a.lat * rad) * std::cos(b.lat * rad) * std::sin(dlon / 2) * std::sin(dlon / 2);
    return 2 * kEarthRadius * std::asin(std::min(1.0, std::sqrt(h)));
}

json place_from(const json& j) {
    if (!j.is_object()) throw Malformed("a place that is not an object");
    auto name = j.find("display_name");
    if (name == j.end() || !name->is_string()) throw Malformed("a place without 'display_name'");
    json p = json::object();
    if (j.contains("name") && j["name"].is_string() && !j["name"].get<std::string>().empty())
        p["name"] = j["name"];
    p["display_name"] = *name;
    p["lat"] = coordinate(j, "lat");
    p["lon"] = coordinate(j, "lon");
    for (const char* k : {"category", "type"})
        if (j.contains(k) && j[k].is_string()) p[k] = j[k];
    if (!p.contains("category") && j.contains("class") && j["class"].is_string())
        p["category"] = j["class"];  // format=json's name for it
    if (j.contains("importance") && j["importance"].is_number()) p["importance"] = j["importance"];
    if (j.contains("address") && j["address"].is_object()) p["address"] = j["address"];
    if (j.contains("boundingbox") && j["boundingbox"].is_array() && j["boundingbox"].size() == 4) {
        const json& b = j["boundingbox"];  // [south, north, west, east], strings
        p["bbox"] = {{"south", coordinate_value(b[0], "boundingbox")},
                     {"north", coordinate_value(b[1], "boundingbox")},
                     {"west", coordinate_value(b[2], "boundingbox")},
                     {"east", coordinate_value(b[3], "boundingbox")}};
    }
    if (j.contains("osm_type") && j["osm_type"].is_string() && j.contains("osm_id") &&
        j["osm_id"].is_number_integer())
        p["osm"] =
            j["osm_type"].get<std::string>() + "/" + std::to_string(j["osm_id"].get<int64_t>());
    return p;
}

Point point_of(const json& place) {
    return {place.at("lat").get<double>(), place.at("lon").get<double>()};
}

json parse_search(const json& body) {
    if (!body.is_array()) throw Malformed("a search answer that is not an array");
    json out = json::array();
    for (const auto& e : body) out.push_back(place_from(e));
    return out;
}

std::optional<json> parse_reverse(const json& body) {
    if (!body.is_object()) throw Malformed("a reverse answer that is not an object");
    if (body.contains("error")) {
        if (body["error"].is_string()) return std::nullopt;  // "Unable to geocode"
        throw Malformed("error " + body["error"].dump());
    }
    return place_from(body);
}

std::string search_path(const std::string& q, int limit, const std::optional<Point>& near,
                        double radius_m) {
    Query query;
    query.str("q", q).str("format", "jsonv2").integer("addressdetails", 1).integer("limit", limit);
    if (near) {
        const double dlat = radius_m / kMetresPerDegree;
        const double dlon =
            radius_m / (kMetresPerDegree * std::max(0.01, std::cos(near->lat * kPi / 180.0)));
        auto lon = [](double v) { return std::clamp(v, -180.0, 180.0); };
        auto lat = [](double v) { return std::clamp(v, -90.0, 90.0); };
        const auto fixed = [](double v) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.6f", v);
            return std::string(buf);
        };
        query
            .str("viewbox", fixed(lon(near->lon - dlon)) + "," + fixed(lat(near->lat + dlat)) +
                                "," + fixed(lon(near->lon + dlon)) + "," +
                                fixed(lat(near->lat - dlat)))
            .integer("bounded", 1);
    }
    return "/search" + query.text();
}

std::string reverse_path(Point p) {
    return "/reverse" + Query()
                            .num("lat", p.lat)
                            .num("lon", p.lon)
                            .str("format", "jsonv2")
                            .integer("addressdetails", 1)
                            .text();
}

}  // namespace places
