// The places service (plugins/places/) through the real host on the `test` profile, its three
// upstreams on loopback (support/fake_upstream.hpp) answering from tests/fixtures/<provider>/:
// each method's happy path and limits; per provider a 5xx is a 502, silence a 504, a malformed
// body a 502, a repeat comes from the cache; without the providers configured, 503 naming the
// setting.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <platform/sdk/percent.hpp>
#include <string>

#include "fake_upstream.hpp"
#include "http_client.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kSearch = "/nominatim/search";
const std::string kReverse = "/nominatim/reverse";
const std::string kOverpass = "/overpass/api/interpreter";
const std::string kElevation = "/open-meteo-elevation/v1/elevation";

// A GET of /api/v1/places/<method> with `args` as the query.
HttpResult places_get(HttpClient& api, const std::string& method, const json& args) {
    std::string q;
    for (const auto& [name, value] : args.items())
        q += (q.empty() ? "?" : "&") + name + "=" +
             platform::percent_encode(value.is_string() ? value.get<std::string>() : value.dump());
    return api.get("/api/v1/places/" + method + q);
}

std::string message(const HttpResult& r) {
    const json j = json::parse(r.body, nullptr, false);
    return j.is_object() && j.contains("error") ? j["error"].value("message", "") : r.body;
}

class Places : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() {
        start_with("places", {{"nominatim", "", "", false},
                              {"overpass", "", "", false},
                              {"open-meteo-elevation", "", "", false}});
    }
    void SetUp() override {
        up->serve(kSearch, FakeUpstream::fixture("nominatim", "search.json"));
        up->serve(kReverse, FakeUpstream::fixture("nominatim", "reverse.json"));
        up->serve(kOverpass, FakeUpstream::fixture("overpass", "nearby.json"));
        up->serve(kElevation, FakeUpstream::fixture("open-meteo-elevation", "elevation.json"));
        up->forget();
    }
    json ok(const std::string& method, const json& args) {
        const HttpResult r = places_get(api, method, args);
        EXPECT_EQ(r.status, 200) << method << ": " << r.body;
        return r.status == 200 ? r.json()["data"] : json();
    }
    // The call fails with `status` and a message containing `needle`.
    void refused(const std::string& method, const json& args, int status,
                 const std::string& needle) {
        const HttpResult r = places_get(api, method, args);
        EXPECT_EQ(r.status, status) << method << " " << args.dump() << ": " << r.body;
        EXPECT_NE(message(r).find(needle), std::string::npos)
            << method << " " << args.dump() << ": " << message(r);
    }
};

TEST_F(Places, GeocodeAnswersNominatimsPlaces) {
    const json g = ok("geocode", {{"address", "10 Downing Street, London"}});
    ASSERT_EQ(g["count"], 2);
    EXPECT_EQ(g["results"][0]["name"], "10 Downing Street");
    EXPECT_DOUBLE_EQ(g["results"][0]["lat"].get<double>(), 51.5033635);
    EXPECT_EQ(g["results"][0]["address"]["postcode"], "SW1A 2AA");
    EXPECT_NE(g["attribution"].get<std::string>().find("OpenStreetMap"), std::string::npos);
    const auto sent = up->requests(kSearch);
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].param("q"), "10 Downing Street, London");
    EXPECT_EQ(sent[0].param("format"), "jsonv2");
    EXPECT_EQ(sent[0].param("limit"), "10");
    EXPECT_FALSE(sent[0].header("user-agent").empty());  // Nominatim's policy: the host's
}

TEST_F(Places, GeocodeMatchingNothingIsEmpty) {
    up->serve(kSearch, FakeUpstream::fixture("nominatim", "search_empty.json"));
    const json g = ok("geocode", {{"address", "Nowhere at all"}});
    EXPECT_EQ(g["count"], 0);
    EXPECT_TRUE(g["results"].empty());
}

