// model-builtin's phrasings for the external-data services (outside_rules.hpp, outside_replies.hpp):
// the weather of a place in one call, the next prayer and earthquakes near a place in two
// (places_geocode, then the service at the place's coordinates), refusals when either tool is not
// listed, and the text made from each answer.
#include <gtest/gtest.h>

#include "clocks.hpp"
#include "conversation.hpp"
#include "outside_replies.hpp"
#include "router.hpp"

namespace {

using builtin::route;
using builtin::Routed;
using builtin_test::paris;
using nlohmann::json;

const std::set<std::string> kTools = {"weather_lookup", "places_geocode", "prayer_times",
                                      "hazards_quakes"};

json call_of(const std::string& request, const std::set<std::string>& tools = kTools) {
    const Routed r = route(request, tools, paris());
    EXPECT_TRUE(r.refused.empty()) << request << " refused " << r.refused;
    EXPECT_EQ(r.calls.size(), 1u) << request;
    if (r.calls.size() != 1) return nullptr;
    return {{"name", r.calls[0].name}, {"arguments", r.calls[0].arguments}};
}

TEST(ModelBuiltinOutside, WeatherInAPlaceOnADay) {
    EXPECT_EQ(call_of("weather in London tomorrow"),
              json({{"name", "weather_lookup"},
                    {"arguments", {{"place", "London"}, {"day", "tomorrow"}}}}));
    EXPECT_EQ(call_of("What's the weather like in Leeds today?")["arguments"],
              json({{"place", "Leeds"}, {"day", "today"}}));
    EXPECT_EQ(call_of("what will the weather be like tomorrow in New York")["arguments"],
              json({{"place", "New York"}, {"day", "tomorrow"}}));
    EXPECT_EQ(call_of("weather")["arguments"], json::object()) << "the service's default place";
    EXPECT_EQ(call_of("will it rain tomorrow in Leeds")["arguments"],
              json({{"place", "Leeds"}, {"day", "tomorrow"}, {"focus", "rain"}}));
    EXPECT_EQ(call_of("do I need an umbrella")["arguments"],
              json({{"day", "today"}, {"focus", "rain"}}));
}

TEST(ModelBuiltinOutside, PrayerAndQuakesNearAPlaceGeocodeFirst) {
    const Routed prayer = route("when is the next prayer in Leeds", kTools, paris());
    ASSERT_EQ(prayer.calls.size(), 1u);
    EXPECT_EQ(prayer.calls[0].name, "places_geocode");
    EXPECT_EQ(prayer.calls[0].arguments, json({{"address", "Leeds"}}));
    EXPECT_EQ(prayer.then, "prayer_times");
    EXPECT_EQ(route("prayer times in Jakarta", kTools, paris()).then, "prayer_times");

    const Routed quakes = route("earthquakes near Tokyo", kTools, paris());
    ASSERT_EQ(quakes.calls.size(), 1u);
    EXPECT_EQ(quakes.calls[0].arguments, json({{"address", "Tokyo"}}));
    EXPECT_EQ(quakes.then, "hazards_quakes");
    EXPECT_EQ(call_of("any recent earthquakes"),
              json({{"name", "hazards_quakes"}, {"arguments", json::object()}}));

    std::set<std::string> no_prayer = kTools;
    no_prayer.erase("prayer_times");
    EXPECT_EQ(route("next prayer in Leeds", no_prayer, paris()).refused, "prayer");
    std::set<std::string> no_places = kTools;
    no_places.erase("places_geocode");
    EXPECT_EQ(route("next prayer in Leeds", no_places, paris()).refused, "places");
}

TEST(ModelBuiltinOutside, TheSecondStepTakesThePlacesCoordinatesAndTheAccountsZone) {
    const json tools = {{{"name", "places_geocode"}}, {{"name", "prayer_times"}}};
    json messages = {{{"role", "user"}, {"content", "next prayer in Leeds"}}};
    const json context = {{"now", "2026-11-25T10:00:00+00:00"}, {"timezone", "Europe/London"}};
    json first =
        builtin::respond({{"messages", messages}, {"tools", tools}, {"context", context}}, 0);
    ASSERT_EQ(first["tool_calls"].size(), 1u) << first.dump();
    EXPECT_EQ(first["tool_calls"][0]["name"], "places_geocode");
    messages.push_back(
        {{"role", "assistant"}, {"content", ""}, {"tool_calls", first["tool_calls"]}});
    messages.push_back(
        {{"role", "tool"},
         {"tool_call_id", first["tool_calls"][0]["id"]},
         {"content",
          json({{"results", {{{"name", "Leeds"}, {"lat", 53.7975}, {"lon", -1.5438}}}}}).dump()}});
    json second =
        builtin::respond({{"messages", messages}, {"tools", tools}, {"context", context}}, 0);
    ASSERT_EQ(second["tool_calls"].size(), 1u) << second.dump();
    EXPECT_EQ(second["tool_calls"][0]["name"], "prayer_times");
    EXPECT_EQ(second["tool_calls"][0]["arguments"],
              json({{"lat", 53.7975}, {"lon", -1.5438}, {"tz", "Europe/London"}}));
    EXPECT_NE(second["tool_calls"][0]["id"], first["tool_calls"][0]["id"]);

    // The answer of the second call is put in words, not called again.
    messages.push_back(
        {{"role", "assistant"}, {"content", ""}, {"tool_calls", second["tool_calls"]}});
    messages.push_back({{"role", "tool"},
                        {"tool_call_id", second["tool_calls"][0]["id"]},
                        {"content", json({{"times",
                                           {{"fajr", "06:19"},
                                            {"sunrise", "07:58"},
                                            {"dhuhr", "11:55"},
                                            {"asr", "13:36"},
                                            {"maghrib", "15:48"},
                                            {"isha", "17:24"}}},
                                          {"next", {{"name", "dhuhr"}, {"time", "11:55"}}}})
                                        .dump()}});
    json third =
        builtin::respond({{"messages", messages}, {"tools", tools}, {"context", context}}, 0);
    EXPECT_TRUE(third["tool_calls"].empty());
    EXPECT_EQ(third["text"],
              "Next prayer: Dhuhr at 11:55.\nToday: Fajr 06:19, Sunrise 07:58, "
              "Dhuhr 11:55, Asr 13:36, Maghrib 15:48, Isha 17:24.");
}

TEST(ModelBuiltinOutside, AGeocodeWithoutAPlaceOrAFailureEndsInWords) {
    const json tools = {{{"name", "places_geocode"}}, {{"name", "hazards_quakes"}}};
    json messages = {{{"role", "user"}, {"content", "earthquakes near Atlantis"}},
                     {{"role", "assistant"},
                      {"content", ""},
                      {"tool_calls",
                       {{{"id", "call_1"},
                         {"name", "places_geocode"},
                         {"arguments", {{"address", "Atlantis"}}}}}}},
                     {{"role", "tool"},
                      {"tool_call_id", "call_1"},
                      {"is_error", true},
                      {"content",
                       "{\"error\":{\"code\":\"not_found\",\"message\":\"address: no place called "
                       "'Atlantis'\"}}"}}};
    json r = builtin::respond({{"messages", messages}, {"tools", tools}}, 0);
    EXPECT_TRUE(r["tool_calls"].empty());
    EXPECT_NE(r["text"].get<std::string>().find("Atlantis"), std::string::npos) << r.dump();
    messages[2] = {{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "{\"results\":[]}"}};
    r = builtin::respond({{"messages", messages}, {"tools", tools}}, 0);
    EXPECT_TRUE(r["tool_calls"].empty()) << "no coordinates: no second call";
}

TEST(ModelBuiltinOutside, RepliesSayWhatTheServiceSaid) {
    const json day = {
        {"place", {{"name", "London"}}},
        {"day",
         {{"date", "2026-11-30"},
          {"conditions", "Moderate rain"},
          {"low_c", 6.8},
          {"high_c", 10.2},
          {"precipitation_chance_pct", 85}}},
        {"rain",
         {{"likely", true},
          {"total_mm", 4.1},
          {"chance_pct", 85},
          {"wet_hours",
           {{{"time", "13:00"}, {"chance_pct", 55}}, {{"time", "15:00"}, {"chance_pct", 85}}}}}}};
    EXPECT_EQ(builtin::weather_text(day, {{"day", "tomorrow"}}, paris()),
              "London tomorrow (2026-11-30): Moderate rain, 6.8 to 10.2 °C, 85% chance of rain.\n"
              "Rain is likely: 4.1 mm, the likeliest hour 15:00 (85%).");
    const json quakes = {{"quakes",
                          {{{"magnitude", 5.1},
                            {"place", "20 km SW of Tokyo"},
                            {"time", "2026-11-29T03:12:00Z"},
                            {"distance_km", 84}}}}};
    EXPECT_EQ(builtin::quakes_text(quakes, json::object(), paris()),
              "1 earthquake:\n- M5.1, 20 km SW of Tokyo, 2026-11-29T03:12:00Z (84 km away)");
    EXPECT_EQ(builtin::quakes_text({{"quakes", json::array()}}, json::object(), paris()),
              "No earthquakes were reported.");
}

}  // namespace
