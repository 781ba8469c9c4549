// The station board (plugins/transit/rail.hpp) and the Mobility Database catalogue
// (plugins/transit/feeds.hpp) parsers on the fixtures, empty answers and malformed bodies.
#include <gtest/gtest.h>

#include "../../../plugins/transit/feeds.hpp"
#include "../../../plugins/transit/rail.hpp"
#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"

using common::upstream::Malformed;
using nlohmann::json;
using namespace transit;

TEST(Board, DeparturesWithDelaysCancellationsAndMessages) {
    json b = parse_board(platform::test::fixture_json("rail", "departures.json"), false);
    EXPECT_EQ(b["station"], json::parse(R"({"name":"London Paddington","crs":"PAD"})"));
    EXPECT_EQ(b["board"], "departures");
    ASSERT_EQ(b["services"].size(), 3u);
    const json& first = b["services"][0];
    EXPECT_EQ(first["scheduled"], "21:30");
    EXPECT_EQ(first["expected"], "21:36");
    EXPECT_EQ(first["platform"], "3");
    EXPECT_EQ(first["destination"], "Bristol Temple Meads");
    EXPECT_EQ(first["origin"], "London Paddington");
    EXPECT_EQ(first["operator"], "Great Western Railway");
    EXPECT_FALSE(first["cancelled"].get<bool>());
    EXPECT_NE(first["delay_reason"].get<std::string>().find("late running"), std::string::npos);
    EXPECT_TRUE(b["services"][2]["cancelled"].get<bool>());
    EXPECT_TRUE(b["services"][2]["platform"].is_null());
    EXPECT_NE(b["services"][2]["cancel_reason"].get<std::string>().find("train crew"),
              std::string::npos);
    ASSERT_EQ(b["messages"].size(), 1u);
    EXPECT_EQ(b["messages"][0].get<std::string>().find('<'), std::string::npos);  // no tags
}

TEST(Board, ArrivalsReadStaAndEta) {
    json b = parse_board(platform::test::fixture_json("rail", "arrivals.json"), true);
    EXPECT_EQ(b["board"], "arrivals");
    ASSERT_EQ(b["services"].size(), 1u);
    EXPECT_EQ(b["services"][0]["scheduled"], "21:44");
    EXPECT_EQ(b["services"][0]["expected"], "21:47");
    EXPECT_EQ(b["services"][0]["origin"], "Bristol Temple Meads");
}

TEST(Board, EmptyAndMalformed) {
    json b = parse_board(platform::test::fixture_json("rail", "empty.json"), false);
    EXPECT_TRUE(b["services"].empty());
    EXPECT_TRUE(b["messages"].empty());
    EXPECT_THROW(parse_board(json::array(), false), Malformed);
    EXPECT_THROW(parse_board(json::parse(R"({"locationName":"Nowhere"})"), false), Malformed);
    EXPECT_THROW(parse_board(json::parse(R"({"crs":"PAD","trainServices":{}})"), false), Malformed);
    EXPECT_THROW(parse_board(json::parse(R"({"crs":"PAD","trainServices":[1]})"), false),
                 Malformed);
}

TEST(Feeds, TheCataloguesFeedsWithUrlsAndSizes) {
    json f = parse_feeds(platform::test::fixture_json("mobility-database", "feeds.json"));
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0]["id"], "mdb-1234");
    EXPECT_EQ(f[0]["provider"], "Transport for Greater Manchester");
    EXPECT_EQ(f[0]["status"], "active");
    EXPECT_DOUBLE_EQ(f[0]["size_mb"].get<double>(), 31.42);
    EXPECT_DOUBLE_EQ(f[0]["unzipped_size_mb"].get<double>(), 287.15);
    EXPECT_EQ(f[0]["locations"], json::parse(R"(["Manchester, England, GB"])"));
    EXPECT_NE(f[0]["url"].get<std::string>().find("mdb-1234"), std::string::npos);
    EXPECT_TRUE(f[1]["size_mb"].is_null());  // the catalogue did not say
    EXPECT_TRUE(f[2]["url"].is_null());      // latest_dataset null
    EXPECT_EQ(f[2]["status"], "inactive");
}

TEST(Feeds, EmptyAndMalformed) {
    EXPECT_TRUE(
        parse_feeds(platform::test::fixture_json("mobility-database", "empty.json")).empty());
    EXPECT_THROW(parse_feeds(json::object()), Malformed);
    EXPECT_THROW(parse_feeds(json::parse(R"([{"provider":"x"}])")), Malformed);
    EXPECT_THROW(parse_feeds(json::parse(R"(["mdb-1"])")), Malformed);
}
