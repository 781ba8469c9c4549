// The weather plugin's Open-Meteo parsers (plugins/weather/open_meteo.hpp), offline, on the
// fixtures in Open-Meteo's format (tests/fixtures/open-meteo*/), on empty results and on bodies
// that are not what the API sends; and the requests' query strings.
#include "open_meteo.hpp"

#include <gtest/gtest.h>

#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"

using nlohmann::json;
using platform::test::fixture_text;
using namespace weather;

namespace {

json fixture(const std::string& provider, const std::string& file) {
    return json::parse(fixture_text(provider, file));
}

TEST(OpenMeteo, ForecastReadsNowTheDaysAndTheDaylightLeft) {
    const json f = forecast_from(fixture("open-meteo", "forecast.json"));
    EXPECT_EQ(f["current"]["time"], "2026-11-29T14:15");
    EXPECT_EQ(f["current"]["conditions"], "Overcast");
    EXPECT_EQ(f["current"]["wind_direction_deg"], 232);
    ASSERT_EQ(f["days"].size(), 7u);
    EXPECT_EQ(f["days"][6]["conditions"], "Clear sky");
    EXPECT_DOUBLE_EQ(f["days"][0]["daylight_hours"].get<double>(), 8.25);
    EXPECT_EQ(f["today"]["daylight_left_minutes"], 100);
}

TEST(OpenMeteo, DaylightLeftIsTheWholeDayBeforeSunriseAndNoneAfterSunset) {
    json u = fixture("open-meteo", "forecast.json");
    u["current"]["time"] = "2026-11-29T06:00";
    EXPECT_EQ(forecast_from(u)["today"]["daylight_left_minutes"], 15 * 60 + 55 - (7 * 60 + 40));
    u["current"]["time"] = "2026-11-29T17:00";
    EXPECT_EQ(forecast_from(u)["today"]["daylight_left_minutes"], 0);
}

TEST(OpenMeteo, NullValuesStayNullAndMissingSectionsAreMalformed) {
    json u = fixture("open-meteo", "forecast.json");
    u["current"]["temperature_2m"] = nullptr;
    u["daily"]["weather_code"][2] = nullptr;
    const json f = forecast_from(u);
    EXPECT_TRUE(f["current"]["temperature_c"].is_null());
    EXPECT_TRUE(f["days"][2]["conditions"].is_null());

    json no_daily = u;
    no_daily.erase("daily");
    EXPECT_THROW(forecast_from(no_daily), common::upstream::Malformed);
    json short_column = u;
    short_column["daily"]["temperature_2m_max"].erase(0);
    EXPECT_THROW(forecast_from(short_column), common::upstream::Malformed);
    EXPECT_THROW(forecast_from(json::array()), common::upstream::Malformed);
    json wrong_type = u;
    wrong_type["daily"]["time"] = "2026-11-29";
    EXPECT_THROW(forecast_from(wrong_type), common::upstream::Malformed);
}

TEST(OpenMeteo, RainListsTheWetHoursOfOneDay) {
    const json u = fixture("open-meteo", "forecast.json");
    const json r = rain_on(u, "2026-11-30");
    EXPECT_EQ(r["chance_pct"], 85);
    EXPECT_TRUE(r["likely"].get<bool>());
    EXPECT_DOUBLE_EQ(r["total_mm"].get<double>(), 4.1);
    ASSERT_EQ(r["wet_hours"].size(), 6u);
    EXPECT_EQ(r["wet_hours"][0]["time"], "13:00");
    const json dry = rain_on(u, "2026-12-01");
    EXPECT_FALSE(dry["likely"].get<bool>());
    EXPECT_TRUE(dry["wet_hours"].empty());
    EXPECT_TRUE(rain_on(u, "2030-01-01")["wet_hours"].empty()) << "a day the answer lacks";
}

TEST(OpenMeteo, AirKeepsPollenOnlyWhereCounted) {
    const json a = air_from(fixture("open-meteo-air", "air.json"));
    EXPECT_EQ(a["aqi"]["european"], 32);
    EXPECT_EQ(a["pollen"].size(), 6u);
    const json us = air_from(fixture("open-meteo-air", "air_no_pollen.json"));
    EXPECT_FALSE(us.contains("pollen"));
    EXPECT_THROW(air_from(json::object()), common::upstream::Malformed);
}

TEST(OpenMeteo, MarineIsNullInland) {
    const json m = marine_from(fixture("open-meteo-marine", "marine.json"));
    EXPECT_EQ(m["days"].size(), 3u);
    EXPECT_EQ(m["current"]["wave_direction_deg"], 251);
    EXPECT_TRUE(marine_from(fixture("open-meteo-marine", "inland.json")).is_null());
}

TEST(OpenMeteo, HistoryCountsOnlyDaysWithRecords) {
    const json h = history_from(fixture("open-meteo-archive", "archive.json"));
    EXPECT_EQ(h["days_with_records"], 7);
    EXPECT_DOUBLE_EQ(h["high_c"]["value"].get<double>(), 14.1);
    EXPECT_DOUBLE_EQ(h["low_c"]["value"].get<double>(), 4.1);
    EXPECT_EQ(h["wettest"]["mm"], 12.8);
    const json b = history_from(fixture("open-meteo-archive", "behind.json"));
    EXPECT_EQ(b["days"], 7);
    EXPECT_EQ(b["days_with_records"], 3);
    EXPECT_EQ(b["latest_record"], "2026-11-24");
    EXPECT_TRUE(history_from(fixture("open-meteo-archive", "no_records.json")).is_null());
}

TEST(OpenMeteo, GeocodingTakesTheFirstResultOrNothing) {
    const json p = place_from(fixture("open-meteo-geocoding", "london.json"));
    EXPECT_EQ(p["name"], "London");
    EXPECT_EQ(p["admin1"], "England");
    EXPECT_DOUBLE_EQ(p["lat"].get<double>(), 51.50853);
    EXPECT_TRUE(place_from(fixture("open-meteo-geocoding", "none.json")).is_null());
    EXPECT_TRUE(place_from(json{{"results", json::array()}}).is_null());
    EXPECT_THROW(place_from(json{{"results", "London"}}), common::upstream::Malformed);
    EXPECT_THROW(place_from(json{{"results", {{{"name", "x"}}}}}), common::upstream::Malformed)
        << "a result without coordinates";
}

TEST(OpenMeteo, ConditionsNameEveryWmoCodeTheApiSends) {
    EXPECT_EQ(conditions(0), "Clear sky");
    EXPECT_EQ(conditions(65), "Heavy rain");
    EXPECT_EQ(conditions(99), "Thunderstorm with heavy hail");
    EXPECT_EQ(conditions(42), "Unknown (42)");
}

TEST(OpenMeteo, RequestsAskForWhatTheParsersRead) {
    const std::string f = forecast_path(51.5, -0.12);
    EXPECT_EQ(f.rfind("/v1/forecast?latitude=51.5&longitude=-0.12&", 0), 0u) << f;
    EXPECT_NE(f.find("timezone=auto"), std::string::npos);
    EXPECT_NE(f.find("forecast_days=7"), std::string::npos);
    EXPECT_NE(marine_path(1, 2, 5).find("forecast_days=5"), std::string::npos);
    EXPECT_NE(archive_path(1, 2, "2026-01-01", "2026-01-31")
                  .find("start_date=2026-01-01&end_date=2026-01-31"),
              std::string::npos);
    EXPECT_EQ(geocoding_path("São Paulo"),
              "/v1/search?name=S%C3%A3o%20Paulo&count=1&language=en&format=json");
}

}  // namespace
