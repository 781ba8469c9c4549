#include "weather.hpp"

#include "common/time/civil.hpp"
#include "open_meteo.hpp"

namespace schema = platform::schema;

using common::upstream::Provider;
using platform::json;

namespace {

constexpr int64_t kMinute = 60 * 1000;
constexpr int64_t kDay = 24 * 60 * kMinute;

const Provider kForecast{"open-meteo", "Open-Meteo", "https://api.open-meteo.com", 15 * kMinute};
const Provider kAir{"open-meteo-air", "Open-Meteo air quality",
                    "https://air-quality-api.open-meteo.com", 30 * kMinute};
const Provider kMarine{"open-meteo-marine", "Open-Meteo marine",
                       "https://marine-api.open-meteo.com", 60 * kMinute};
const Provider kArchive{"open-meteo-archive", "Open-Meteo historical weather",
                        "https://archive-api.open-meteo.com", kDay};
const Provider kGeocoding{"open-meteo-geocoding", "Open-Meteo geocoding",
                          "https://geocoding-api.open-meteo.com", 7 * kDay};

// ERA5, the archive's reanalysis, begins in 1940; one call covers at most a year and a day.
constexpr const char* kFirstRecord = "1940-01-01";
constexpr int64_t kMaxHistoryDays = 366;

schema::Object point() {
    return schema::object()
        .prop("lat", schema::latitude("Latitude in degrees (-90 to 90)"))
        .required()
        .prop("lon", schema::longitude("Longitude in degrees (-180 to 180)"))
        .required();
}

// Day number of a YYYY-MM-DD `arg` (the schema checked its shape); 400 for a date that does not
// exist (2026-02-30).
int64_t day_of(const std::string& name, const std::string& text) {
    const int y = std::stoi(text.substr(0, 4)), m = std::stoi(text.substr(5, 2)),
              d = std::stoi(text.substr(8, 2));
    const int64_t n = common::time::days_from_civil(y, m, d);
    const auto back = common::time::civil_from_days(n);
    if (back.year != y || back.month != m || back.day != d)
        throw platform::invalid_argument(name + ": " + text + " is not a date");
    return n;
}

std::string date_of(int64_t days) {
    const auto c = common::time::civil_from_days(days);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", c.year, c.month, c.day);
    return buf;
}

}  // namespace

