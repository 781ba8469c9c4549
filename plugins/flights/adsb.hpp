// adsb.hpp — aircraft as the ADS-B aggregators report them (api.adsb.lol v2, the ADSBExchange v2
// format: {"ac": [{hex, flight, r, t, alt_baro, gs, track, baro_rate, lat, lon, squawk, category,
// seen}], "msg", "now", "total", "ctime", "ptime"}) and what flights computes from them: distances
// in nautical miles, the airborne ones, an airport's ground / approach / climb-out.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace flights {

struct Aircraft {
    std::string hex, callsign, registration, type, squawk, category;
    bool on_ground = false;             // alt_baro "ground"
    std::optional<double> altitude_ft;  // alt_baro when a number
    std::optional<double> speed_kt, track_deg, vertical_rate_fpm, lat, lon, seen_s;
    std::optional<double> distance_nm;  // from the point asked about (set by the service)
};

// The aircraft of an ADSBExchange-v2 body. Throws common::upstream::Malformed when the body is not
// an object, "ac" is not an array or an entry has no "hex". Missing fields stay empty; the callsign
// loses its space padding.
std::vector<Aircraft> parse_aircraft(const nlohmann::json& body);

// Great-circle distance in nautical miles.
double distance_nm(double lat1, double lon1, double lat2, double lon2);

// The aircraft with a position within `radius_nm` of (lat, lon), distance_nm set, nearest first.
std::vector<Aircraft> nearest(std::vector<Aircraft> all, double lat, double lon, double radius_nm);

// What an aircraft near an airport is doing: "ground" (alt_baro "ground", or under 50 knots),
// "approach" (descending), "climb_out" (climbing), "level" (neither, or no rate reported).
std::string phase(const Aircraft& a);

// The answer's form of one aircraft: {hex, callsign, registration, type, on_ground, altitude_ft,
// speed_kt, track_deg, vertical_rate_fpm, lat, lon, squawk, category, seen_s, distance_nm}; absent
// values are null.
nlohmann::json to_json(const Aircraft& a);

}  // namespace flights
