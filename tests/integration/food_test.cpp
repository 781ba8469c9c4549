// The food service (plugins/food/) through the real host on the `test` profile, its upstreams (the
// FSA's ratings API and Open Food Facts) played by a FakeUpstream serving the fixtures of
// tests/fixtures/<provider>/ (outbound.providers.<name>.base_url points at it): each method's
// answer and limits, what it asks upstream, each provider's 5xx (502), silence (504) and malformed
// body (502), the cache answering a repeat; and, on a host without the providers, the 503 naming
// the setting. Cached answers expire on the manual business clock (expire_cache).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "api_answers.hpp"
#include "fake_upstream.hpp"
#include "profiles.hpp"
#include "shared_host_test.hpp"
#include "upstream_host_test.hpp"

using nlohmann::json;
using namespace platform::test;

namespace {

const std::string kEstablishments = "/fsa/Establishments";
const std::string kNutella = "/openfoodfacts/api/v2/product/3017620422003.json";
const std::string kSearch = "/openfoodfacts/cgi/search.pl";

class Food : public UpstreamHostTest {
protected:
    static void SetUpTestSuite() { start_with("food", {{"fsa"}, {"openfoodfacts"}}); }
    // Each test starts with nothing cached and nothing recorded, its upstreams serving fixtures.
    void SetUp() override {
        expire_cache();
        up->forget();
        up->serve(kEstablishments, FakeUpstream::fixture("fsa", "establishments.json"));
        up->serve(kNutella, FakeUpstream::fixture("openfoodfacts", "product-3017620422003.json"));
        up->serve(kSearch, FakeUpstream::fixture("openfoodfacts", "search.json"));
    }

    // Moves the business clock past every cache lifetime, so that the next call asks upstream.
    void expire_cache() {
        ASSERT_EQ(api.post_json("/clock/advance", {{"ms", 25 * 3600 * 1000}}).status, 200);
    }
    static void expect_failure(const HttpResult& r, int status, const std::string& text) {
        EXPECT_EQ(r.status, status) << r.body;
        EXPECT_NE(r.body.find(text), std::string::npos) << r.body;
    }
};

TEST_F(Food, HygieneByNameAndPlace) {
    const json a = data_of(get("hygiene?name=crown&where=Oxford"));
    EXPECT_EQ(a.value("count", 0), 3) << a;
    EXPECT_EQ(a.value("total", 0), 57) << a;
    ASSERT_EQ(a["establishments"].size(), 3u);
    EXPECT_EQ(a["establishments"][0]["name"], "The Crown");
    EXPECT_EQ(a["establishments"][0]["rating"], "5");
    const auto seen = up->requests(kEstablishments);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].header("x-api-version"), "2");
    EXPECT_EQ(seen[0].param("name"), "crown");
    EXPECT_EQ(seen[0].param("address"), "Oxford");
    EXPECT_EQ(seen[0].param("pageSize"), "10");
}

TEST_F(Food, HygieneNearAPointAndItsLimits) {
    const json a = data_of(get("hygiene?lat=51.752&lon=-1.2577&limit=30"));
    ASSERT_EQ(a["establishments"].size(), 3u) << a;
    EXPECT_NEAR(a["establishments"][0]["distance_km"].get<double>(), 0.11, 0.01);
    auto seen = up->requests(kEstablishments);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].param("latitude"), "51.752");
    EXPECT_EQ(seen[0].param("longitude"), "-1.2577");
    EXPECT_EQ(seen[0].param("pageSize"), "30");
    data_of(get("hygiene?where=Leeds&limit=1"));
    EXPECT_EQ(up->requests(kEstablishments).back().param("pageSize"), "1");

    up->forget();
    const HttpResult none = get("hygiene");
    EXPECT_EQ(none.status, 400) << none.body;
    for (const char* arg : {"name", "where", "lat", "lon"})
        EXPECT_NE(none.body.find(arg), std::string::npos) << none.body;
    expect_400(get("hygiene?name=crown&limit=0"), "limit");
    expect_400(get("hygiene?name=crown&limit=31"), "limit");
    expect_400(get("hygiene?lat=51.7"), "lon");
    expect_400(get("hygiene?lat=91&lon=0"), "lat");
    expect_400(get("hygiene?name=" + std::string(101, 'a')), "name");
    EXPECT_TRUE(up->requests().empty());
}

TEST_F(Food, ProductByBarcode) {
    const json p = data_of(get("product?barcode=3017620422003"));
    EXPECT_EQ(p["name"], "Nutella");
    EXPECT_EQ(p["brand"], "Nutella,Ferrero");
    EXPECT_EQ(p["allergens"], (json{"milk", "nuts", "soybeans"}));
    EXPECT_EQ(p["nutrition_per_100g"]["sugars_g"], 56.3);
    EXPECT_EQ(p["nutrition_grade"], "e");
    EXPECT_EQ(p["processing_level"], 4);
    EXPECT_FALSE(up->requests(kNutella).empty());
    EXPECT_NE(up->requests(kNutella).back().param("fields").find("nutriments"), std::string::npos);
}

