// The transit service (plugins/transit/) through the real host on the `test` profile, its four
// upstreams on loopback (support/fake_upstream.hpp serving tests/fixtures/<provider>/): TfL's
// arrivals, stops and line status, BODS's SIRI-VM bus positions, the Live Departure Board and the
// Mobility Database catalogue. Each method's happy path and limits; per provider a 5xx is a 502, a
// hang a 504 and a malformed body a 502; a repeat is answered from the cache; without the
// providers configured every method is a 503 naming the setting. Every call asks something no
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

class Transit : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() {
        start_with("transit", {{"tfl", "k-tfl", "?app_key"},
                               {"bods", "k-bods", "?api_key", true},
                               {"rail", "k-rail", "x-apikey", true},
                               {"mobility-database", "k-mdb", "Authorization: Bearer", true}});
    }

    // 5xx -> 502, hang -> 504, malformed -> 502, each at its own path.
    void upstream_failures(const std::string& title, const std::string& path5xx,
                           const std::string& call5xx, const std::string& path_hang,
                           const std::string& call_hang, const std::string& path_bad,
                           const std::string& call_bad, FakeUpstream::Route bad) {
        up->serve(path5xx, FakeUpstream::status(500, "{\"message\":\"internal\"}"));
        fails(call5xx, 502, title);
        up->serve(path_hang, FakeUpstream::hang());
        fails(call_hang, 504, title);
        up->serve(path_bad, bad);
        fails(call_bad, 502, "malformed");
    }
};

TEST_F(Transit, ArrivalsByNameAreLiveFromTflSoonestFirstAndCached) {
    up->serve("/tfl/StopPoint/Search/Paddington", FakeUpstream::fixture("tfl", "search.json"));
    up->serve("/tfl/StopPoint/940GZZLUPAC/Arrivals", FakeUpstream::fixture("tfl", "arrivals.json"));
    json a = ok("arrivals?stop=Paddington");
    EXPECT_EQ(a["source"], "live");
    EXPECT_EQ(a["provider"], "TfL");
    EXPECT_EQ(a["stop"]["id"], "940GZZLUPAC");  // the first match that is not the HUB
    ASSERT_EQ(a["arrivals"].size(), 3u);
    EXPECT_EQ(a["arrivals"][0]["in_seconds"], 95);
    EXPECT_EQ(a["arrivals"][0]["line"], "Circle");
    auto search = up->requests("/tfl/StopPoint/Search/Paddington");
    ASSERT_EQ(search.size(), 1u);
    EXPECT_EQ(search[0].param("app_key"), "k-tfl");
    EXPECT_TRUE(has(search[0].param("modes"), "tube"));
    ok("arrivals?stop=Paddington");  // the cache answers
    EXPECT_EQ(up->requests("/tfl/StopPoint/Search/Paddington").size(), 1u);
    EXPECT_EQ(up->requests("/tfl/StopPoint/940GZZLUPAC/Arrivals").size(), 1u);
}

TEST_F(Transit, ArrivalsByIdSkipTheSearch) {
    up->serve("/tfl/StopPoint/940GZZLUPAH/Arrivals", FakeUpstream::fixture("tfl", "arrivals.json"));
    json a = ok("arrivals?stop=940gzzlupah");
    EXPECT_EQ(a["stop"]["id"], "940GZZLUPAH");
    EXPECT_EQ(a["stop"]["name"], "Paddington (H&C Line)-Underground");
    EXPECT_EQ(up->requests("/tfl/StopPoint/940GZZLUPAH/Arrivals").size(), 1u);
}

TEST_F(Transit, ArrivalsOutsideLondonAre503NamingTheTimetableSetting) {
    up->forget();
    fails("arrivals?stop=1800SB12345", 503, "providers.gtfs.base_url");
    EXPECT_TRUE(up->requests().empty());  // not a TfL id: TfL is not asked
    up->serve("/tfl/StopPoint/Search/Kirkstall", FakeUpstream::fixture("tfl", "search_empty.json"));
    fails("arrivals?stop=Kirkstall", 503, "providers.gtfs.base_url");
}

