// The six methods of transit (transit.hpp); each reads its upstream through common/upstream.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

#include "bods.hpp"
#include "feeds.hpp"
#include "rail.hpp"
#include "tfl.hpp"
#include "timetable_answers.hpp"
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
    return platform::unavailable("stop: " + why + " '" + stop +
                                 "'; arrivals outside London come from a published GTFS "
                                 "timetable: set " +
                                 kTimetableSetting +
                                 " to the URL of its ZIP (transit/feeds lists those available)");
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
    const bool by_id = looks_like_stop_id(stop);
    if (by_id && is_tfl_stop_id(upper(stop))) return live_arrivals(tfl, upper(stop), "");
    std::optional<platform::Error> tfl_failed;  // TfL unset or down: the timetable may know it
    if (!by_id) {
        try {
            json body = tfl.get_json(
                "/StopPoint/Search/" + encode(stop) +
                Query().str("modes", "bus,tube,dlr,overground,elizabeth-line,tram").text());
            auto match = tfl.parse(body, [](const json& j) { return parse_search(j); });
            if (match && is_tfl_stop_id(match->id))
                return live_arrivals(tfl, match->id, match->name);
        } catch (const platform::Error& e) {
            if (e.code() != platform::Code::unavailable) throw;
            tfl_failed = e;
        }
    }
    std::shared_ptr<const GtfsTimetable> t;
    try {
        t = timetables_.get(kTimetableWaitMs);
    } catch (const platform::Error& e) {
        if (!Timetables::unset(e)) throw;
        if (tfl_failed) throw *tfl_failed;
        throw no_timetable(stop,
                           by_id ? "not a TfL (London) stop id" : "no TfL (London) stop is called");
    }
    std::vector<std::string> also;
    const std::vector<uint32_t> stops = t->find(stop, &also);
    if (stops.empty()) {
        if (tfl_failed) throw *tfl_failed;
        throw platform::not_found("stop: no stop " + std::string(by_id ? "with the id" : "called") +
                                  " '" + stop + "' in TfL's London stops or the timetable");
    }
    return timetable_arrivals(*t, stops, also, host_.now_ms() / 1000);
}

json Transit::live_arrivals(const Upstream& tfl, const std::string& id, std::string name) {
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
    json carried = json::array();
    try {
        json t = timetables_.get(kTimetableWaitMs)->summary();
        if (t["country"].is_null() || t["country"] == country) {
            t["setting"] = kTimetableSetting;
            carried.push_back(t);
        }
    } catch (const platform::Error& e) {
        if (!Timetables::unset(e))
            carried.push_back({{"setting", kTimetableSetting}, {"error", e.what()}});
    }
    json out = {
        {"country", country}, {"carried", carried}, {"timetable_setting", kTimetableSetting}};
    Upstream mdb(host_, kMobilityDatabase);
    try {
        json body = mdb.get_json("/v1/gtfs_feeds" + Query().str("country_code", country).text());
        out["available"] = mdb.parse(body, [](const json& j) { return parse_feeds(j); });
    } catch (const platform::Error& e) {
        if (carried.empty()) throw;  // nothing to show without the catalogue
        out["available"] = nullptr;
        out["available_error"] = e.what();
    }
    return out;
}

json Transit::nearby(platform::Request& r) {
    const json& args = r.args();
    const double lat = args["lat"].get<double>(), lon = args["lon"].get<double>();
    const double radius = args.value("radius", 400.0);
    json stops = json::array(), sources = json::array(), failed = json::array();
    std::optional<platform::Error> tfl_failed;
    Upstream tfl(host_, kTfl);
    try {
        json body = tfl.get_json(
            "/StopPoint" +
            Query()
                .num("lat", lat)
                .num("lon", lon)
                .str("stopTypes", "NaptanPublicBusCoachTram,NaptanMetroStation,NaptanRailStation")
                .integer("radius", std::llround(radius))
                .text());
        stops = tfl.parse(body, [](const json& j) { return parse_nearby(j); });
        sources.push_back(kTfl.title);
    } catch (const platform::Error& e) {
        tfl_failed = e;
        failed.push_back({{"source", kTfl.title}, {"error", e.what()}});
    }
    try {
        auto t = timetables_.get(kTimetableWaitMs);
        json more = timetable_nearby(*t, lat, lon, radius);
        sources.push_back("timetable");
        for (json& s : more) {
            auto same = [&](const json& x) { return x["id"] == s["id"]; };
            if (std::none_of(stops.begin(), stops.end(), same)) stops.push_back(std::move(s));
        }
    } catch (const platform::Error& e) {
        if (!Timetables::unset(e)) failed.push_back({{"source", "timetable"}, {"error", e.what()}});
    }
    if (sources.empty() && tfl_failed) throw *tfl_failed;
    auto metres = [](const json& s) {
        return s["distance_m"].is_number() ? s["distance_m"].get<double>() : 1e18;
    };
    std::stable_sort(stops.begin(), stops.end(),
                     [&](const json& a, const json& b) { return metres(a) < metres(b); });
    json out = {{"stops", stops}, {"radius_m", radius}, {"sources", sources}};
    if (!failed.empty()) out["failed"] = failed;
    return out;
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