void Weather::describe(platform::ServiceSpec<Weather>& s) {
    s.id("weather")
        .version("1.0.0")
        .service("v1.weather")
        .summary("Weather forecasts, air quality, the sea and past weather from Open-Meteo");
    s.get("forecast")
        .title("Weather forecast")
        .description(
            "Current conditions, today's sunrise, sunset and daylight left, and seven days ahead "
            "for a point, in its local time: {place, current: {time, temperature_c, feels_like_c, "
            "humidity_pct, precipitation_mm, wind_kmh, wind_direction_deg, conditions, is_day}, "
            "today: {sunrise, sunset, daylight_left_minutes}, days: [{date, conditions, high_c, "
            "low_c, precipitation_mm, precipitation_chance_pct, sunrise, sunset, "
            "daylight_hours}], source}.")
        .schema(point())
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Weather::forecast);
    s.get("air")
        .title("Air quality")
        .description(
            "Air quality now at a point: {time, aqi: {european, us}, pm2_5, pm10, ozone, "
            "nitrogen_dioxide, uv_index, pollen: {alder, birch, grass, mugwort, olive, ragweed} "
            "where counted (Europe), units, source}.")
        .schema(point())
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Weather::air);
    s.get("marine")
        .title("Marine forecast")
        .description(
            "Waves and sea temperature at a point at sea: {current: {time, wave_height_m, "
            "wave_direction_deg, wave_period_s, sea_temperature_c}, days: [{date, "
            "wave_height_max_m, wave_direction_deg, wave_period_max_s}], source}; 404 for a "
            "point with no sea data (inland).")
        .schema(point().integer("days").range(1, 7).def(3).doc("Days ahead, 1 to 7 (default 3)"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Weather::marine);
    s.get("history")
        .title("Past weather")
        .description(
            "Averages, rainfall and extremes between two dates (at most 366 days, from "
            "1940-01-01): {start, end, days, days_with_records, latest_record, mean_c, high_c: "
            "{value, date}, low_c, rainfall_mm, rain_days, wettest: {date, mm}, source}. Records "
            "run a few days behind: recent days without one are left out (latest_record says "
            "which is the last), and 404 when none has one yet.")
        .schema(point()
                    .str("start")
                    .pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
                    .required()
                    .doc("First day, YYYY-MM-DD")
                    .str("end")
                    .pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
                    .required()
                    .doc("Last day, YYYY-MM-DD (not after today, UTC)"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Weather::history);
    s.get("lookup")
        .title("Weather for a place")
        .description(
            "The weather for a place by name: the multi-day forecast, or one day (`day`: today "
            "or tomorrow, in the place's time), and with focus=rain the hours rain is likely. "
            "{place: {name, country, admin1, lat, lon, timezone}, current, days | day, rain?, "
            "source}; 404 when no place has the name.")
        .schema(schema::object()
                    .str("place")
                    .min_len(1)
                    .max_len(200)
                    .def("London")
                    .doc("A place name (default London)")
                    .str("day")
                    .one_of({"", "today", "tomorrow"})
                    .def("")
                    .doc("today or tomorrow; empty gives the multi-day forecast")
                    .str("focus")
                    .one_of({"", "rain"})
                    .def("")
                    .doc("rain: the hours rain is likely, and how much"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Weather::lookup);
}

json Weather::forecast(platform::Request& r) {
    auto up = upstream(kForecast);
    const json body = up.get_json(weather::forecast_path(r.args()["lat"], r.args()["lon"]));
    return up.parse(body, weather::forecast_from);
}

json Weather::air(platform::Request& r) {
    auto up = upstream(kAir);
    const json body = up.get_json(weather::air_path(r.args()["lat"], r.args()["lon"]));
    return up.parse(body, weather::air_from);
}

json Weather::marine(platform::Request& r) {
    auto up = upstream(kMarine);
    const double lat = r.args()["lat"], lon = r.args()["lon"];
    const json body = up.get_json(weather::marine_path(lat, lon, r.args()["days"].get<int>()));
    json out = up.parse(body, weather::marine_from);
    if (out.is_null())
        throw platform::not_found("lat, lon: no sea data at " + std::to_string(lat) + ", " +
                                  std::to_string(lon) + " (a point inland?)");
    return out;
}

json Weather::history(platform::Request& r) {
    const std::string start = r.str("start"), end = r.str("end");
    const int64_t first = day_of("start", start), last = day_of("end", end);
    const int64_t today = host_.now_ms() / kDay;
    if (first < day_of("start", kFirstRecord))
        throw platform::invalid_argument("start: records begin on " + std::string(kFirstRecord));
    if (last < first) throw platform::invalid_argument("end: before start");
    if (last > today)
        throw platform::invalid_argument("end: after today (" + date_of(today) + ", UTC)");
    if (last - first + 1 > kMaxHistoryDays)
        throw platform::invalid_argument("end: at most " + std::to_string(kMaxHistoryDays) +
                                         " days after start, counting both");
    auto up = upstream(kArchive);
    const json body =
        up.get_json(weather::archive_path(r.args()["lat"], r.args()["lon"], start, end));
    json out = up.parse(body, weather::history_from);
    if (out.is_null())
        throw platform::not_found("start, end: no records yet between " + start + " and " + end +
                                  "; records run a few days behind");
    return out;
}

json Weather::lookup(platform::Request& r) {
    const std::string name = r.str("place", "London"), day = r.str("day"), focus = r.str("focus");
    auto geo = upstream(kGeocoding);
    const json found = geo.parse(geo.get_json(weather::geocoding_path(name)), weather::place_from);
    if (found.is_null()) throw platform::not_found("place: no place called '" + name + "'");
    auto up = upstream(kForecast);
    const json body = up.get_json(weather::forecast_path(found["lat"], found["lon"]));
    json f = up.parse(body, weather::forecast_from);
    json out = {{"place", found}, {"current", f["current"]}, {"source", f["source"]}};
    const size_t index = day == "tomorrow" ? 1 : 0;
    if (!day.empty()) {
        if (f["days"].size() <= index) throw up.malformed("daily: fewer days than asked for");
        out["day"] = f["days"][index];
        if (day == "tomorrow") out.erase("current");
    } else {
        out["today"] = f["today"];
        out["days"] = f["days"];
    }
    if (focus == "rain") {
        if (f["days"].size() <= index) throw up.malformed("daily: fewer days than asked for");
        const std::string date = f["days"][index]["date"];
        out["rain"] = up.parse(body, [&](const json& j) { return weather::rain_on(j, date); });
    }
    return out;
}

PLATFORM_SERVICE(Weather)
