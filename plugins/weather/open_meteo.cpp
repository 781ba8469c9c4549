#include "open_meteo.hpp"

#include <cmath>
#include <map>

#include "common/upstream/upstream.hpp"

namespace weather {

using common::upstream::Malformed;
using common::upstream::Query;

namespace {

const json& need(const json& j, const char* key) {
    if (!j.is_object() || !j.contains(key)) throw Malformed(std::string(key) + ": missing");
    return j.at(key);
}

// The array `key` of section `s`, as long as `n` (the section's time array), or nulls when absent.
json column(const json& s, const char* key, size_t n) {
    if (!s.contains(key)) return json(std::vector<json>(n, nullptr));
    const json& a = s.at(key);
    if (!a.is_array() || a.size() != n)
        throw Malformed(std::string(key) + ": not an array as long as time");
    return a;
}

// A value or null, never a number that is not finite.
json value(const json& v) {
    return v.is_number() ? v : json(nullptr);
}

// Minutes since midnight of "YYYY-MM-DDTHH:MM" (the date part ignored); -1 when not that shape.
int minutes_of(const std::string& t) {
    auto k = t.find('T');
    if (k == std::string::npos || t.size() < k + 6) return -1;
    return std::stoi(t.substr(k + 1, 2)) * 60 + std::stoi(t.substr(k + 4, 2));
}

json daily_rows(const json& daily) {
    const json& time = need(daily, "time");
    if (!time.is_array()) throw Malformed("daily.time: not an array");
    const size_t n = time.size();
    json code = column(daily, "weather_code", n), hi = column(daily, "temperature_2m_max", n),
         lo = column(daily, "temperature_2m_min", n), mm = column(daily, "precipitation_sum", n),
         chance = column(daily, "precipitation_probability_max", n),
         rise = column(daily, "sunrise", n), set = column(daily, "sunset", n),
         light = column(daily, "daylight_duration", n);
    json days = json::array();
    for (size_t i = 0; i < n; ++i) {
        days.push_back(
            {{"date", time[i].get<std::string>()},
             {"conditions",
              code[i].is_number() ? json(conditions(code[i].get<int>())) : json(nullptr)},
             {"high_c", value(hi[i])},
             {"low_c", value(lo[i])},
             {"precipitation_mm", value(mm[i])},
             {"precipitation_chance_pct", value(chance[i])},
             {"sunrise", rise[i].is_string() ? rise[i] : json(nullptr)},
             {"sunset", set[i].is_string() ? set[i] : json(nullptr)},
             {"daylight_hours", light[i].is_number()
                                    ? json(std::round(light[i].get<double>() / 36.0) / 100)
                                    : json(nullptr)}});
    }
    return days;
}

}  // namespace

std::string conditions(int c) {
    static const std::map<int, const char*> kCodes = {{0, "Clear sky"},
                                                      {1, "Mainly clear"},
                                                      {2, "Partly cloudy"},
                                                      {3, "Overcast"},
                                                      {45, "Fog"},
                                                      {48, "Depositing rime fog"},
                                                      {51, "Light drizzle"},
                                                      {53, "Moderate drizzle"},
                                                      {55, "Dense drizzle"},
                                                      {56, "Light freezing drizzle"},
                                                      {57, "Dense freezing drizzle"},
                                                      {61, "Slight rain"},
                                                      {63, "Moderate rain"},
                                                      {65, "Heavy rain"},
                                                      {66, "Light freezing rain"},
                                                      {67, "Heavy freezing rain"},
                                                      {71, "Slight snow fall"},
                                                      {73, "Moderate snow fall"},
                                                      {75, "Heavy snow fall"},
                                                      {77, "Snow grains"},
                                                      {80, "Slight rain showers"},
                                                      {81, "Moderate rain showers"},
                                                      {82, "Violent rain showers"},
                                                      {85, "Slight snow showers"},
                                                      {86, "Heavy snow showers"},
                                                      {95, "Thunderstorm"},
                                                      {96, "Thunderstorm with slight hail"},
                                                      {99, "Thunderstorm with heavy hail"}};
    auto it = kCodes.find(c);
    return it != kCodes.end() ? it->second : "Unknown (" + std::to_string(c) + ")";
}

std::string forecast_path(double lat, double lon) {
    return "/v1/forecast" + Query()
                                .num("latitude", lat)
                                .num("longitude", lon)
                                .str("current",
                                     "temperature_2m,relative_humidity_2m,apparent_temperature,"
                                     "precipitation,weather_code,wind_speed_10m,wind_direction_10m,"
                                     "is_day")
                                .str("hourly", "precipitation_probability,precipitation")
                                .str("daily",
                                     "weather_code,temperature_2m_max,temperature_2m_min,"
                                     "precipitation_sum,precipitation_probability_max,sunrise,"
                                     "sunset,daylight_duration")
                                .str("timezone", "auto")
                                .integer("forecast_days", 7)
                                .text();
}

std::string air_path(double lat, double lon) {
    return "/v1/air-quality" + Query()
                                   .num("latitude", lat)
                                   .num("longitude", lon)
                                   .str("current",
                                        "european_aqi,us_aqi,pm2_5,pm10,ozone,nitrogen_dioxide,"
                                        "uv_index,alder_pollen,birch_pollen,grass_pollen,"
                                        "mugwort_pollen,olive_pollen,ragweed_pollen")
                                   .str("timezone", "auto")
                                   .text();
}

std::string marine_path(double lat, double lon, int days) {
    return "/v1/marine" +
           Query()
               .num("latitude", lat)
               .num("longitude", lon)
               .str("current", "wave_height,wave_direction,wave_period,sea_surface_temperature")
               .str("daily", "wave_height_max,wave_direction_dominant,wave_period_max")
               .str("timezone", "auto")
               .integer("forecast_days", days)
               .text();
}

std::string archive_path(double lat, double lon, const std::string& start, const std::string& end) {
    return "/v1/archive" + Query()
                               .num("latitude", lat)
                               .num("longitude", lon)
                               .str("start_date", start)
                               .str("end_date", end)
                               .str("daily",
                                    "temperature_2m_max,temperature_2m_min,temperature_2m_mean,"
                                    "precipitation_sum")
                               .str("timezone", "auto")
                               .text();
}

std::string geocoding_path(const std::string& place) {
    return "/v1/search" + Query()
                              .str("name", place)
                              .integer("count", 1)
                              .str("language", "en")
                              .str("format", "json")
                              .text();
}

json forecast_from(const json& u) {
    const json& cur = need(u, "current");
    const json& daily = need(u, "daily");
    json days = daily_rows(daily);
    json current = {{"time", need(cur, "time")},
                    {"temperature_c", value(cur.value("temperature_2m", json()))},
                    {"feels_like_c", value(cur.value("apparent_temperature", json()))},
                    {"humidity_pct", value(cur.value("relative_humidity_2m", json()))},
                    {"precipitation_mm", value(cur.value("precipitation", json()))},
                    {"wind_kmh", value(cur.value("wind_speed_10m", json()))},
                    {"wind_direction_deg", value(cur.value("wind_direction_10m", json()))},
                    {"conditions", cur.contains("weather_code") && cur["weather_code"].is_number()
                                       ? json(conditions(cur["weather_code"].get<int>()))
                                       : json(nullptr)},
                    {"is_day", cur.contains("is_day") && cur["is_day"].is_number() &&
                                   cur["is_day"].get<int>() == 1}};
    json today = json::object();
    if (!days.empty()) {
        const json& d = days[0];
        today = {{"sunrise", d["sunrise"]}, {"sunset", d["sunset"]}, {"daylight_left_minutes", 0}};
        const int now = minutes_of(current["time"].get<std::string>());
        if (d["sunrise"].is_string() && d["sunset"].is_string()) {
            const int rise = minutes_of(d["sunrise"]), set = minutes_of(d["sunset"]);
            if (now >= 0 && rise >= 0 && set >= 0)
                today["daylight_left_minutes"] =
                    now < rise ? set - rise : (now < set ? set - now : 0);
        }
    }
    return {{"place",
             {{"lat", need(u, "latitude")},
              {"lon", need(u, "longitude")},
              {"timezone", u.value("timezone", "GMT")},
              {"elevation_m", value(u.value("elevation", json()))}}},
            {"current", current},
            {"today", today},
            {"days", days},
            {"source", "Open-Meteo (open-meteo.com), CC BY 4.0"}};
}

json rain_on(const json& u, const std::string& date) {
    const json& hourly = need(u, "hourly");
    const json& time = need(hourly, "time");
    if (!time.is_array()) throw Malformed("hourly.time: not an array");
    json chance = column(hourly, "precipitation_probability", time.size()),
         mm = column(hourly, "precipitation", time.size());
    int best = 0;
    double total = 0;
    json wet = json::array();
    for (size_t i = 0; i < time.size(); ++i) {
        const std::string t = time[i].get<std::string>();
        if (t.rfind(date, 0) != 0) continue;
        const int c = chance[i].is_number() ? chance[i].get<int>() : 0;
        const double m = mm[i].is_number() ? mm[i].get<double>() : 0;
        best = std::max(best, c);
        total += m;
        if (c >= 30 || m > 0)
            wet.push_back({{"time", t.substr(t.find('T') + 1)}, {"chance_pct", c}, {"mm", m}});
    }
    return {{"date", date},
            {"chance_pct", best},
            {"total_mm", std::round(total * 10) / 10},
            {"likely", best >= 50},
            {"wet_hours", wet}};
}

json air_from(const json& u) {
    const json& cur = need(u, "current");
    json pollen = json::object();
    for (const char* plant : {"alder", "birch", "grass", "mugwort", "olive", "ragweed"}) {
        const std::string k = std::string(plant) + "_pollen";
        if (cur.contains(k) && cur[k].is_number()) pollen[plant] = cur[k];
    }
    json out = {{"time", need(cur, "time")},
                {"aqi",
                 {{"european", value(cur.value("european_aqi", json()))},
                  {"us", value(cur.value("us_aqi", json()))}}},
                {"pm2_5", value(cur.value("pm2_5", json()))},
                {"pm10", value(cur.value("pm10", json()))},
                {"ozone", value(cur.value("ozone", json()))},
                {"nitrogen_dioxide", value(cur.value("nitrogen_dioxide", json()))},
                {"uv_index", value(cur.value("uv_index", json()))},
                {"units", "µg/m³ (pm2_5, pm10, ozone, nitrogen_dioxide), grains/m³ (pollen)"},
                {"source", "Open-Meteo air quality (CAMS), CC BY 4.0"}};
    if (!pollen.empty()) out["pollen"] = pollen;
    return out;
}

json marine_from(const json& u) {
    const json& cur = need(u, "current");
    const json& daily = need(u, "daily");
    const json& time = need(daily, "time");
    if (!time.is_array()) throw Malformed("daily.time: not an array");
    const size_t n = time.size();
    json hi = column(daily, "wave_height_max", n),
         dir = column(daily, "wave_direction_dominant", n),
         period = column(daily, "wave_period_max", n);
    bool any = false;
    json days = json::array();
    for (size_t i = 0; i < n; ++i) {
        any = any || hi[i].is_number();
        days.push_back({{"date", time[i]},
                        {"wave_height_max_m", value(hi[i])},
                        {"wave_direction_deg", value(dir[i])},
                        {"wave_period_max_s", value(period[i])}});
    }
    json current = {{"time", need(cur, "time")},
                    {"wave_height_m", value(cur.value("wave_height", json()))},
                    {"wave_direction_deg", value(cur.value("wave_direction", json()))},
                    {"wave_period_s", value(cur.value("wave_period", json()))},
                    {"sea_temperature_c", value(cur.value("sea_surface_temperature", json()))}};
    for (const auto& [k, v] : current.items()) any = any || (k != "time" && v.is_number());
    if (!any) return nullptr;
    return {{"current", current}, {"days", days}, {"source", "Open-Meteo marine, CC BY 4.0"}};
}

json history_from(const json& u) {
    const json& daily = need(u, "daily");
    const json& time = need(daily, "time");
    if (!time.is_array()) throw Malformed("daily.time: not an array");
    const size_t n = time.size();
    json hi = column(daily, "temperature_2m_max", n), lo = column(daily, "temperature_2m_min", n),
         mean = column(daily, "temperature_2m_mean", n), mm = column(daily, "precipitation_sum", n);
    size_t with = 0, with_mean = 0;
    double sum_mean = 0, rain = 0;
    int rain_days = 0;
    json high = nullptr, low = nullptr, wettest = nullptr, latest = nullptr;
    for (size_t i = 0; i < n; ++i) {
        if (!mean[i].is_number() && !hi[i].is_number() && !mm[i].is_number()) continue;
        ++with;
        latest = time[i];
        if (mean[i].is_number()) {
            sum_mean += mean[i].get<double>();
            ++with_mean;
        }
        if (hi[i].is_number() &&
            (high.is_null() || hi[i].get<double>() > high["value"].get<double>()))
            high = {{"value", hi[i]}, {"date", time[i]}};
        if (lo[i].is_number() &&
            (low.is_null() || lo[i].get<double>() < low["value"].get<double>()))
            low = {{"value", lo[i]}, {"date", time[i]}};
        if (mm[i].is_number()) {
            const double m = mm[i].get<double>();
            rain += m;
            if (m >= 1) ++rain_days;
            if (wettest.is_null() || m > wettest["mm"].get<double>())
                wettest = {{"date", time[i]}, {"mm", m}};
        }
    }
    if (with == 0) return nullptr;
    return {
        {"start", time.front()},
        {"end", time.back()},
        {"days", n},
        {"days_with_records", with},
        {"latest_record", latest},
        {"mean_c", with_mean ? json(std::round(sum_mean / static_cast<double>(with_mean) * 10) / 10)
                             : json(nullptr)},
        {"high_c", high},
        {"low_c", low},
        {"rainfall_mm", std::round(rain * 10) / 10},
        {"rain_days", rain_days},
        {"wettest", wettest},
        {"source", "Open-Meteo historical weather (ERA5), CC BY 4.0"}};
}

json place_from(const json& u) {
    if (!u.is_object()) throw Malformed("not an object");
    if (!u.contains("results")) return nullptr;
    const json& results = u.at("results");
    if (!results.is_array()) throw Malformed("results: not an array");
    if (results.empty()) return nullptr;
    const json& r = results[0];
    return {{"name", need(r, "name")},         {"country", r.value("country", "")},
            {"admin1", r.value("admin1", "")}, {"lat", need(r, "latitude")},
            {"lon", need(r, "longitude")},     {"timezone", r.value("timezone", "GMT")}};
}

}  // namespace weather
