// The hazards plugin's parsers (plugins/hazards/parsers.hpp) on the fixtures in
// tests/fixtures/{usgs,gdacs,ea-floods}/ (the feeds' documented formats), on empty feeds and on
// bodies that are not the feed: what each answer holds, its filters and its order.
#include "../../../plugins/hazards/parsers.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"

namespace {

using common::upstream::Malformed;
using hazards::Near;
using nlohmann::json;

using platform::test::fixture_json;

std::vector<std::string> field(const json& list, const char* name) {
    std::vector<std::string> out;
    for (const auto& item : list) out.push_back(item.at(name).get<std::string>());
    return out;
}

const Near kTokyo{35.68, 139.69, 500};

TEST(HazardsQuakes, TheFeedIsTheLargestThresholdNotAboveMin) {
    EXPECT_EQ(hazards::quake_feed_level(-1), "all");
    EXPECT_EQ(hazards::quake_feed_level(0.99), "all");
    EXPECT_EQ(hazards::quake_feed_level(1.0), "1.0");
    EXPECT_EQ(hazards::quake_feed_level(2.49), "1.0");
    EXPECT_EQ(hazards::quake_feed_level(2.5), "2.5");
    EXPECT_EQ(hazards::quake_feed_level(4.4), "2.5");
    EXPECT_EQ(hazards::quake_feed_level(4.5), "4.5");
    EXPECT_EQ(hazards::quake_feed_level(9), "4.5");
}

TEST(HazardsQuakes, EveryQuakeNewestFirstWithoutAPoint) {
    const json a = hazards::quakes_from(fixture_json("usgs", "2.5_day.geojson"), 2.5, std::nullopt);
    EXPECT_EQ(a["count"], 5);
    EXPECT_EQ(a["listed"], 5);
    EXPECT_EQ(field(a["quakes"], "id"),
              (std::vector<std::string>{"ak0266abcd", "us7000q1c3", "us7000q1a2", "us7000q1b7",
                                        "hv74510123"}));
    const json& q = a["quakes"][0];
    EXPECT_EQ(q["magnitude"], 2.7);
    EXPECT_EQ(q["magnitude_type"], "ml");
    EXPECT_EQ(q["place"], "42 km SW of Tyonek, Alaska");
    EXPECT_EQ(q["time"], "2026-11-29T08:41:02Z");
    EXPECT_EQ(q["lat"], 60.8);
    EXPECT_EQ(q["lon"], -151.62);
    EXPECT_EQ(q["depth_km"], 72.4);
    EXPECT_EQ(q["tsunami"], false);
    EXPECT_EQ(q["url"], "https://earthquake.usgs.gov/earthquakes/eventpage/ak0266abcd");
    EXPECT_FALSE(q.contains("distance_km"));
}

TEST(HazardsQuakes, MinFiltersByMagnitude) {
    const json a = hazards::quakes_from(fixture_json("usgs", "2.5_day.geojson"), 4.5, std::nullopt);
    EXPECT_EQ(field(a["quakes"], "id"), (std::vector<std::string>{"us7000q1a2", "us7000q1b7"}));
    EXPECT_EQ(
        hazards::quakes_from(fixture_json("usgs", "2.5_day.geojson"), 7, std::nullopt)["count"], 0);
}

TEST(HazardsQuakes, WithAPointOnlyThoseWithinNearestFirst) {
    const json a = hazards::quakes_from(fixture_json("usgs", "2.5_day.geojson"), 2.5, kTokyo);
    ASSERT_EQ(a["count"], 2);
    EXPECT_EQ(field(a["quakes"], "id"), (std::vector<std::string>{"us7000q1a2", "us7000q1b7"}));
    const double d = a["quakes"][0]["distance_km"];
    EXPECT_NEAR(d, 287.3, 1.0);  // Tokyo to (33.1, 139.8)
    EXPECT_LT(d, a["quakes"][1]["distance_km"].get<double>());
    EXPECT_EQ(hazards::quakes_from(fixture_json("usgs", "2.5_day.geojson"), 2.5,
                                   Near{35.68, 139.69, 200})["count"],
              0);
}

TEST(HazardsQuakes, AnEmptyFeedIsNoQuakes) {
    const json a = hazards::quakes_from(fixture_json("usgs", "empty.geojson"), 2.5, std::nullopt);
    EXPECT_EQ(a, (json{{"quakes", json::array()}, {"count", 0}, {"listed", 0}}));
}

TEST(HazardsQuakes, AQuakeWithoutMagnitudeIsSkippedAMalformedFeedThrows) {
    json feed = fixture_json("usgs", "2.5_day.geojson");
    feed["features"][0]["properties"]["mag"] = nullptr;
    EXPECT_EQ(hazards::quakes_from(feed, 2.5, std::nullopt)["count"], 4);
    EXPECT_THROW(hazards::quakes_from(json::array(), 2.5, std::nullopt), Malformed);
    EXPECT_THROW(hazards::quakes_from({{"type", "Feature"}}, 2.5, std::nullopt), Malformed);
    EXPECT_THROW(
        hazards::quakes_from({{"type", "FeatureCollection"}, {"features", 3}}, 2.5, std::nullopt),
        Malformed);
    EXPECT_ANY_THROW(hazards::quakes_from(
        {{"type", "FeatureCollection"}, {"features", {{{"type", "Feature"}}}}}, 2.5, std::nullopt));
}

TEST(HazardsAlerts, GreenIsEveryAlertRedFirstThenNewest) {
    const json a = hazards::alerts_from(fixture_json("gdacs", "EVENTS4APP.json"), 1, std::nullopt);
    EXPECT_EQ(a["count"], 5);
    EXPECT_EQ(field(a["alerts"], "id"),
              (std::vector<std::string>{"TC-1001187", "EQ-1453098", "EQ-1453120", "VO-300260",
                                        "FL-1102855"}));
    const json& tc = a["alerts"][0];
    EXPECT_EQ(tc["type"], "tropical cyclone");
    EXPECT_EQ(tc["type_code"], "TC");
    EXPECT_EQ(tc["level"], "red");
    EXPECT_EQ(tc["name"], "MAN-YI-26");
    EXPECT_EQ(tc["country"], "Philippines");
    EXPECT_EQ(tc["from"], "2026-11-27T00:00:00Z");
    EXPECT_EQ(tc["to"], "2026-11-29T06:00:00Z");
    EXPECT_EQ(tc["lat"], 14.1);
    EXPECT_EQ(tc["lon"], 125.4);
    EXPECT_EQ(tc["severity"]["value"], 213.0);
    EXPECT_EQ(tc["severity"]["unit"], "km/h");
    EXPECT_EQ(tc["url"],
              "https://www.gdacs.org/report.aspx?eventid=1001187&episodeid=14&eventtype=TC");
    EXPECT_EQ(a["alerts"][4]["severity"]["text"], "Magnitude 0");
}

TEST(HazardsAlerts, LevelIsTheLowestListed) {
    const json list = fixture_json("gdacs", "EVENTS4APP.json");
    EXPECT_EQ(field(hazards::alerts_from(list, 2, std::nullopt)["alerts"], "level"),
              (std::vector<std::string>{"red", "orange"}));
    EXPECT_EQ(field(hazards::alerts_from(list, 3, std::nullopt)["alerts"], "level"),
              (std::vector<std::string>{"red"}));
    EXPECT_EQ(hazards::alert_rank("Orange"), 2);
    EXPECT_EQ(hazards::alert_rank("purple"), 0);
}

TEST(HazardsAlerts, WithAPointOnlyThoseWithin) {
    const json list = fixture_json("gdacs", "EVENTS4APP.json");
    const json a = hazards::alerts_from(list, 1, Near{35.68, 139.69, 1000});
    EXPECT_EQ(field(a["alerts"], "id"), (std::vector<std::string>{"EQ-1453120"}));
    EXPECT_NEAR(a["alerts"][0]["distance_km"].get<double>(), 287.3, 1.0);
    EXPECT_EQ(hazards::alerts_from(list, 1, Near{35.68, 139.69, 3500})["count"], 2);
}

TEST(HazardsAlerts, AnEmptyListIsNoAlertsAMalformedOneThrows) {
    EXPECT_EQ(hazards::alerts_from(fixture_json("gdacs", "empty.json"), 1, std::nullopt)["count"],
              0);
    EXPECT_THROW(hazards::alerts_from(json::object(), 1, std::nullopt), Malformed);
    EXPECT_THROW(hazards::alerts_from({{"features", {1}}}, 1, std::nullopt), Malformed);
}

TEST(HazardsFloods, MostSevereFirstThenLatestChange) {
    const json a = hazards::floods_from(fixture_json("ea-floods", "floods.json"), false);
    EXPECT_EQ(a["count"], 5);
    EXPECT_EQ(field(a["floods"], "id"),
              (std::vector<std::string>{"113FWFCOCKERM01", "113FWFDERWENT02", "061WAF23Cherwell",
                                        "112WACTCEN", "034WAF412"}));
    const json& f = a["floods"][0];
    EXPECT_EQ(f["area"], "River Cocker at Cockermouth");
    EXPECT_EQ(f["region"], "Cumbria and Lancashire");
    EXPECT_EQ(f["county"], "Cumbria");
    EXPECT_EQ(f["river_or_sea"], "River Cocker");
    EXPECT_EQ(f["severity"], "Severe Flood Warning");
    EXPECT_EQ(f["severity_level"], 1);
    EXPECT_EQ(f["in_force"], true);
    EXPECT_EQ(f["tidal"], false);
    EXPECT_EQ(f["raised"], "2026-11-29T08:05:44Z");
    EXPECT_EQ(f["url"],
              "http://environment.data.gov.uk/flood-monitoring/id/floods/113FWFCOCKERM01");
    EXPECT_EQ(a["floods"][4]["in_force"], false);
    // Trailing spaces of the EA's messages go.
    EXPECT_EQ(a["floods"][3]["message"].get<std::string>().back(), '.');
}

TEST(HazardsFloods, SevereIsLevelOneOnly) {
    const json a = hazards::floods_from(fixture_json("ea-floods", "floods.json"), true);
    EXPECT_EQ(field(a["floods"], "id"), (std::vector<std::string>{"113FWFCOCKERM01"}));
}

TEST(HazardsFloods, NoWarningsIsEmptyAMalformedBodyThrows) {
    EXPECT_EQ(hazards::floods_from(fixture_json("ea-floods", "empty.json"), false),
              (json{{"floods", json::array()}, {"count", 0}}));
    EXPECT_THROW(hazards::floods_from({{"items", "none"}}, false), Malformed);
    EXPECT_THROW(hazards::floods_from({{"items", {{{"severity", "Flood Alert"}}}}}, false),
                 Malformed);
}

TEST(HazardsTimes, AFeedTimeWithoutOffsetIsUtc) {
    EXPECT_EQ(hazards::utc_time("2026-11-29T06:00:00"), "2026-11-29T06:00:00Z");
    EXPECT_EQ(hazards::utc_time("2026-11-29T06:00:00Z"), "2026-11-29T06:00:00Z");
    EXPECT_EQ(hazards::utc_time("2026-11-29T06:00:00+01:00"), "2026-11-29T06:00:00+01:00");
    EXPECT_EQ(hazards::utc_time(""), json());
    EXPECT_EQ(hazards::utc_time(3), json());
}

}  // namespace