TEST_F(Transit, ArrivalsLimits) {
    fails("arrivals", 400, "stop");
    fails("arrivals?stop=" + std::string(101, 'a'), 400, "stop");
    fails("arrivals?stop=x", 400, "stop");
    up->serve("/tfl/StopPoint/940GZZLUXXX/Arrivals", FakeUpstream::status(404, "{}"));
    fails("arrivals?stop=940GZZLUXXX", 404, "940GZZLUXXX");
}

TEST_F(Transit, NearbyStopsNearestFirstWithIdsAndRadiusLimits) {
    up->serve("/tfl/StopPoint", FakeUpstream::fixture("tfl", "nearby.json"));
    up->forget();
    json n = ok("nearby?lat=51.516&lon=-0.176");
    ASSERT_EQ(n["stops"].size(), 3u);
    EXPECT_EQ(n["stops"][0]["id"], "490000173RF");
    EXPECT_EQ(n["stops"][2]["id"], "940GZZLUPAC");
    EXPECT_EQ(n["radius_m"], 400);
    auto rq = up->requests("/tfl/StopPoint");
    ASSERT_EQ(rq.size(), 1u);
    EXPECT_EQ(rq[0].param("radius"), "400");
    EXPECT_EQ(rq[0].param("lat"), "51.516");
    EXPECT_TRUE(has(rq[0].param("stopTypes"), "NaptanMetroStation"));
    ok("nearby?lat=51.516&lon=-0.176&radius=2000");
    EXPECT_EQ(up->requests("/tfl/StopPoint").back().param("radius"), "2000");
    fails("nearby?lat=51.516&lon=-0.176&radius=2001", 400, "radius");
    fails("nearby?lat=51.516&lon=-0.176&radius=0", 400, "radius");
    fails("nearby?lon=-0.176", 400, "lat");
    fails("nearby?lat=91&lon=-0.176", 400, "lat");
}

TEST_F(Transit, StatusOfTheModesAskedOrAllAndUnknownModesAre400) {
    up->serve("/tfl/Line/Mode/tube,dlr/Status", FakeUpstream::fixture("tfl", "status.json"));
    json s = ok("status?modes=tube,dlr");
    EXPECT_EQ(s["modes"], json::parse(R"(["tube","dlr"])"));
    ASSERT_EQ(s["lines"].size(), 3u);
    EXPECT_EQ(s["lines"][1]["statuses"][0]["description"], "Minor Delays");
    const std::string all = "/tfl/Line/Mode/tube,dlr,overground,elizabeth-line,tram/Status";
    up->serve(all, FakeUpstream::fixture("tfl", "status.json"));
    EXPECT_EQ(ok("status")["modes"].size(), 5u);
    EXPECT_EQ(up->requests(all).size(), 1u);
    fails("status?modes=tube,bus", 400, "modes");
    fails("status?modes=" + std::string(101, 't'), 400, "modes");
}

TEST_F(Transit, TflFailuresAre502And504) {
    upstream_failures("TfL", "/tfl/Line/Mode/tram/Status", "status?modes=tram",
                      "/tfl/Line/Mode/overground/Status", "status?modes=overground",
                      "/tfl/Line/Mode/elizabeth-line/Status", "status?modes=elizabeth-line",
                      FakeUpstream::status(200, "{\"lines\":\"none\"}"));
    up->serve("/tfl/Line/Mode/dlr/Status",
              FakeUpstream::status(200, "<html>oops</html>", "text/html"));
    fails("status?modes=dlr", 502, "malformed");
}

