// open_meteo — the Open-Meteo family as the weather service reads it: the requests' query strings
// and the parsers from each API's answer to ours. Pure functions over JSON; upstream.hpp does the
// fetching, caching and error mapping, and Upstream::parse turns a parser's Malformed (or a JSON
// type error) into the 502 naming the upstream.
//
// The APIs (https://open-meteo.com/en/docs, keyless, CC BY 4.0 data): forecast
// (api.open-meteo.com/v1/forecast), air quality (air-quality-api.open-meteo.com/v1/air-quality),
// marine (marine-api.open-meteo.com/v1/marine), historical archive (archive-api.open-meteo.com/
// v1/archive, ERA5, about five days behind) and geocoding (geocoding-api.open-meteo.com/v1/search).
// Every request asks for timezone=auto, so times are local to the point ("2026-11-29T07:43", with
// `timezone` and `utc_offset_seconds` beside them) and daily[0] is the point's today.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace weather {

using nlohmann::json;

// The WMO weather interpretation code as words ("Overcast", "Slight rain"); "Unknown (<code>)".
std::string conditions(int wmo_code);

// ---- requests: path and query under each provider's base URL ---------------------------------
std::string forecast_path(double lat, double lon);
std::string air_path(double lat, double lon);
std::string marine_path(double lat, double lon, int days);
std::string archive_path(double lat, double lon, const std::string& start, const std::string& end);
std::string geocoding_path(const std::string& place);

// ---- answers ----------------------------------------------------------------------------------
// forecast: {place: {lat, lon, timezone, elevation_m}, current: {time, temperature_c,
// feels_like_c, humidity_pct, precipitation_mm, wind_kmh, wind_direction_deg, conditions, is_day},
// today: {sunrise, sunset, daylight_left_minutes}, days: [{date, conditions, high_c, low_c,
// precipitation_mm, precipitation_chance_pct, sunrise, sunset, daylight_hours}], source}.
json forecast_from(const json& upstream);
// The hours of forecast answer `upstream` on `date` (YYYY-MM-DD) with their rain: {date,
// chance_pct: the day's highest, total_mm, likely: chance >= 50, wet_hours: [{time: "HH:MM",
// chance_pct, mm}] for hours with a chance of 30% or more or any rain}.
json rain_on(const json& upstream, const std::string& date);
// air: {time, aqi: {european, us}, pm2_5, pm10, ozone, nitrogen_dioxide (µg/m³), uv_index,
// pollen: {<plant>: grains/m³} where counted (Europe only; omitted elsewhere), source}.
json air_from(const json& upstream);
// marine: {current: {time, wave_height_m, wave_direction_deg, wave_period_s, sea_temperature_c},
// days: [{date, wave_height_max_m, wave_direction_deg, wave_period_max_s}], source}; null when the
// point has no sea (every value null: inland).
json marine_from(const json& upstream);
// history: {start, end, days, days_with_records, latest_record, mean_c, high_c: {value, date},
// low_c: {value, date}, rainfall_mm, rain_days (>= 1 mm), wettest: {date, mm}, source}; null
// when no day has a record yet.
json history_from(const json& upstream);
// geocoding: the first result as {name, country, admin1, lat, lon, timezone}; null when none.
json place_from(const json& upstream);

}  // namespace weather
