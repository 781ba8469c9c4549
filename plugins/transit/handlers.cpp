// The six methods of transit (transit.hpp); each reads its upstream through common/upstream.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "bods.hpp"
#include "feeds.hpp"
#include "rail.hpp"
#include "tfl.hpp"
#include "transit.hpp"

using common::upstream::encode;
using common::upstream::Malformed;
using common::upstream::Options;
using common::upstream::Query;
using common::upstream::Upstream;
using platform::json;
using namespace transit;

namespace {

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string trim(std::string s) {
    auto space = [](unsigned char c) { return std::isspace(c) != 0; };
    s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), space));
    s.erase(std::find_if_not(s.rbegin(), s.rend(), space).base(), s.end());
    return s;
}

platform::Error no_timetable(const std::string& stop, const std::string& why) {
    return platform::unavailable(
        "stop: " + why + " '" + stop +
        "'; arrivals outside London come from a published GTFS timetable (" + kTimetableSetting +
        "), which this version of transit does not read yet (transit/feeds lists the "
        "timetables available)");
}

json body_json(const Upstream& up, const std::string& body) {
    json j = json::parse(body, nullptr, false);
    if (j.is_discarded()) throw up.malformed("the body is not JSON");
    return j;
}

std::string fixed(double v, int decimals) {
    char b[32];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    return b;
}

}  // namespace

json Transit::arrivals(platform::Request& r) {
    const std::string stop = trim(r.str("stop"));
    Upstream tfl(host_, kTfl);
    std::string id, name;
    if (looks_like_stop_id(stop)) {
        id = upper(stop);
        if (!is_tfl_stop_id(id)) throw no_timetable(stop, "not a TfL (London) stop id");
    } else {
        json body = tfl.get_json(
            "/StopPoint/Search/" + encode(stop) +
            Query().str("modes", "bus,tube,dlr,overground,elizabeth-line,tram").text());
        auto match = tfl.parse(body, [](const json& j) { return parse_search(j); });
        if (!match || !is_tfl_stop_id(match->id))
            throw no_timetable(stop, "no TfL (London) stop is called");
        id = match->id;
        name = match->name;
    }
    Options o;
    o.pass = {404};
    auto a = tfl.fetch("/StopPoint/" + encode(id) + "/Arrivals", o);
    if (a.status == 404) throw platform::not_found("stop: TfL has no stop " + id);
    json list = tfl.parse(body_json(tfl, a.body), [](const json& j) { return parse_arrivals(j); });
    if (name.empty() && !list.empty() && list[0]["stop_name"].is_string())
        name = list[0]["stop_name"].get<std::string>();
    return {{"source", "live"},
            {"provider", kTfl.title},
            {"stop", {{"id", id}, {"name", name.empty() ? json(nullptr) : json(name)}}},
            {"arrivals", list}};
}

json Transit::buses(platform::Request& r) {
    const json& args = r.args();
    if (!args.contains("lat") || !args.contains("lon"))
        throw platform::invalid_argument("lat, lon: both are needed (the point buses are near)");
    const double lat = args["lat"].get<double>(), lon = args["lon"].get<double>();
    const double within = args.value("within_km", 2.0);
    const int64_t limit = r.integer("limit", 10);
    const double dlat = within / 111.32;
    const double dlon = within / (111.32 * std::max(0.01, std::cos(lat * M_PI / 180)));
    const std::string box = fixed(lon - dlon, 5) + "," + fixed(lat - dlat, 5) + "," +
                            fixed(lon + dlon, 5) + "," + fixed(lat + dlat, 5);
    Upstream bods(host_, kBods);
    auto a = bods.fetch("/api/v1/datafeed/" + Query().str("boundingBox", box).text());
    std::vector<Bus> all;
    try {
        all = parse_siri_vm(a.body);
    } catch (const Malformed& e) {
        throw bods.malformed(e.what());
    }
    std::vector<Bus> near;
    for (Bus& b : all) {
        b.distance_km = distance_km(lat, lon, b.lat, b.lon);
        if (b.distance_km <= within) near.push_back(std::move(b));
    }
    std::stable_sort(near.begin(), near.end(),
                     [](const Bus& x, const Bus& y) { return x.distance_km < y.distance_km; });
    const size_t in_range = near.size();
    if (near.size() > static_cast<size_t>(limit)) near.resize(static_cast<size_t>(limit));
    auto text = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
    json out = json::array();
    for (const Bus& b : near)
        out.push_back({{"vehicle", text(b.vehicle)},
                       {"line", text(b.line)},
                       {"direction", text(b.direction)},
                       {"operator", text(b.operator_ref)},
                       {"destination", text(b.destination)},
                       {"lat", b.lat},
                       {"lon", b.lon},
                       {"bearing", b.bearing ? json(*b.bearing) : json(nullptr)},
                       {"distance_km", std::round(b.distance_km * 1000) / 1000},
                       {"recorded_at", text(b.recorded_at)}});
    return {{"buses", out}, {"in_range", in_range}, {"source", kBods.title}};
}

json Transit::feeds(platform::Request& r) {
    const std::string country = upper(r.str("country", "GB"));
    Upstream mdb(host_, kMobilityDatabase);
    json body = mdb.get_json("/v1/gtfs_feeds" + Query().str("country_code", country).text());
    return {{"country", country},
            {"carried", json::array()},
            {"timetable_setting", kTimetableSetting},
            {"available", mdb.parse(body, [](const json& j) { return parse_feeds(j); })}};
}

json Transit::nearby(platform::Request& r) {
    const json& args = r.args();
    const double lat = args["lat"].get<double>(), lon = args["lon"].get<double>();
    const double radius = args.value("radius", 400.0);
    Upstream tfl(host_, kTfl);
    json body = tfl.get_json(
        "/StopPoint" +
        Query()
            .num("lat", lat)
            .num("lon", lon)
            .str("stopTypes", "NaptanPublicBusCoachTram,NaptanMetroStation,NaptanRailStation")
            .integer("radius", std::llround(radius))
            .text());
    return {{"stops", tfl.parse(body, [](const json& j) { return parse_nearby(j); })},
            {"radius_m", radius},
            {"source", kTfl.title}};
}

json Transit::status(platform::Request& r) {
    const std::vector<std::string> modes = tfl_modes(r.str("modes"));
    std::string path;
    for (const auto& m : modes) path += (path.empty() ? "" : ",") + m;
    Upstream tfl(host_, kTfl);
    json body = tfl.get_json("/Line/Mode/" + path + "/Status");
    return {{"modes", modes},
            {"lines", tfl.parse(body, [](const json& j) { return parse_status(j); })}};
}

json Transit::trains(platform::Request& r) {
    const std::string station = upper(r.str("station"));
    if (station.empty())
        throw platform::invalid_argument(
            "station: give a three-letter station code (CRS), e.g. PAD for London Paddington");
    const bool arrivals = r.args().value("arrivals", false);
    const int64_t rows = r.integer("rows", 10, 1, 20);
    Upstream rail(host_, kRail);
    json body = rail.get_json(std::string("/LDBWS/api/20220120/") +
                              (arrivals ? "GetArrBoardWithDetails/" : "GetDepBoardWithDetails/") +
                              station + Query().integer("numRows", rows).text());
    return rail.parse(body, [&](const json& j) { return parse_board(j, arrivals); });
}
