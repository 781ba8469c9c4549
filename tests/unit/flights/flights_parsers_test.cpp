// The flights plugin's pieces (plugins/flights/): the ADS-B parser on the fixtures, empty answers
// and malformed bodies; distances, nearest first and the phases around an airport; the airport
// and airline tables; the schedule provider's parser.
#include <gtest/gtest.h>

#include "../../../plugins/flights/adsb.hpp"
#include "../../../plugins/flights/airports.hpp"
#include "../../../plugins/flights/schedule.hpp"
#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"

using common::upstream::Malformed;
using nlohmann::json;
using namespace flights;

TEST(Adsb, AircraftWithTrimmedCallsignsGroundAndRates) {
    auto all = parse_aircraft(platform::test::fixture_json("adsb", "point.json"));
    ASSERT_EQ(all.size(), 6u);
    EXPECT_EQ(all[0].hex, "4007f4");
    EXPECT_EQ(all[0].callsign, "BAW117");
    EXPECT_EQ(all[0].registration, "G-XWBA");
    EXPECT_EQ(all[0].type, "A35K");
    EXPECT_TRUE(all[0].on_ground);
    EXPECT_FALSE(all[0].altitude_ft.has_value());
    EXPECT_EQ(*all[1].altitude_ft, 2450);
    EXPECT_EQ(*all[1].vertical_rate_fpm, -768);
    EXPECT_FALSE(all[5].lat.has_value());  // Mode S only: no position
    EXPECT_EQ(all[5].callsign, "");
    json j = to_json(all[5]);
    EXPECT_TRUE(j["callsign"].is_null());
    EXPECT_TRUE(j["lat"].is_null());
}

TEST(Adsb, EmptyAndMalformed) {
    EXPECT_TRUE(parse_aircraft(platform::test::fixture_json("adsb", "empty.json")).empty());
    EXPECT_TRUE(parse_aircraft(json::parse(R"({"now":1,"total":0})")).empty());
    EXPECT_THROW(parse_aircraft(json::array()), Malformed);
    EXPECT_THROW(parse_aircraft(json::parse(R"({"error":"x"})")), Malformed);
    EXPECT_THROW(parse_aircraft(json::parse(R"({"ac":{}})")), Malformed);
    EXPECT_THROW(parse_aircraft(json::parse(R"({"ac":[{"flight":"BAW1"}]})")), Malformed);
    EXPECT_THROW(parse_aircraft(json::parse(R"({"ac":["4007f4"]})")), Malformed);
}

TEST(Adsb, NearestFirstWithinTheRadiusAndThePhases) {
    auto all = parse_aircraft(platform::test::fixture_json("adsb", "point.json"));
    auto near = nearest(all, 51.4700, -0.4543, 10);
    ASSERT_EQ(near.size(), 4u);  // the one 15 nm away and the one without a position are out
    EXPECT_EQ(near[0].hex, "4007f4");
    EXPECT_EQ(near[1].hex, "406b2f");
    EXPECT_EQ(near[2].hex, "4ca7b5");
    EXPECT_EQ(near[3].hex, "3c6752");
    for (size_t i = 1; i < near.size(); ++i)
        EXPECT_LE(*near[i - 1].distance_nm, *near[i].distance_nm);
    EXPECT_EQ(phase(near[0]), "ground");
    EXPECT_EQ(phase(near[1]), "approach");
    EXPECT_EQ(phase(near[2]), "climb_out");
    EXPECT_EQ(phase(near[3]), "level");
    EXPECT_EQ(nearest(all, 51.4700, -0.4543, 30).size(), 5u);
    Aircraft slow;
    slow.speed_kt = 20;
    slow.altitude_ft = 300;
    EXPECT_EQ(phase(slow), "ground");  // under 50 knots
}

TEST(Adsb, DistanceInNauticalMiles) {
    // Heathrow to Gatwick: about 22 nm.
    EXPECT_NEAR(distance_nm(51.4700, -0.4543, 51.1537, -0.1821), 21.8, 0.5);
    EXPECT_NEAR(distance_nm(0, 0, 1, 0), 60.0, 0.1);  // a minute of latitude is a mile
}

TEST(Airports, CodesNamesAndCities) {
    EXPECT_EQ(std::string(find_airport("lhr")->icao), "EGLL");
    EXPECT_EQ(std::string(find_airport("EGKK")->iata), "LGW");
    EXPECT_EQ(std::string(find_airport("heathrow")->iata), "LHR");
    EXPECT_EQ(std::string(find_airport("Tokyo")->iata), "HND");
    EXPECT_FALSE(find_airport("Atlantis").has_value());
    EXPECT_FALSE(find_airport("").has_value());
    EXPECT_GE(airport_count(), 60u);
    EXPECT_EQ(icao_airline("ba"), "BAW");
    EXPECT_EQ(icao_airline("U2"), "EZY");
    EXPECT_EQ(icao_airline("ZZ"), "");
}

TEST(Schedule, FlightsWithTheirTimes) {
    json f = parse_schedule(platform::test::fixture_json("flight-status", "flights.json"));
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0]["flight"], "BA117");
    EXPECT_EQ(f[0]["airline"], "British Airways");
    EXPECT_EQ(f[0]["status"], "active");
    EXPECT_EQ(f[0]["departure"]["iata"], "LHR");
    EXPECT_EQ(f[0]["departure"]["actual"], "2026-11-29T20:43:00+00:00");
    EXPECT_EQ(f[0]["departure"]["delay_min"], 18);
    EXPECT_EQ(f[0]["arrival"]["estimated"], "2026-11-29T23:21:00+00:00");
    EXPECT_TRUE(f[0]["arrival"]["actual"].is_null());
}

TEST(Schedule, EmptyAndMalformed) {
    EXPECT_TRUE(
        parse_schedule(platform::test::fixture_json("flight-status", "empty.json")).empty());
    EXPECT_THROW(parse_schedule(json::array()), Malformed);
    try {
        parse_schedule(json::parse(
            R"({"error":{"code":"invalid_access_key","message":"You have not supplied a valid API Access Key."}})"));
        FAIL();
    } catch (const Malformed& e) {
        EXPECT_NE(std::string(e.what()).find("valid API Access Key"), std::string::npos);
    }
    EXPECT_THROW(parse_schedule(json::parse(R"({"data":[1]})")), Malformed);
    json partial = parse_schedule(json::parse(R"({"data":[{"flight":null,"departure":null}]})"));
    EXPECT_TRUE(partial[0]["flight"].is_null());
    EXPECT_TRUE(partial[0]["departure"]["scheduled"].is_null());
}
