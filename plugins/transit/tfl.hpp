// tfl.hpp — Transport for London's Unified API as transit reads it: stop search, a stop's live
// arrivals, stops near a point and the lines' status, and our mode names for TfL's mode ids.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace transit {

// The London modes transit/status takes, in the order of the spec (TfL's mode ids are the same:
// the Overground, now split into named lines, keeps the mode id "overground").
inline const std::vector<std::string> kStatusModes = {"tube", "dlr", "overground", "elizabeth-line",
                                                      "tram"};

// `modes` ("tube, dlr") as TfL mode ids, each once, in the order given; every mode when empty.
// Throws 400 naming `modes` for one it does not know. Accepts "elizabeth" and "london-overground"
// as well.
std::vector<std::string> tfl_modes(const std::string& modes);

// Whether `stop` is a stop id rather than a name (letters and digits only, with a digit: 490G...,
// 940GZZLUOXC, HUBOXC, 1800SB12345).
bool looks_like_stop_id(const std::string& stop);
// Whether the stop id is one of TfL's (London's NaPTAN areas 490 and 940G, 910G national rail
// stations, HUB interchanges); other ids belong to timetables elsewhere.
bool is_tfl_stop_id(const std::string& id);

struct StopMatch {
    std::string id, name;
};
// The best match of a /StopPoint/Search body ({query, total, matches: [{id, name, lat, lon,
// modes, zone}]}): the first that is not a HUB interchange, else the first; nullopt for none.
// Throws common::upstream::Malformed when there is no "matches" list.
std::optional<StopMatch> parse_search(const nlohmann::json& body);

// A /StopPoint/{id}/Arrivals body (an array) as [{line, destination, platform, direction, mode,
// expected, in_seconds, vehicle}], soonest first. Throws Malformed unless it is an array of
// objects each with a numeric timeToStation.
nlohmann::json parse_arrivals(const nlohmann::json& body);

// A /StopPoint?lat&lon&stopTypes&radius body ({stopPoints: [{naptanId, commonName, distance, lat,
// lon, modes, lines: [{name}]}]}) as [{id, name, distance_m, lat, lon, modes, lines}], nearest
// first. Throws Malformed when there is no "stopPoints" list or a stop lacks naptanId.
nlohmann::json parse_nearby(const nlohmann::json& body);

// A /Line/Mode/{modes}/Status body (an array) as [{id, name, mode, statuses: [{severity,
// description, reason}]}]. Throws Malformed unless it is an array of lines each with an id.
nlohmann::json parse_status(const nlohmann::json& body);

}  // namespace transit
