// The places plugin's readers of Nominatim, Overpass and Open-Meteo answers, on the fixtures of
// tests/fixtures/<provider>/ (their real formats), on empty answers and on malformed bodies.
#include <gtest/gtest.h>

#include <cmath>
#include <common/upstream/upstream.hpp>

#include "../../../plugins/places/elevation.hpp"
#include "../../../plugins/places/nominatim.hpp"
#include "../../../plugins/places/overpass.hpp"
#include "fixtures.hpp"

using common::upstream::Malformed;
using nlohmann::json;
using namespace places;

namespace {
json fx(const std::string& provider, const std::string& file) {
    return platform::test::fixture_json(provider, file);
}
}  // namespace

TEST(Nominatim, SearchReadsEveryPlace) {
    const json found = parse_search(fx("nominatim", "search.json"));
    ASSERT_EQ(found.size(), 2u);
    const json& p = found[0];
    EXPECT_EQ(p["name"], "10 Downing Street");
    EXPECT_DOUBLE_EQ(p["lat"].get<double>(), 51.5033635);
    EXPECT_DOUBLE_EQ(p["lon"].get<double>(), -0.1276248);
    EXPECT_EQ(p["category"], "tourism");
    EXPECT_EQ(p["type"], "attraction");
    EXPECT_EQ(p["osm"], "way/1879842");
    EXPECT_EQ(p["address"]["postcode"], "SW1A 2AA");
    EXPECT_DOUBLE_EQ(p["bbox"]["south"].get<double>(), 51.5032181);
    EXPECT_DOUBLE_EQ(p["bbox"]["east"].get<double>(), -0.1273699);
    EXPECT_NEAR(p["importance"].get<double>(), 0.6193, 1e-4);
    EXPECT_EQ(found[1]["type"], "residential");
}

TEST(Nominatim, SearchWithNothingIsEmpty) {
    EXPECT_TRUE(parse_search(fx("nominatim", "search_empty.json")).empty());
}

TEST(Nominatim, MalformedSearchesAreRefused) {
    EXPECT_THROW(parse_search(json::object()), Malformed);
    EXPECT_THROW(parse_search(json::array({json{{"lat", "51.5"}, {"lon", "0"}}})), Malformed);
    EXPECT_THROW(parse_search(json::array({json{{"display_name", "x"}, {"lon", "0"}}})), Malformed);
    EXPECT_THROW(
        parse_search(json::array({json{{"display_name", "x"}, {"lat", "north"}, {"lon", "0"}}})),
        Malformed);
    EXPECT_THROW(parse_search(json::array({42})), Malformed);
}

TEST(Nominatim, ReverseReadsThePlaceOrNothing) {
    auto p = parse_reverse(fx("nominatim", "reverse.json"));
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ((*p)["address"]["road"], "Downing Street");
    EXPECT_FALSE(parse_reverse(fx("nominatim", "reverse_none.json")).has_value());
    EXPECT_THROW(parse_reverse(json::array()), Malformed);
    EXPECT_THROW(parse_reverse(json{{"error", {{"code", 400}}}}), Malformed);
    EXPECT_THROW(parse_reverse(json{{"place_id", 1}}), Malformed);
}

TEST(Nominatim, PathsCarryTheQueryAndTheViewbox) {
    EXPECT_EQ(search_path("10 Downing St", 5),
              "/search?q=10%20Downing%20St&format=jsonv2&addressdetails=1&limit=5");
    // 1112 m is 0.01 degrees of latitude; at the equator of longitude too.
    const std::string p = search_path("cafe", 20, Point{0, 10}, 1111.95);
    EXPECT_NE(p.find("&viewbox=9.990000%2C0.010000%2C10.010000%2C-0.010000&bounded=1"),
              std::string::npos)
        << p;
    EXPECT_EQ(reverse_path({51.5, -0.12}),
              "/reverse?lat=51.5&lon=-0.12&format=jsonv2&addressdetails=1");
}

TEST(Nominatim, DistancesAreGreatCircle) {
    EXPECT_DOUBLE_EQ(distance_m({51.5, -0.12}, {51.5, -0.12}), 0.0);
    // One degree of latitude: 111195 m on the mean sphere.
    EXPECT_NEAR(distance_m({0, 0}, {1, 0}), 111195.1, 0.1);
    // London to Edinburgh, about 534 km.
    EXPECT_NEAR(distance_m({51.5074, -0.1278}, {55.9533, -3.1883}), 534000, 2000);
}

