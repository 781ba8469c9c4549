// The flights service (plugins/flights/) through the real host on the `test` profile, with
// adsb.lol and a schedule provider on loopback (support/fake_upstream.hpp serving
// tests/fixtures/<provider>/). Each method's happy path and limits; per provider a 5xx is a 502,
// a hang a 504 and a malformed body a 502; a repeat is answered from the cache; without the
// providers every method is a 503 naming providers.<name>.base_url. Every call asks something no
// earlier test asked, so that the cache answers only where a test means it to.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "fake_upstream.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const std::string kHeathrow10 = "/adsb/v2/point/51.4700/-0.4543/10";
const std::string kHeathrow30 = "/adsb/v2/point/51.4700/-0.4543/30";

class Flights : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() {
        start_with("flights", {{"adsb"}, {"flight-status", "k-fs", "?access_key", true}});
    }
};

TEST_F(Flights, OverheadNearestFirstWithinTheRadiusAndCached) {
    up->serve(kHeathrow30, FakeUpstream::fixture("adsb", "point.json"));
    json o = ok("overhead?lat=51.47&lon=-0.4543");
    EXPECT_EQ(o["radius_nm"], 30);
    ASSERT_EQ(o["aircraft"].size(), 5u);  // the one without a position is left out
    EXPECT_EQ(o["aircraft"][0]["callsign"], "BAW117");
    EXPECT_EQ(o["aircraft"][4]["callsign"], "EZY19CA");
    for (size_t i = 1; i < o["aircraft"].size(); ++i)
        EXPECT_LE(o["aircraft"][i - 1]["distance_nm"].get<double>(),
                  o["aircraft"][i]["distance_nm"].get<double>());
    EXPECT_EQ(up->requests(kHeathrow30).size(), 1u);
    json near = ok("overhead?near=heathrow");  // the same point: from the cache
    EXPECT_EQ(near["center"]["airport"]["iata"], "LHR");
    EXPECT_EQ(up->requests(kHeathrow30).size(), 1u);
}

TEST_F(Flights, OverheadLimits) {
    const std::string p250 = "/adsb/v2/point/51.1537/-0.1821/250";
    up->serve(p250, FakeUpstream::fixture("adsb", "empty.json"));
    json o = ok("overhead?near=LGW&radius=250");
    EXPECT_TRUE(o["aircraft"].empty());
    EXPECT_EQ(up->requests(p250).size(), 1u);
    fails("overhead?near=LGW&radius=251", 400, "radius");
    fails("overhead?near=LGW&radius=0", 400, "radius");
    fails("overhead?near=Atlantis", 400, "near");
    fails("overhead?lat=51.5", 400, "lon");
    fails("overhead", 400, "near");
    fails("overhead?lat=51.5&lon=181", 400, "lon");
}

TEST_F(Flights, AirportGroundApproachAndClimbOut) {
    up->serve(kHeathrow10, FakeUpstream::fixture("adsb", "point.json"));
    json a = ok("airport?code=EGLL");
    EXPECT_EQ(a["airport"]["iata"], "LHR");
    ASSERT_EQ(a["ground"].size(), 1u);
    EXPECT_EQ(a["ground"][0]["registration"], "G-XWBA");
    ASSERT_EQ(a["approach"].size(), 1u);
    EXPECT_EQ(a["approach"][0]["callsign"], "VIR3N");
    ASSERT_EQ(a["climb_out"].size(), 1u);
    EXPECT_EQ(a["climb_out"][0]["callsign"], "EIN155");
    EXPECT_EQ(a["level"].size(), 1u);  // the one 15 nm out is beyond the 10 nm watched
    ok("airport?code=lhr");            // cached
    EXPECT_EQ(up->requests(kHeathrow10).size(), 1u);
    fails("airport?code=Atlantis", 404, "code");
    fails("airport", 400, "code");
    fails("airport?code=X", 400, "code");
}

