#include "flights.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <regex>

#include "adsb.hpp"
#include "airports.hpp"
#include "schedule.hpp"

namespace schema = platform::schema;

using common::upstream::encode;
using common::upstream::Query;
using common::upstream::Upstream;
using platform::json;

namespace flights {
namespace {

const std::string kAircraftShape =
    "{hex, callsign, registration, type, on_ground, altitude_ft, speed_kt, track_deg, "
    "vertical_rate_fpm, lat, lon, squawk, category, seen_s (seconds since last heard), "
    "distance_nm} (absent values null)";

std::string upper_compact(const std::string& s) {
    std::string out;
    for (unsigned char c : s)
        if (!std::isspace(c)) out += static_cast<char>(std::toupper(c));
    return out;
}

// Degrees with four decimals (about 10 m): the point's path segment, stable for the cache.
std::string degrees(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4f", v);
    return b;
}

json airport_json(const Airport& a) {
    return {{"iata", a.iata}, {"icao", a.icao}, {"name", a.name},
            {"city", a.city}, {"lat", a.lat},   {"lon", a.lon}};
}

// Every aircraft ADS-B receivers hear within `radius_nm` of the point, nearest first.
std::vector<Aircraft> around(const platform::Host& host, double lat, double lon, double radius_nm) {
    Upstream adsb(host, kAdsb);
    const int whole = static_cast<int>(std::ceil(radius_nm));
    json body = adsb.get_json("/v2/point/" + degrees(lat) + "/" + degrees(lon) + "/" +
                              std::to_string(whole));
    return nearest(adsb.parse(body, [](const json& j) { return parse_aircraft(j); }), lat, lon,
                   radius_nm);
}

}  // namespace
}  // namespace flights

using namespace flights;