TEST_F(Places, GeocodeLimits) {
    refused("geocode", json::object(), 400, "address");
    refused("geocode", {{"address", std::string(301, 'a')}}, 400, "address");
    EXPECT_TRUE(up->requests().empty());
}

TEST_F(Places, AddressIsTheReversePlace) {
    const json a = ok("address", {{"lat", 51.5034}, {"lon", -0.1276}});
    EXPECT_EQ(a["place"]["address"]["road"], "Downing Street");
    const auto sent = up->requests(kReverse);
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].param("lat"), "51.5034");
    EXPECT_EQ(sent[0].param("lon"), "-0.1276");
}

TEST_F(Places, AddressLimits) {
    refused("address", {{"lat", 91}, {"lon", 0}}, 400, "lat");
    refused("address", {{"lat", 51}, {"lon", -181}}, 400, "lon");
    refused("address", {{"lat", 51}}, 400, "lon");
    up->serve(kReverse, FakeUpstream::fixture("nominatim", "reverse_none.json"));
    refused("address", {{"lat", 50.5}, {"lon", -20.5}}, 404, "lat, lon: no address found");
}

TEST_F(Places, SearchNearAPointIsNearestFirstWithinTheRadius) {
    up->serve(kSearch, FakeUpstream::fixture("nominatim", "search_near.json"));
    const json s = ok("search", {{"query", "pharmacy"}, {"lat", 51.5033635}, {"lon", -0.1276248}});
    EXPECT_EQ(s["radius"], 2000);
    ASSERT_EQ(s["count"], 2);
    EXPECT_EQ(s["results"][0]["name"], "Westminster Pharmacy");
    EXPECT_EQ(s["results"][1]["name"], "Boots");
    const auto sent = up->requests(kSearch);
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].param("bounded"), "1");
    EXPECT_FALSE(sent[0].param("viewbox").empty());
}

TEST_F(Places, SearchNearAPlaceNameGeocodesItFirst) {
    const json s = ok("search", {{"query", "Downing Street"}, {"near", "Westminster"}});
    EXPECT_NE(s["center"]["place"].get<std::string>().find("10 Downing Street"), std::string::npos);
    const auto sent = up->requests(kSearch);
    ASSERT_EQ(sent.size(), 2u);
    EXPECT_EQ(sent[0].param("q"), "Westminster");
    EXPECT_EQ(sent[0].param("limit"), "1");
    EXPECT_EQ(sent[1].param("q"), "Downing Street");
}

TEST_F(Places, SearchLimits) {
    refused("search", json::object(), 400, "query");
    refused("search", {{"query", "x"}, {"lat", 51}, {"lon", 0}, {"radius", 50001}}, 400, "radius");
    refused("search", {{"query", "x"}, {"lat", 51}, {"lon", 0}, {"radius", 0}}, 400, "radius");
    refused("search", {{"query", "x"}, {"lat", 51}}, 400, "lat, lon: give both");
    refused("search", {{"query", "x"}, {"lat", 51}, {"lon", 0}, {"near", "Soho"}}, 400,
            "near: give a place name or lat and lon, not both");
    EXPECT_TRUE(up->requests().empty());
}

TEST_F(Places, NearbyIsNearestFirstWithOpenNowWhereKnown) {
    const json n = ok("nearby", {{"lat", 51.5033635}, {"lon", -0.1276248}});
    EXPECT_EQ(n["radius"], 1000);
    EXPECT_EQ(n["time_zone"], "Europe/London");
    ASSERT_EQ(n["count"], 4);
    EXPECT_EQ(n["points"][0]["name"], "The Red Lion");
    EXPECT_EQ(n["points"][0]["open_now"], true);  // 24/7
    EXPECT_LT(n["points"][0]["distance_m"].get<double>(), 50);
    EXPECT_EQ(n["points"][1]["open_now"], nullptr);  // no opening_hours
    EXPECT_TRUE(n["points"][2]["open_now"].is_boolean());
    EXPECT_EQ(n["points"][3]["open_now"], nullptr);  // months: not understood
    const auto sent = up->requests(kOverpass);
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_NE(sent[0].param("data").find("nwr(around:1000,51.5033635,-0.1276248)"),
              std::string::npos)
        << sent[0].param("data");
}