TEST_F(Transit, BusesNearestFirstWithinKmAndLimited) {
    up->serve("/bods/api/v1/datafeed/",
              FakeUpstream::fixture("bods", "vehicles.xml", "application/xml"));
    up->forget();
    json b = ok("buses?lat=51.4545&lon=-2.5879");
    ASSERT_EQ(b["buses"].size(), 2u);  // the X39 near Bath is 6 km away; one has no position
    EXPECT_EQ(b["buses"][0]["vehicle"], "39213");
    EXPECT_EQ(b["buses"][0]["line"], "72");
    EXPECT_EQ(b["buses"][1]["vehicle"], "37984");
    EXPECT_LT(b["buses"][0]["distance_km"].get<double>(),
              b["buses"][1]["distance_km"].get<double>());
    auto rq = up->requests("/bods/api/v1/datafeed/");
    ASSERT_EQ(rq.size(), 1u);
    EXPECT_EQ(rq[0].param("api_key"), "k-bods");
    EXPECT_EQ(rq[0].param("boundingBox"), "-2.61673,51.43653,-2.55907,51.47247");
    ok("buses?lat=51.4545&lon=-2.5879");  // cached
    EXPECT_EQ(up->requests("/bods/api/v1/datafeed/").size(), 1u);
    json wide = ok("buses?lat=51.4545&lon=-2.5879&within_km=25&limit=1");
    EXPECT_EQ(wide["buses"].size(), 1u);
    EXPECT_EQ(wide["in_range"], 3);
    EXPECT_EQ(ok("buses?lat=51.4545&lon=-2.5879&within_km=25")["buses"].size(), 3u);
    fails("buses?lat=51.4545&lon=-2.5879&within_km=26", 400, "within_km");
    fails("buses?lat=51.4545&lon=-2.5879&limit=0", 400, "limit");
    fails("buses?lat=51.4545&lon=-2.5879&limit=101", 400, "limit");
    fails("buses?lat=51.4545", 400, "lon");
}

TEST_F(Transit, BodsFailuresAre502And504) {
    // Each at its own bounding box, so no answer comes from the cache; one route serves them all.
    up->serve("/bods/api/v1/datafeed/",
              FakeUpstream::status(500, "Internal Server Error", "text/plain"));
    fails("buses?lat=52.1&lon=-1.1", 502, "BODS");
    up->serve("/bods/api/v1/datafeed/", FakeUpstream::hang());
    fails("buses?lat=52.2&lon=-1.2", 504, "BODS");
    up->serve("/bods/api/v1/datafeed/",
              FakeUpstream::status(200, "<Siri><ServiceDelivery>", "application/xml"));
    fails("buses?lat=52.3&lon=-1.3", 502, "malformed");
    up->serve("/bods/api/v1/datafeed/", FakeUpstream::status(200, "{\"detail\":\"x\"}"));
    fails("buses?lat=52.4&lon=-1.4", 502, "malformed");
}

TEST_F(Transit, TrainsBoardOfAStationAndItsLimits) {
    const std::string dep = "/rail/LDBWS/api/20220120/GetDepBoardWithDetails/PAD";
    up->serve(dep, FakeUpstream::fixture("rail", "departures.json"));
    json t = ok("trains?station=pad&rows=3");
    EXPECT_EQ(t["station"]["crs"], "PAD");
    EXPECT_EQ(t["board"], "departures");
    ASSERT_EQ(t["services"].size(), 3u);
    EXPECT_EQ(t["services"][0]["destination"], "Bristol Temple Meads");
    auto rq = up->requests(dep);
    ASSERT_EQ(rq.size(), 1u);
    EXPECT_EQ(rq[0].header("x-apikey"), "k-rail");
    EXPECT_EQ(rq[0].param("numRows"), "3");
    ok("trains?station=PAD&rows=3");  // cached
    EXPECT_EQ(up->requests(dep).size(), 1u);
    ok("trains?station=PAD");
    EXPECT_EQ(up->requests(dep).back().param("numRows"), "10");
    ok("trains?station=PAD&rows=20");
    EXPECT_EQ(up->requests(dep).back().param("numRows"), "20");
    const std::string arr = "/rail/LDBWS/api/20220120/GetArrBoardWithDetails/PAD";
    up->serve(arr, FakeUpstream::fixture("rail", "arrivals.json"));
    json a = ok("trains?station=PAD&arrivals=true");
    EXPECT_EQ(a["board"], "arrivals");
    EXPECT_EQ(a["services"][0]["scheduled"], "21:44");
    fails("trains?station=PAD&rows=21", 400, "rows");
    fails("trains?station=PAD&rows=0", 400, "rows");
    fails("trains?station=PADD", 400, "station");
    fails("trains?station=P4D", 400, "station");
    fails("trains", 400, "station");
}

