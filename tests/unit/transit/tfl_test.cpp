// TfL's parsers (plugins/transit/tfl.hpp) on the fixtures, empty answers and malformed bodies,
// and the mode names transit/status takes.
#include "../../../plugins/transit/tfl.hpp"

#include <gtest/gtest.h>

#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"

using common::upstream::Malformed;
using nlohmann::json;
using namespace transit;

TEST(TflSearch, PicksTheFirstMatchThatIsNotAHub) {
    auto m = parse_search(platform::test::fixture_json("tfl", "search.json"));
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->id, "940GZZLUPAC");
    EXPECT_EQ(m->name, "Paddington (H&C Line)-Underground");
}

TEST(TflSearch, HubOnlyAndEmpty) {
    auto hub = parse_search(json::parse(R"({"matches":[{"id":"HUBPAD","name":"Paddington"}]})"));
    ASSERT_TRUE(hub.has_value());
    EXPECT_EQ(hub->id, "HUBPAD");
    EXPECT_FALSE(
        parse_search(platform::test::fixture_json("tfl", "search_empty.json")).has_value());
}

TEST(TflSearch, MalformedBodiesAreRefused) {
    EXPECT_THROW(parse_search(json::array()), Malformed);
    EXPECT_THROW(parse_search(json::parse(R"({"query":"x"})")), Malformed);
    EXPECT_THROW(parse_search(json::parse(R"({"matches":[{"name":"no id"}]})")), Malformed);
}

TEST(TflArrivals, SoonestFirstWithLineDestinationAndPlatform) {
    json a = parse_arrivals(platform::test::fixture_json("tfl", "arrivals.json"));
    ASSERT_EQ(a.size(), 3u);
    EXPECT_EQ(a[0]["in_seconds"], 95);
    EXPECT_EQ(a[0]["line"], "Circle");
    EXPECT_EQ(a[0]["destination"], "Edgware Road (Circle Line) Underground Station");
    EXPECT_EQ(a[0]["platform"], "Eastbound - Platform 16");
    EXPECT_EQ(a[0]["expected"], "2026-11-29T21:41:47Z");
    EXPECT_EQ(a[0]["mode"], "tube");
    EXPECT_EQ(a[1]["in_seconds"], 230);
    EXPECT_EQ(a[2]["in_seconds"], 412);
}

TEST(TflArrivals, EmptyAndMalformed) {
    EXPECT_TRUE(parse_arrivals(json::array()).empty());
    EXPECT_THROW(parse_arrivals(json::object()), Malformed);
    EXPECT_THROW(parse_arrivals(json::parse(R"([{"lineName":"Circle"}])")), Malformed);
    EXPECT_THROW(parse_arrivals(json::parse(R"([{"timeToStation":"soon"}])")), Malformed);
    EXPECT_THROW(parse_arrivals(json::parse(R"([3])")), Malformed);
}

TEST(TflNearby, NearestFirstWithIdsModesAndLines) {
    json s = parse_nearby(platform::test::fixture_json("tfl", "nearby.json"));
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0]["id"], "490000173RF");
    EXPECT_EQ(s[0]["name"], "Paddington Station");
    EXPECT_EQ(s[0]["indicator"], "Stop LB");
    EXPECT_DOUBLE_EQ(s[0]["distance_m"].get<double>(), 41.2);
    EXPECT_EQ(s[0]["lines"], json::parse(R"(["7","23"])"));
    EXPECT_EQ(s[0]["modes"], json::parse(R"(["bus"])"));
    EXPECT_EQ(s[1]["id"], "940GZZLUPAH");
    EXPECT_EQ(s[2]["id"], "940GZZLUPAC");
}

TEST(TflNearby, EmptyAndMalformed) {
    EXPECT_TRUE(parse_nearby(json::parse(R"({"stopPoints":[],"total":0})")).empty());
    EXPECT_THROW(parse_nearby(json::array()), Malformed);
    EXPECT_THROW(parse_nearby(json::parse(R"({"stopPoints":{}})")), Malformed);
    EXPECT_THROW(parse_nearby(json::parse(R"({"stopPoints":[{"commonName":"x"}]})")), Malformed);
}

TEST(TflStatus, LinesWithTheirStatusesAndReasons) {
    json l = parse_status(platform::test::fixture_json("tfl", "status.json"));
    ASSERT_EQ(l.size(), 3u);
    EXPECT_EQ(l[0]["id"], "bakerloo");
    EXPECT_EQ(l[0]["statuses"][0]["description"], "Good Service");
    EXPECT_TRUE(l[0]["statuses"][0]["reason"].is_null());
    EXPECT_EQ(l[1]["statuses"][0]["severity"], 9);
    EXPECT_NE(l[1]["statuses"][0]["reason"].get<std::string>().find("Holland Park"),
              std::string::npos);
    EXPECT_EQ(l[2]["mode"], "dlr");
}

TEST(TflStatus, EmptyAndMalformed) {
    EXPECT_TRUE(parse_status(json::array()).empty());
    EXPECT_THROW(parse_status(json::object()), Malformed);
    EXPECT_THROW(parse_status(json::parse(R"([{"name":"Central"}])")), Malformed);
}

TEST(TflModes, OurNamesToTflIdsAndUnknownIsA400NamingModes) {
    EXPECT_EQ(tfl_modes(""), kStatusModes);
    EXPECT_EQ(tfl_modes("Tube, elizabeth ,tube"),
              (std::vector<std::string>{"tube", "elizabeth-line"}));
    EXPECT_EQ(tfl_modes("london-overground,dlr"), (std::vector<std::string>{"overground", "dlr"}));
    try {
        tfl_modes("tube,bus");
        FAIL() << "bus was taken";
    } catch (const platform::Error& e) {
        EXPECT_EQ(e.code(), platform::Code::invalid_argument);
        EXPECT_EQ(std::string(e.what()).rfind("modes: 'bus'", 0), 0u) << e.what();
    }
}

TEST(TflStops, IdsAndLondonIds) {
    EXPECT_TRUE(looks_like_stop_id("940GZZLUOXC"));
    EXPECT_TRUE(looks_like_stop_id("490008660N"));
    EXPECT_FALSE(looks_like_stop_id("Oxford Circus"));
    EXPECT_FALSE(looks_like_stop_id("Bank"));
    EXPECT_TRUE(is_tfl_stop_id("940GZZLUOXC"));
    EXPECT_TRUE(is_tfl_stop_id("490008660N"));
    EXPECT_TRUE(is_tfl_stop_id("hubpad"));
    EXPECT_FALSE(is_tfl_stop_id("1800SB12345"));
}