TEST_F(Places, NearbyWithAQueryNearAPlaceName) {
    const json n = ok("nearby", {{"near", "Downing Street"}, {"query", "cafe"}, {"radius", 300}});
    EXPECT_EQ(n["radius"], 300);
    EXPECT_EQ(n["query"], "cafe");
    const auto sent = up->requests(kOverpass);
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_NE(sent[0].param("data").find("(around:300,51.5033635,-0.1276248)"), std::string::npos);
    EXPECT_NE(sent[0].param("data").find("~\"cafe\",i]"), std::string::npos);
}

TEST_F(Places, NearbyLimits) {
    refused("nearby", {{"lat", 51}, {"lon", 0}, {"radius", 5001}}, 400, "radius");
    refused("nearby", {{"lat", 51}, {"lon", 0}, {"query", std::string(101, 'q')}}, 400, "query");
    refused("nearby", json::object(), 400, "near, lat, lon");
    up->serve(kSearch, FakeUpstream::fixture("nominatim", "search_empty.json"));
    refused("nearby", {{"near", "Atlantis"}}, 404, "near: no place found for 'Atlantis'");
}

TEST_F(Places, ElevationInMetresAndFeet) {
    const json e = ok("elevation", {{"lat", 51.5033}, {"lon", -0.1276}});
    EXPECT_EQ(e["elevation_m"], 38.0);
    EXPECT_EQ(e["elevation_ft"], 124.7);
    EXPECT_NE(e["model"].get<std::string>().find("GLO-90"), std::string::npos);
    const auto sent = up->requests(kElevation);
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].param("latitude"), "51.5033");
    EXPECT_EQ(sent[0].param("longitude"), "-0.1276");
    const json named = ok("elevation", {{"place", "10 Downing Street"}});
    EXPECT_NE(named["place"].get<std::string>().find("Downing Street"), std::string::npos);
}

TEST_F(Places, ElevationLimits) {
    refused("elevation", json::object(), 400, "place, lat, lon");
    refused("elevation", {{"lon", 0}}, 400, "lat, lon: give both");
    refused("elevation", {{"place", std::string(201, 'p')}}, 400, "place");
}

// ---- per provider: 5xx, timeout, malformed, cache --------------------------------------------

TEST_F(Places, NominatimFailures) {
    up->serve(kSearch, FakeUpstream::status(500, "{\"error\":\"internal\"}"));
    refused("geocode", {{"address", "five hundred"}}, 502, "Nominatim answered 500");
    up->serve(kSearch, FakeUpstream::hang());
    refused("geocode", {{"address", "silence"}}, 504, "Nominatim did not answer in time");
    up->serve(kSearch, FakeUpstream::status(200, "<html>maintenance</html>", "text/html"));
    refused("geocode", {{"address", "html"}}, 502, "Nominatim answered a malformed body");
    up->serve(kSearch, FakeUpstream::status(200, "[{\"lat\":\"51\"}]"));
    refused("geocode", {{"address", "half a place"}}, 502, "Nominatim answered a malformed body");
    up->serve(kReverse, FakeUpstream::status(200, "[]"));
    refused("address", {{"lat", 52.25}, {"lon", -1.25}}, 502,
            "Nominatim answered a malformed body");
}

TEST_F(Places, NominatimRepeatsComeFromTheCache) {
    ok("geocode", {{"address", "cached street"}});
    ok("geocode", {{"address", "cached street"}});
    EXPECT_EQ(up->requests(kSearch).size(), 1u);
    ok("address", {{"lat", 53.5}, {"lon", -2.25}});
    ok("address", {{"lat", 53.5}, {"lon", -2.25}});
    EXPECT_EQ(up->requests(kReverse).size(), 1u);
}