TEST_F(Food, ProductBarcodeLimitsAndAnUnknownOne) {
    expect_400(get("product"), "barcode");
    expect_400(get("product?barcode=12345"), "barcode");
    expect_400(get("product?barcode=123456789012345"), "barcode");
    expect_400(get("product?barcode=3017620a22003"), "barcode");
    EXPECT_TRUE(up->requests().empty());
    const std::string unknown = "/openfoodfacts/api/v2/product/123456.json";
    up->serve(unknown, FakeUpstream::fixture("openfoodfacts", "product-not-found.json",
                                             "application/json", 404));
    const HttpResult r = get("product?barcode=123456");
    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_NE(r.body.find("123456"), std::string::npos) << r.body;
    up->serve("/openfoodfacts/api/v2/product/12345678901234.json",
              FakeUpstream::fixture("openfoodfacts", "product-sparse.json"));
    EXPECT_EQ(data_of(get("product?barcode=12345678901234")).value("brand", ""), "Mars");
}

TEST_F(Food, SearchGivesABarcodeEach) {
    json a = data_of(get("search?query=nutella"));
    EXPECT_EQ(a.value("count", 0), 4) << a;
    EXPECT_EQ(a.value("total", 0), 1742) << a;
    for (const auto& p : a["products"]) EXPECT_TRUE(p["barcode"].is_string()) << p;
    auto seen = up->requests(kSearch);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].param("search_terms"), "nutella");
    EXPECT_EQ(seen[0].param("page_size"), "10");
    EXPECT_EQ(seen[0].param("json"), "1");
    a = data_of(get("search?query=hazelnut%20spread&limit=2"));
    EXPECT_EQ(a.value("count", 0), 2) << a;
    EXPECT_EQ(up->requests(kSearch).back().param("page_size"), "2");
    a = data_of(get("search?query=nut&limit=25"));
    EXPECT_EQ(up->requests(kSearch).back().param("page_size"), "25");
    expect_400(get("search"), "query");
    expect_400(get("search?query="), "query");
    expect_400(get("search?query=nutella&limit=0"), "limit");
    expect_400(get("search?query=nutella&limit=26"), "limit");
    EXPECT_EQ(up->requests(kSearch).size(), 3u);
}

TEST_F(Food, TheCacheAnswersARepeatWithoutAskingAgain) {
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(get("hygiene?name=crown").status, 200);
        EXPECT_EQ(get("product?barcode=3017620422003").status, 200);
        EXPECT_EQ(get("search?query=nutella").status, 200);
    }
    EXPECT_EQ(up->requests(kEstablishments).size(), 1u);
    EXPECT_EQ(up->requests(kNutella).size(), 1u);
    EXPECT_EQ(up->requests(kSearch).size(), 1u);
}

TEST_F(Food, AnUpstream5xxIs502NamingIt) {
    up->serve(kEstablishments, FakeUpstream::status(500, "Internal Server Error", "text/plain"));
    up->serve(kNutella, FakeUpstream::status(502, "<html>Bad Gateway</html>", "text/html"));
    expect_failure(get("hygiene?name=crown"), 502, "The Food Standards Agency answered 500");
    expect_failure(get("product?barcode=3017620422003"), 502, "Open Food Facts answered 502");
}

TEST_F(Food, AnUpstreamThatDoesNotAnswerIs504) {
    up->serve(kEstablishments, FakeUpstream::hang());
    up->serve(kSearch, FakeUpstream::hang());
    expect_failure(get("hygiene?name=crown"), 504, "The Food Standards Agency did not answer");
    expect_failure(get("search?query=nutella"), 504, "Open Food Facts did not answer in time");
}

TEST_F(Food, AMalformedBodyIs502NamingTheUpstream) {
    up->serve(kEstablishments, FakeUpstream::status(200, "<Establishments/>", "application/xml"));
    up->serve(kNutella, FakeUpstream::status(200, R"({"status":1,"product":"Nutella"})"));
    up->serve(kSearch, FakeUpstream::status(200, R"({"count":3})"));
    expect_failure(get("hygiene?name=crown"), 502,
                   "The Food Standards Agency answered a malformed body");
    expect_failure(get("product?barcode=3017620422003"), 502,
                   "Open Food Facts answered a malformed body");
    expect_failure(get("search?query=nutella"), 502, "Open Food Facts answered a malformed body");
}

// A host whose profile names neither provider.
class FoodUnconfigured : public SharedHostTest {};

TEST_F(FoodUnconfigured, EachMethodIs503NamingItsSetting) {
    const std::pair<const char*, const char*> cases[] = {
        {"hygiene?name=crown", "providers.fsa.base_url"},
        {"product?barcode=3017620422003", "providers.openfoodfacts.base_url"},
        {"search?query=nutella", "providers.openfoodfacts.base_url"}};
    for (const auto& [target, setting] : cases) {
        const HttpResult r = api.get(std::string("/api/v1/food/") + target);
        EXPECT_EQ(r.status, 503) << target << ": " << r.body;
        EXPECT_NE(r.body.find(setting), std::string::npos) << r.body;
    }
}

}  // namespace