TEST_F(Flights, TrackAirborneByFlightNumberCallsignOrRegistration) {
    up->serve("/adsb/v2/callsign/BAW117", FakeUpstream::fixture("adsb", "callsign.json"));
    json t = ok("track?flight=BA117");
    ASSERT_EQ(t["aircraft"].size(), 1u);
    EXPECT_EQ(t["aircraft"][0]["registration"], "G-XLEA");
    EXPECT_EQ(t["looked_up"][0]["callsign"], "BAW117");
    ok("track?flight=BAW117");  // the same lookup: cached
    EXPECT_EQ(up->requests("/adsb/v2/callsign/BAW117").size(), 1u);
    // On the ground is not tracked.
    up->serve("/adsb/v2/reg/G-EUPT", FakeUpstream::fixture("adsb", "ground.json"));
    fails("track?flight=G-EUPT", 404, "airborne");
    // Neither a callsign nor a registration heard: both asked.
    up->serve("/adsb/v2/callsign/XYZ999", FakeUpstream::fixture("adsb", "empty.json"));
    up->serve("/adsb/v2/reg/XYZ999", FakeUpstream::fixture("adsb", "empty.json"));
    fails("track?flight=XYZ999", 404, "XYZ999");
    EXPECT_EQ(up->requests("/adsb/v2/reg/XYZ999").size(), 1u);
    fails("track", 400, "flight");
    fails("track?flight=" + std::string(13, 'A'), 400, "flight");
    fails("track?flight=BA%2F117", 400, "flight");
}

TEST_F(Flights, AdsbFailuresAre502And504) {
    up->serve("/adsb/v2/point/10.0000/10.0000/30", FakeUpstream::status(500, "{}"));
    fails("overhead?lat=10&lon=10", 502, "adsb.lol");
    up->serve("/adsb/v2/point/11.0000/11.0000/30", FakeUpstream::hang());
    fails("overhead?lat=11&lon=11", 504, "adsb.lol");
    up->serve("/adsb/v2/point/12.0000/12.0000/30", FakeUpstream::status(200, "{\"aircraft\":[]}"));
    fails("overhead?lat=12&lon=12", 502, "malformed");
    up->serve("/adsb/v2/point/13.0000/13.0000/30",
              FakeUpstream::status(200, "not json", "text/plain"));
    fails("overhead?lat=13&lon=13", 502, "malformed");
}

TEST_F(Flights, StatusTimesOfAFlightOrAnAirport) {
    const std::string p = "/flight-status/v1/flights";
    up->serve(p, FakeUpstream::fixture("flight-status", "flights.json"));
    up->forget();
    json s = ok("status?flight=ba117");
    ASSERT_EQ(s["flights"].size(), 1u);
    EXPECT_EQ(s["flights"][0]["flight"], "BA117");
    EXPECT_EQ(s["flights"][0]["departure"]["actual"], "2026-11-29T20:43:00+00:00");
    auto rq = up->requests(p);
    ASSERT_EQ(rq.size(), 1u);
    EXPECT_EQ(rq[0].param("flight_iata"), "BA117");
    EXPECT_EQ(rq[0].param("access_key"), "k-fs");
    ok("status?flight=BA117");  // cached
    EXPECT_EQ(up->requests(p).size(), 1u);
    ok("status?airport=lhr&direction=departures");
    EXPECT_EQ(up->requests(p).back().param("dep_iata"), "LHR");
    ok("status?airport=JFK");
    EXPECT_EQ(up->requests(p).back().param("arr_iata"), "JFK");
    fails("status", 400, "flight, airport");
    fails("status?airport=LHR&direction=sideways", 400, "direction");
    fails("status?flight=B", 400, "flight");
    fails("status?airport=EGLL", 400, "airport");
}

TEST_F(Flights, FlightStatusFailuresAre502And504) {
    const std::string p = "/flight-status/v1/flights";
    up->serve(p, FakeUpstream::status(500, "{}"));
    fails("status?flight=AF1", 502, "flight status provider");
    up->serve(p, FakeUpstream::hang());
    fails("status?flight=AF2", 504, "flight status provider");
    up->serve(p,
              FakeUpstream::status(200,
                                   "{\"error\":{\"code\":\"usage_limit_reached\","
                                   "\"message\":\"Your monthly usage limit has been reached.\"}}"));
    fails("status?flight=AF3", 502, "usage limit");
}

class FlightsUnconfigured : public SharedHostTest {
protected:
    static void SetUpTestSuite() {
        HostProcess::Options o;
        o.profile = test_profile_with(suite_dir() + "/flights-bare.yaml", "");
        start_host(o);
    }
};

TEST_F(FlightsUnconfigured, EveryMethodIs503NamingItsSetting) {
    for (const auto& [call, setting] : std::vector<std::pair<std::string, std::string>>{
             {"airport?code=LHR", "providers.adsb.base_url"},
             {"overhead?lat=51.5&lon=-0.1", "providers.adsb.base_url"},
             {"track?flight=BA117", "providers.adsb.base_url"},
             {"status?flight=BA117", "providers.flight-status.base_url"}}) {
        HttpResult r = api.get("/api/v1/flights/" + call);
        EXPECT_EQ(r.status, 503) << call << ": " << r.body;
        EXPECT_TRUE(has(r.body, setting)) << call << ": " << r.body;
    }
}

}  // namespace