TEST_F(Places, OverpassFailures) {
    up->serve(kOverpass, FakeUpstream::status(502, "<html>bad gateway</html>", "text/html"));
    refused("nearby", {{"lat", 52.1}, {"lon", -1.1}}, 502, "Overpass API answered 502");
    up->serve(kOverpass, FakeUpstream::hang());
    refused("nearby", {{"lat", 52.2}, {"lon", -1.2}}, 504, "Overpass API did not answer in time");
    up->serve(kOverpass, FakeUpstream::fixture("overpass", "runtime_error.json"));
    refused("nearby", {{"lat", 52.3}, {"lon", -1.3}}, 502,
            "Overpass API answered a malformed body: remark: runtime error");
    up->serve(kOverpass, FakeUpstream::status(200, "{\"version\":0.6}"));
    refused("nearby", {{"lat", 52.4}, {"lon", -1.4}}, 502,
            "Overpass API answered a malformed body");
}

TEST_F(Places, OverpassRepeatsComeFromTheCache) {
    ok("nearby", {{"lat", 52.5}, {"lon", -1.5}});
    ok("nearby", {{"lat", 52.5}, {"lon", -1.5}});
    EXPECT_EQ(up->requests(kOverpass).size(), 1u);
    up->serve(kOverpass, FakeUpstream::fixture("overpass", "empty.json"));
    const json empty = ok("nearby", {{"lat", 52.6}, {"lon", -1.6}});
    EXPECT_EQ(empty["count"], 0);
}

TEST_F(Places, ElevationFailures) {
    up->serve(kElevation, FakeUpstream::status(500));
    refused("elevation", {{"lat", 54.1}, {"lon", -2.1}}, 502,
            "Open-Meteo Elevation API answered 500");
    up->serve(kElevation, FakeUpstream::hang());
    refused("elevation", {{"lat", 54.2}, {"lon", -2.2}}, 504,
            "Open-Meteo Elevation API did not answer in time");
    up->serve(kElevation, FakeUpstream::fixture("open-meteo-elevation", "empty.json"));
    refused("elevation", {{"lat", 54.3}, {"lon", -2.3}}, 502,
            "Open-Meteo Elevation API answered a malformed body");
}

TEST_F(Places, ElevationRepeatsComeFromTheCache) {
    ok("elevation", {{"lat", 54.5}, {"lon", -2.5}});
    ok("elevation", {{"lat", 54.5}, {"lon", -2.5}});
    EXPECT_EQ(up->requests(kElevation).size(), 1u);
}

// ---- without the providers ---------------------------------------------------------------------

class PlacesUnconfigured : public SharedHostTest {};

TEST_F(PlacesUnconfigured, EachMethodNamesTheMissingSetting) {
    const auto refused = [&](const std::string& method, const json& args, const char* setting) {
        const HttpResult r = places_get(api, method, args);
        EXPECT_EQ(r.status, 503) << method << ": " << r.body;
        EXPECT_NE(message(r).find(setting), std::string::npos) << method << ": " << message(r);
    };
    refused("geocode", {{"address", "London"}}, "providers.nominatim.base_url");
    refused("address", {{"lat", 51.5}, {"lon", -0.12}}, "providers.nominatim.base_url");
    refused("search", {{"query", "cafe"}}, "providers.nominatim.base_url");
    refused("nearby", {{"lat", 51.5}, {"lon", -0.12}}, "providers.overpass.base_url");
    refused("elevation", {{"lat", 51.5}, {"lon", -0.12}},
            "providers.open-meteo-elevation.base_url");
    const HttpResult r = places_get(api, "geocode", {{"address", "London"}});
    EXPECT_NE(message(r).find("https://nominatim.openstreetmap.org"), std::string::npos)
        << message(r);
}

}  // namespace
