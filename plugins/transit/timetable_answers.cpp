#include "timetable_answers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/time/rfc3339.hpp"

namespace transit {

using nlohmann::json;

namespace {

json text(const std::string& s) {
    return s.empty() ? json(nullptr) : json(s);
}

std::string clock_time(const GtfsTimetable& t, int64_t at_s) {
    const int64_t local = t.zone().to_local(at_s);
    const int64_t in_day = ((local % 86400) + 86400) % 86400;
    char b[8];
    std::snprintf(b, sizeof b, "%02d:%02d", static_cast<int>(in_day / 3600),
                  static_cast<int>(in_day / 60 % 60));
    return b;
}

std::string platform_of(const GtfsTimetable::Stop& s) {
    return !s.platform.empty() ? s.platform : s.code;
}

}  // namespace

json timetable_arrivals(const GtfsTimetable& t, const std::vector<uint32_t>& stops,
                        const std::vector<std::string>& also, int64_t now_s) {
    json list = json::array();
    for (const auto& n : t.next(stops, now_s, kTimetableCalls, kTimetableHorizonS)) {
        const auto& trip = t.trip(n.trip);
        const auto& route = t.route(trip.route);
        const auto& stop = t.stop(n.stop);
        std::string destination = trip.headsign;
        if (destination.empty() && trip.last_stop >= 0)
            destination = t.stop(static_cast<uint32_t>(trip.last_stop)).name;
        list.push_back({{"line", text(t.line_name(route))},
                        {"destination", text(destination)},
                        {"platform", text(platform_of(stop))},
                        {"direction", nullptr},
                        {"mode", GtfsTimetable::mode_name(route.type)},
                        {"expected", common::time::format_rfc3339(n.at_s)},
                        {"scheduled", clock_time(t, n.at_s)},
                        {"in_seconds", n.at_s - now_s},
                        {"vehicle", nullptr},
                        {"stop_name", text(stop.name)},
                        {"operator", text(route.agency)},
                        {"trip", trip.id}});
    }
    json ids = json::array();
    for (uint32_t s : stops) ids.push_back(t.stop(s).id);
    const auto& first = t.stop(stops.front());
    const json summary = t.summary();
    return {{"source", "timetable"},
            {"provider", summary["publisher"].is_string() ? summary["publisher"]
                         : summary["agencies"].empty()    ? json(nullptr)
                                                          : summary["agencies"][0]},
            {"stop",
             {{"id", stops.size() == 1 ? json(first.id) : json(nullptr)},
              {"name", text(first.name)},
              {"ids", ids}}},
            {"also", also},
            {"arrivals", list},
            {"timetable", summary}};
}

json timetable_nearby(const GtfsTimetable& t, double lat, double lon, double radius_m) {
    json out = json::array();
    for (const auto& [i, metres] : t.near(lat, lon, radius_m)) {
        const auto& s = t.stop(i);
        json modes = json::array(), lines = json::array();
        for (uint32_t r : t.routes_at(i)) {
            const auto& route = t.route(r);
            std::string mode = GtfsTimetable::mode_name(route.type);
            if (std::find(modes.begin(), modes.end(), mode) == modes.end()) modes.push_back(mode);
            if (std::string l = t.line_name(route); !l.empty()) lines.push_back(l);
        }
        out.push_back({{"id", s.id},
                       {"name", text(s.name)},
                       {"indicator", text(platform_of(s))},
                       {"distance_m", std::round(metres * 10) / 10},
                       {"lat", s.lat},
                       {"lon", s.lon},
                       {"modes", modes},
                       {"lines", lines}});
    }
    return out;
}

}  // namespace transit
