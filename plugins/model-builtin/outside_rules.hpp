// outside_rules — model-builtin's phrasings for the external-data services (router.hpp's table
// holds the patterns; these build the calls): the weather of a place, the next prayer and
// earthquakes near a place. The services take coordinates for the last two, so those requests
// take two steps: places_geocode {address} first, then — once its answer is back — the call the
// rule names (`then`) with the place's lat and lon (after_place).
//
//   "weather in London tomorrow"       weather_lookup {place: London, day: tomorrow}
//   "will it rain tomorrow in Leeds"   weather_lookup {place: Leeds, day: tomorrow, focus: rain}
//   "next prayer in Leeds"             places_geocode {address: Leeds} -> prayer_times {lat, lon, tz}
//   "earthquakes near Tokyo"           places_geocode {address: Tokyo} -> hazards_quakes {lat, lon}
//   "recent earthquakes"               hazards_quakes {}
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "clock.hpp"

namespace builtin {

struct ToolCall;

// Builders for router.cpp's rules (a capture: the words after "weather", "rain", ...).
std::vector<ToolCall> weather_call(const std::string& capture, const LocalClock& clock);
std::vector<ToolCall> rain_call(const std::string& capture, const LocalClock& clock);
std::vector<ToolCall> prayer_call(const std::string& capture, const LocalClock& clock);
std::vector<ToolCall> quakes_call(const std::string& capture, const LocalClock& clock);

// The second step: `then` ("prayer_times", "hazards_quakes") at the place places_geocode answered
// (`geocoded`, its result's JSON: the first object in it with numeric lat and lon); nullopt when
// it holds no place. prayer_times gets the account's zone as tz when the clock has a named one.
std::optional<ToolCall> after_place(const std::string& then, const nlohmann::json& geocoded,
                                    const LocalClock& clock);

}  // namespace builtin
