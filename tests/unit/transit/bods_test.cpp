// The SIRI-VM reader (plugins/transit/bods.hpp) on the fixture, an empty delivery and malformed
// documents.
#include "../../../plugins/transit/bods.hpp"

#include <gtest/gtest.h>

#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"

using common::upstream::Malformed;
using namespace transit;

TEST(SiriVm, VehiclesWithPositionsAndTheirJourneys) {
    auto buses = parse_siri_vm(platform::test::fixture_text("bods", "vehicles.xml"));
    ASSERT_EQ(buses.size(), 3u);  // the fourth has no VehicleLocation
    EXPECT_EQ(buses[0].vehicle, "39213");
    EXPECT_EQ(buses[0].line, "72");
    EXPECT_EQ(buses[0].direction, "inbound");
    EXPECT_EQ(buses[0].operator_ref, "FBRI");
    EXPECT_EQ(buses[0].destination, "Temple_Meads");
    EXPECT_EQ(buses[0].recorded_at, "2026-11-29T21:40:05+00:00");
    EXPECT_DOUBLE_EQ(buses[0].lat, 51.4567);
    EXPECT_DOUBLE_EQ(buses[0].lon, -2.5874);
    ASSERT_TRUE(buses[0].bearing.has_value());
    EXPECT_DOUBLE_EQ(*buses[0].bearing, 168.0);
    EXPECT_EQ(buses[1].line, "m1");
    EXPECT_EQ(buses[2].vehicle, "33821");
}

TEST(SiriVm, AnEmptyDeliveryHasNoBuses) {
    EXPECT_TRUE(parse_siri_vm(platform::test::fixture_text("bods", "empty.xml")).empty());
    EXPECT_TRUE(parse_siri_vm("<Siri><ServiceDelivery/></Siri>").empty());
}

TEST(SiriVm, UnreadablePositionsAreSkipped) {
    auto buses = parse_siri_vm(
        "<Siri><ServiceDelivery><VehicleMonitoringDelivery>"
        "<VehicleActivity><MonitoredVehicleJourney><VehicleLocation><Longitude>west</Longitude>"
        "<Latitude>51.4</Latitude></VehicleLocation></MonitoredVehicleJourney></VehicleActivity>"
        "<VehicleActivity><MonitoredVehicleJourney><VehicleLocation><Longitude>-2.5</Longitude>"
        "<Latitude>95</Latitude></VehicleLocation></MonitoredVehicleJourney></VehicleActivity>"
        "<VehicleActivity><MonitoredVehicleJourney><LineRef> 9 </LineRef><VehicleLocation>"
        "<Longitude> -2.5 </Longitude><Latitude>51.4</Latitude></VehicleLocation>"
        "</MonitoredVehicleJourney></VehicleActivity>"
        "</VehicleMonitoringDelivery></ServiceDelivery></Siri>");
    ASSERT_EQ(buses.size(), 1u);
    EXPECT_EQ(buses[0].line, "9");  // LineRef when there is no PublishedLineName, trimmed
    EXPECT_DOUBLE_EQ(buses[0].lon, -2.5);
}

TEST(SiriVm, MalformedDocumentsAreRefused) {
    const std::string whole = platform::test::fixture_text("bods", "vehicles.xml");
    EXPECT_THROW(parse_siri_vm(whole.substr(0, whole.size() / 2)), Malformed);  // cut short
    EXPECT_THROW(parse_siri_vm(""), Malformed);
    EXPECT_THROW(parse_siri_vm("{\"error\":\"Invalid api_key\"}"), Malformed);
    EXPECT_THROW(parse_siri_vm("<html><body>Bad gateway</body></html>"), Malformed);
    EXPECT_THROW(parse_siri_vm("<Siri><Other/></Siri>"), Malformed);
    EXPECT_THROW(parse_siri_vm("<Siri><ServiceDelivery></Siri>"), Malformed);
    // An external entity is neither fetched nor expanded.
    EXPECT_NO_THROW(parse_siri_vm(
        "<?xml version=\"1.0\"?><!DOCTYPE Siri [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
        "<Siri><ServiceDelivery><VehicleMonitoringDelivery><VehicleActivity>"
        "<MonitoredVehicleJourney><LineRef>&x;</LineRef></MonitoredVehicleJourney>"
        "</VehicleActivity></VehicleMonitoringDelivery></ServiceDelivery></Siri>"));
}

TEST(SiriVm, DistanceInKilometres) {
    EXPECT_NEAR(distance_km(51.4545, -2.5879, 51.4545, -2.5879), 0, 1e-9);
    // Bristol Temple Meads to Bath Spa: about 17.4 km as the crow flies.
    EXPECT_NEAR(distance_km(51.4491, -2.5813, 51.3775, -2.3570), 17.4, 0.3);
}