void Flights::describe(platform::ServiceSpec<Flights>& s) {
    s.id("flights")
        .version("1.0.0")
        .service("v1.flights")
        .summary(
            "Aircraft overhead, at an airport and by flight from live ADS-B positions (adsb.lol), "
            "and "
            "flight times from a configured schedule provider");
    const std::string table = std::to_string(airport_count()) + " major airports";
    s.get("airport")
        .title("Live traffic at an airport")
        .description(
            "The aircraft ADS-B receivers hear now within 10 nm of an airport, split into "
            "`ground` (reported on the ground or under 50 knots), `approach` (descending), "
            "`climb_out` (climbing) and `level`; live positions, not the timetable. The airport "
            "comes from an embedded table of " +
            table +
            " by IATA or ICAO code or by name or city (404 when it is not there). Answer: "
            "{airport: {iata, icao, name, city, lat, lon}, radius_nm, ground, approach, "
            "climb_out, level: [aircraft nearest first], source: \"adsb.lol\"}; each aircraft " +
            kAircraftShape + ".")
        .schema(schema::object().str("code").min_len(2).max_len(60).required().doc(
            "IATA (LHR) or ICAO (EGLL) code, or the airport's name or city"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Flights::airport);
    s.get("overhead")
        .title("Aircraft overhead")
        .description(
            "Live positions of the aircraft ADS-B receivers hear within `radius` nautical miles "
            "of a point, nearest first. The point is `lat` and `lon` (which win over `near`), or "
            "`near`: an airport of "
            "the embedded table (" +
            table +
            ") by code, name or city — there is no geocoder (400 when `near` is unknown). "
            "Answer: {center: {lat, lon, airport (when from near)}, radius_nm, aircraft: [...], "
            "source: \"adsb.lol\"}; each aircraft " +
            kAircraftShape + ".")
        .schema(schema::object()
                    .str("near")
                    .min_len(2)
                    .max_len(60)
                    .doc("An airport code, name or city from the embedded table")
                    .prop("lat", schema::latitude("Latitude of the point"))
                    .prop("lon", schema::longitude("Longitude of the point"))
                    .number("radius")
                    .range(1, kMaxRadiusNm)
                    .def(30)
                    .doc("Nautical miles around the point, 1 to 250"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Flights::overhead);
    s.get("status")
        .title("Flight times")
        .description(
            "Scheduled, estimated and actual departure and arrival times of a flight, or of an "
            "airport's arrivals or departures, from the configured schedule provider "
            "(outbound.providers.flight-status, AviationStack format; 503 naming "
            "providers.flight-status.base_url when it is not set). Give `flight`, `airport` or "
            "both. Answer: {flights: [{flight, airline, date, status, departure: {airport, iata, "
            "scheduled, estimated, actual, terminal, gate, delay_min}, arrival: {...}}], "
            "direction}.")
        .schema(schema::object()
                    .str("flight")
                    .pattern("^[A-Za-z0-9]{2}[0-9]{1,4}[A-Za-z]?$")
                    .doc("IATA flight number, e.g. BA117")
                    .str("airport")
                    .pattern("^[A-Za-z]{3}$")
                    .doc("IATA airport code, e.g. LHR")
                    .str("direction")
                    .one_of({"arrivals", "departures"})
                    .def("arrivals")
                    .doc("With `airport`: its arrivals or its departures"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Flights::status);
    s.get("track")
        .title("Track a flight")
        .description(
            "The live position of an airborne aircraft by IATA flight number (BA117: the "
            "airline's ICAO callsign prefix from an embedded table, BAW117), ATC callsign "
            "(BAW117) or registration (G-XLEA); only aircraft in the air and in range of an "
            "ADS-B receiver (404 otherwise). Answer: {query, looked_up: [what was asked of "
            "adsb.lol], aircraft: [...], source: \"adsb.lol\"}; each aircraft " +
            kAircraftShape + ".")
        .schema(schema::object()
                    .str("flight")
                    .min_len(2)
                    .max_len(12)
                    .pattern("^[A-Za-z0-9 -]+$")
                    .required()
                    .doc("Flight number, callsign or registration"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Flights::track);
}

json Flights::airport(platform::Request& r) {
    const std::string code = r.str("code");
    auto a = find_airport(code);
    if (!a)
        throw platform::not_found("code: no airport '" + code + "' in the table of " +
                                  std::to_string(airport_count()) +
                                  " major airports (IATA or ICAO code, name or city)");
    json out = {{"airport", airport_json(*a)}, {"radius_nm", kAirportRadiusNm},
                {"ground", json::array()},     {"approach", json::array()},
                {"climb_out", json::array()},  {"level", json::array()},
                {"source", kAdsb.title}};
    for (const Aircraft& ac : around(host_, a->lat, a->lon, kAirportRadiusNm))
        out[phase(ac)].push_back(to_json(ac));
    return out;
}

json Flights::overhead(platform::Request& r) {
    const json& args = r.args();
    const bool has_lat = args.contains("lat"), has_lon = args.contains("lon");
    if (has_lat != has_lon) throw platform::invalid_argument("lat, lon: give both or neither");
    json center;
    double lat = 0, lon = 0;
    if (has_lat) {
        lat = args["lat"].get<double>();
        lon = args["lon"].get<double>();
        center = {{"lat", lat}, {"lon", lon}};
    } else if (args.contains("near")) {
        const std::string near = r.str("near");
        auto a = find_airport(near);
        if (!a)
            throw platform::invalid_argument(
                "near: no airport '" + near +
                "' in the embedded table (there is no geocoder); give lat and lon");
        lat = a->lat;
        lon = a->lon;
        center = {{"lat", lat}, {"lon", lon}, {"airport", airport_json(*a)}};
    } else {
        throw platform::invalid_argument("near, lat, lon: give near (an airport) or lat and lon");
    }
    const double radius = args.value("radius", 30.0);
    json list = json::array();
    for (const Aircraft& ac : around(host_, lat, lon, radius)) list.push_back(to_json(ac));
    return {{"center", center}, {"radius_nm", radius}, {"aircraft", list}, {"source", kAdsb.title}};
}

json Flights::status(platform::Request& r) {
    const std::string flight = upper_compact(r.str("flight"));
    const std::string airport = upper_compact(r.str("airport"));
    const std::string direction = r.str("direction", "arrivals");
    if (flight.empty() && airport.empty())
        throw platform::invalid_argument("flight, airport: give at least one");
    Query q;
    if (!flight.empty()) q.str("flight_iata", flight);
    if (!airport.empty()) q.str(direction == "departures" ? "dep_iata" : "arr_iata", airport);
    Upstream provider(host_, kFlightStatus);
    json body = provider.get_json("/v1/flights" + q.text());
    return {{"flights", provider.parse(body, [](const json& j) { return parse_schedule(j); })},
            {"direction", direction}};
}

json Flights::track(platform::Request& r) {
    const std::string q = upper_compact(r.str("flight"));
    std::vector<std::pair<std::string, std::string>> asks;  // {kind, value}
    static const std::regex iata("^([A-Z0-9]{2})([0-9]{1,4}[A-Z]?)$");
    std::smatch m;
    if (q.find('-') != std::string::npos) {
        asks.push_back({"registration", q});
    } else {
        std::string callsign = q;
        if (std::regex_match(q, m, iata))
            if (std::string icao = icao_airline(m[1]); !icao.empty()) callsign = icao + m[2].str();
        asks.push_back({"callsign", callsign});
        asks.push_back({"registration", q});
    }
    Upstream adsb(host_, kAdsb);
    json looked_up = json::array(), list = json::array();
    for (const auto& [kind, value] : asks) {
        json body =
            adsb.get_json((kind == "callsign" ? "/v2/callsign/" : "/v2/reg/") + encode(value));
        looked_up.push_back({{kind, value}});
        for (const Aircraft& ac : adsb.parse(body, [](const json& j) { return parse_aircraft(j); }))
            if (!ac.on_ground) list.push_back(to_json(ac));
        if (!list.empty()) break;
    }
    if (list.empty()) {
        std::string what;
        for (const auto& [kind, value] : asks)
            what += (what.empty() ? "" : " or ") + kind + " " + value;
        throw platform::not_found("flight: no airborne aircraft with " + what +
                                  " is in range of an ADS-B receiver now (aircraft on the "
                                  "ground are not tracked)");
    }
    return {{"query", q}, {"looked_up", looked_up}, {"aircraft", list}, {"source", kAdsb.title}};
}

PLATFORM_SERVICE(Flights)
