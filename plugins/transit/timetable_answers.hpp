// timetable_answers — what transit's methods answer from a GtfsTimetable, in the same shapes as
// their TfL answers (tfl.hpp) so a caller reads London and elsewhere alike.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gtfs_timetable.hpp"

namespace transit {

// How many calls arrivals lists from a timetable, and how far ahead it looks.
inline constexpr size_t kTimetableCalls = 20;
inline constexpr int64_t kTimetableHorizonS = 24 * 3600;

// arrivals at the stops `find` gave for `query`: {source: "timetable", provider, stop: {id (null
// when several share the name), name, ids}, also: [other names that matched], arrivals: [{line,
// destination, platform, direction: null, mode, expected (RFC 3339 UTC), scheduled (HH:MM, the
// timetable's zone), in_seconds, vehicle: null, stop_name, operator, trip}], timetable: summary()}.
nlohmann::json timetable_arrivals(const GtfsTimetable& t, const std::vector<uint32_t>& stops,
                                  const std::vector<std::string>& also, int64_t now_s);

// The stops within `radius_m`, as TfL's nearby lists them: [{id, name, indicator (platform or
// stop code), distance_m, lat, lon, modes, lines}].
nlohmann::json timetable_nearby(const GtfsTimetable& t, double lat, double lon, double radius_m);

}  // namespace transit
