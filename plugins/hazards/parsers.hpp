// parsers.hpp — each feed's body read into the service's answer, filtered and sorted. Pure
// functions over JSON (no host), so that the unit tests run them on the fixtures in
// tests/fixtures/<provider>/. A body that is not the feed's documented shape throws
// common::upstream::Malformed (the 502 naming the upstream); an item lacking an optional field
// gets null there, an item lacking what the answer is about (a quake's magnitude or place) is
// skipped.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "geo.hpp"

namespace hazards {

// USGS's GeoJSON summary feeds ------------------------------------------------------------------

// The feed for magnitude `min`: the largest of USGS's thresholds (4.5, 2.5, 1.0, then "all") not
// above it, e.g. "2.5" for 3.2, "all" for 0.5.
std::string quake_feed_level(double min);

// The largest number of quakes (and alerts) one answer lists; `count` says how many matched.
inline constexpr std::size_t kMaxListed = 200;

// {"quakes": [{id, magnitude, place, time (RFC 3339), lat, lon, depth_km, distance_km (with a
// point), tsunami, url}], "count", "listed"}: the features of magnitude >= min (and within the
// radius of `near`), nearest first with a point, else newest first; at most kMaxListed listed.
nlohmann::json quakes_from(const nlohmann::json& feed, double min, const std::optional<Near>& near);

// GDACS's EVENTS4APP event list -----------------------------------------------------------------

// 1 green, 2 orange, 3 red; 0 for anything else.
int alert_rank(const std::string& level);

// {"alerts": [{id, type, type_code, level, name, description, country, from, to, lat, lon,
// severity {value, text, unit}, distance_km (with a point), url}], "count", "listed"}: the events
// at `min_level` or above (and within the radius of `near`), red first, then nearest (with a
// point) or newest.
nlohmann::json alerts_from(const nlohmann::json& list, int min_level,
                           const std::optional<Near>& near);

// The Environment Agency's /id/floods ------------------------------------------------------------

// {"floods": [{id, area, region, county, river_or_sea, severity, severity_level, in_force, tidal,
// message, raised, severity_changed, message_changed, url}], "count"}: every warning and alert
// (only Severe Flood Warnings, level 1, when `severe_only`), most severe first, then the most
// recently changed.
nlohmann::json floods_from(const nlohmann::json& body, bool severe_only);

// "2026-11-29T06:00:00" (a feed's time without an offset, UTC) as RFC 3339 ("...Z"); a time with
// an offset as it is; null for anything not a string.
nlohmann::json utc_time(const nlohmann::json& text);

}  // namespace hazards