TEST_F(Transit, RailFailuresAre502And504) {
    const std::string p = "/rail/LDBWS/api/20220120/GetDepBoardWithDetails/";
    upstream_failures("Live Departure Board", p + "BRI", "trains?station=BRI", p + "OXF",
                      "trains?station=OXF", p + "RDG", "trains?station=RDG",
                      FakeUpstream::status(200, "{\"trainServices\":[]}"));
}

TEST_F(Transit, FeedsOfACountryFromTheCatalogue) {
    up->serve("/mobility-database/v1/gtfs_feeds",
              FakeUpstream::fixture("mobility-database", "feeds.json"));
    up->forget();
    json f = ok("feeds?country=gb");
    EXPECT_EQ(f["country"], "GB");
    EXPECT_TRUE(f["carried"].empty());
    EXPECT_EQ(f["timetable_setting"], "providers.gtfs.base_url");
    ASSERT_EQ(f["available"].size(), 3u);
    EXPECT_DOUBLE_EQ(f["available"][0]["size_mb"].get<double>(), 31.42);
    auto rq = up->requests("/mobility-database/v1/gtfs_feeds");
    ASSERT_EQ(rq.size(), 1u);
    EXPECT_EQ(rq[0].param("country_code"), "GB");
    EXPECT_EQ(rq[0].header("authorization"), "Bearer k-mdb");
    ok("feeds");  // GB by default: cached
    EXPECT_EQ(up->requests("/mobility-database/v1/gtfs_feeds").size(), 1u);
    fails("feeds?country=GBR", 400, "country");
    fails("feeds?country=G1", 400, "country");
}

TEST_F(Transit, MobilityDatabaseFailuresAre502And504) {
    const std::string p = "/mobility-database/v1/gtfs_feeds";
    up->serve(p, FakeUpstream::status(500, "{}"));
    fails("feeds?country=FR", 502, "Mobility Database");
    up->serve(p, FakeUpstream::hang());
    fails("feeds?country=DE", 504, "Mobility Database");
    up->serve(p, FakeUpstream::status(200, "{\"feeds\":[]}"));
    fails("feeds?country=IE", 502, "malformed");
}

// Without the providers: TfL not configured at all, the keyed ones without their keys.
class TransitUnconfigured : public SharedHostTest {
protected:
    static std::unique_ptr<FakeUpstream> up;

    static void SetUpTestSuite() {
        up = std::make_unique<FakeUpstream>();
        HostProcess::Options o;
        o.profile = test_profile_with(
            suite_dir() + "/transit-bare.yaml",
            up->outbound_yaml({{"bods", "", "?api_key", true},
                               {"rail", "", "x-apikey", true},
                               {"mobility-database", "", "Authorization: Bearer", true}}));
        start_host(o);
    }
    static void TearDownTestSuite() {
        stop_host();
        up.reset();
    }
    void unavailable(const std::string& call, const std::string& setting) {
        HttpResult r = api.get("/api/v1/transit/" + call);
        EXPECT_EQ(r.status, 503) << call << ": " << r.body;
        EXPECT_TRUE(has(r.body, setting)) << call << ": " << r.body;
    }
};

std::unique_ptr<FakeUpstream> TransitUnconfigured::up;

TEST_F(TransitUnconfigured, EveryMethodIs503NamingItsSetting) {
    unavailable("arrivals?stop=Paddington", "providers.tfl.base_url");
    unavailable("nearby?lat=51.5&lon=-0.1", "providers.tfl.base_url");
    unavailable("status", "providers.tfl.base_url");
    unavailable("buses?lat=51.5&lon=-0.1", "providers.bods.api_key");
    unavailable("trains?station=PAD", "providers.rail.api_key");
    unavailable("feeds", "providers.mobility-database.api_key");
    EXPECT_TRUE(up->requests().empty());
}

}  // namespace