TEST(Overpass, ElementsBecomePoints) {
    const auto points = parse_elements(fx("overpass", "nearby.json"));
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[0]["name"], "Whitehall Coffee");
    EXPECT_EQ(points[0]["category"], "amenity");
    EXPECT_EQ(points[0]["type"], "cafe");
    EXPECT_EQ(points[0]["osm"], "node/2012345678");
    EXPECT_EQ(points[0]["address"], "46 Whitehall, London SW1A 2BZ");
    EXPECT_EQ(points[0]["opening_hours"], "Mo-Fr 07:00-18:00; Sa 09:00-17:00; Su off");
    EXPECT_EQ(points[0]["cuisine"], "coffee_shop");
    EXPECT_EQ(points[1]["phone"], "+44 20 7930 5826");
    // A way by its centre.
    EXPECT_EQ(points[2]["osm"], "way/30455312");
    EXPECT_DOUBLE_EQ(points[2]["lat"].get<double>(), 51.5058);
    EXPECT_EQ(points[2]["category"], "tourism");
    EXPECT_FALSE(points[3].contains("opening_hours"));
    EXPECT_EQ(points[3]["category"], "shop");
}

TEST(Overpass, NoElementsIsEmpty) {
    EXPECT_TRUE(parse_elements(fx("overpass", "empty.json")).empty());
    // An element without coordinates (a relation asked without `center`) is skipped.
    EXPECT_TRUE(parse_elements(json{{"elements", {{{"type", "relation"}, {"id", 1}}}}}).empty());
}

TEST(Overpass, MalformedAnswersAreRefused) {
    EXPECT_THROW(parse_elements(fx("overpass", "runtime_error.json")), Malformed);
    EXPECT_THROW(parse_elements(json::array()), Malformed);
    EXPECT_THROW(parse_elements(json{{"version", 0.6}}), Malformed);
    EXPECT_THROW(parse_elements(json{{"elements", 3}}), Malformed);
    EXPECT_THROW(parse_elements(json{{"elements", {1}}}), Malformed);
    // lat as text: nlohmann's type error, which Upstream::parse turns into the 502 too.
    EXPECT_THROW(parse_elements(
                     json{{"elements", {{{"type", "node"}, {"id", 1}, {"lat", "x"}, {"lon", 0}}}}}),
                 json::exception);
}

TEST(Overpass, QueriesAreEscapedAndBounded) {
    EXPECT_EQ(nearby_ql({51.5, -0.12}, 1000, "", 300),
              "[out:json][timeout:25];nwr(around:1000,51.5,-0.12)[name][~\"^(amenity|shop|"
              "tourism|leisure|craft|office|healthcare|historic)$\"~\".\"];out center 300;");
    const std::string q = nearby_ql({51.5, -0.12}, 250, "cafe", 300);
    EXPECT_NE(q.find("(around:250,51.5,-0.12)[~\"^(name|cuisine|amenity|"), std::string::npos);
    EXPECT_NE(q.find(")$\"~\"cafe\",i];out center 300;"), std::string::npos) << q;
    EXPECT_EQ(overpass_literal("St. Paul's \"Café\" (1+1)"),
              "St\\\\. Paul's \\\"Café\\\" \\\\(1\\\\+1\\\\)");
    EXPECT_EQ(overpass_literal("a\\b"), "a\\\\\\\\b");
}

TEST(Elevation, ReadsMetresAndConvertsToFeet) {
    EXPECT_DOUBLE_EQ(parse_elevation(fx("open-meteo-elevation", "elevation.json")), 38.0);
    EXPECT_DOUBLE_EQ(feet_of(38.0), 124.7);
    EXPECT_DOUBLE_EQ(feet_of(1344.5), 4411.1);  // Ben Nevis
    EXPECT_DOUBLE_EQ(feet_of(0.3048), 1.0);
    EXPECT_EQ(elevation_path({51.5033, -0.1276}),
              "/v1/elevation?latitude=51.5033&longitude=-0.1276");
}

TEST(Elevation, EmptyAndMalformedAreRefused) {
    EXPECT_THROW(parse_elevation(fx("open-meteo-elevation", "empty.json")), Malformed);
    EXPECT_THROW(parse_elevation(json::array()), Malformed);
    EXPECT_THROW(parse_elevation(json{{"elevation", 38}}), Malformed);
    EXPECT_THROW(parse_elevation(json{{"elevation", {nullptr}}}), Malformed);
    EXPECT_THROW(parse_elevation(json{{"error", true}, {"reason", "Latitude must be in range"}}),
                 Malformed);
}
