// outside_replies — model-builtin's text for the external-data services' answers (reply.hpp's
// table lists them): the numbers the service gave, in words, never more than it said.
//
//   weather_lookup   London tomorrow (2026-11-30): Moderate rain, 6.8 to 10.2 °C, 85% chance of rain.
//                    Rain is likely: 4.1 mm, the wettest hour 15:00 (85%).
//   prayer_times     Next prayer: Maghrib at 15:52.\nToday: Fajr 06:12, Sunrise 07:50, ...
//   hazards_quakes   3 earthquakes:\n- M5.1, 20 km SW of Tokyo, 2026-11-29T03:12:00Z (84 km away)
//   places_geocode   <place>: <lat>, <lon>   (when no second step follows)
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "clock.hpp"

namespace builtin {

std::string weather_text(const nlohmann::json& data, const nlohmann::json& args, const LocalClock&);
std::string prayer_text(const nlohmann::json& data, const nlohmann::json& args, const LocalClock&);
std::string quakes_text(const nlohmann::json& data, const nlohmann::json& args, const LocalClock&);
std::string geocode_text(const nlohmann::json& data, const nlohmann::json& args, const LocalClock&);

}  // namespace builtin
