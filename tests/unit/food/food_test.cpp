// The food service's handlers in the SDK's fake host, with on_fetch answering from the fixtures:
// the upstream paths, query and headers each method sends, hygiene's argument rules, a product
// Open Food Facts does not know (404 naming the barcode), the cache, a malformed body (502).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "../support/plugin_under_test.hpp"
#include "fixtures.hpp"

namespace {

using namespace plugin_test;

using platform::test::fixture_text;

class FoodHandlers : public ::testing::Test {
protected:
    FoodHandlers() : plugin(host.load(platform_plugin_entry)) {
        host.on_fetch = [this](const platform_http_request_t& req) {
            const std::string provider = platform::copy(req.provider),
                              url = platform::copy(req.url);
            fetched.push_back(provider + " " + url);
            headers.push_back(json::parse(platform::copy(req.headers_json)));
            FakeHost::FakeHttp r;
            r.code = PLATFORM_OK;
            r.status = status;
            r.body = !body.empty()            ? body
                     : provider == "fsa"      ? fixture_text("fsa", "establishments.json")
                     : url.find("/cgi/") == 0 ? fixture_text("openfoodfacts", "search.json")
                     : status == 404 ? fixture_text("openfoodfacts", "product-not-found.json")
                                     : fixture_text("openfoodfacts", "product-3017620422003.json");
            return r;
        };
    }
    int status = 200;
    std::string body;
    std::vector<std::string> fetched;
    std::vector<json> headers;
    FakeHost host;
    FakePlugin plugin;
};

TEST_F(FoodHandlers, HygieneNeedsANamePlaceOrPoint) {
    Reply r = plugin.call("hygiene", json::object());
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    for (const char* arg : {"name", "where", "lat", "lon"})
        EXPECT_NE(r.body.find(arg), std::string::npos) << r.body;
    r = plugin.call("hygiene", {{"lon", -1.25}});
    EXPECT_EQ(r.code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_NE(r.body.find("lat"), std::string::npos) << r.body;
    EXPECT_EQ(plugin.call("hygiene", {{"name", "crown"}, {"limit", 31}}).code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("hygiene", {{"name", "crown"}, {"limit", 0}}).code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_TRUE(fetched.empty());
}

TEST_F(FoodHandlers, HygieneAsksTheFsaVersion2) {
    json a = ok_json(plugin.call("hygiene", {{"name", "crown"}, {"where", "Oxford"}}));
    EXPECT_EQ(a["count"], 3);
    EXPECT_EQ(fetched.back(),
              "fsa /Establishments?name=crown&address=Oxford&pageNumber=1&pageSize=10");
    EXPECT_EQ(headers.back().value("x-api-version", ""), "2");
    a = ok_json(plugin.call("hygiene", {{"lat", 51.752}, {"lon", -1.2577}, {"limit", 30}}));
    EXPECT_EQ(fetched.back(),
              "fsa /Establishments?latitude=51.752&longitude=-1.2577&sortOptionKey=distance&"
              "pageNumber=1&pageSize=30");
    EXPECT_TRUE(a["establishments"][0].contains("distance_km"));
}

TEST_F(FoodHandlers, ProductByBarcodeAndUnknownIs404) {
    EXPECT_EQ(plugin.call("product", {{"barcode", "12345"}}).code, PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("product", {{"barcode", "123456789012345"}}).code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("product", {{"barcode", "30176204220a"}}).code,
              PLATFORM_INVALID_ARGUMENT);
    json p = ok_json(plugin.call("product", {{"barcode", "3017620422003"}}));
    EXPECT_EQ(p["name"], "Nutella");
    EXPECT_EQ(fetched.back().substr(0, 53),
              "openfoodfacts /api/v2/product/3017620422003.json?fiel");
    status = 404;
    Reply r = plugin.call("product", {{"barcode", "0000000000000"}});
    EXPECT_EQ(r.code, PLATFORM_NOT_FOUND);
    EXPECT_NE(r.body.find("barcode"), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("0000000000000"), std::string::npos) << r.body;
    status = 200;  // status 0 in a 200 is the same
    body = fixture_text("openfoodfacts", "product-not-found.json");
    EXPECT_EQ(plugin.call("product", {{"barcode", "000000"}}).code, PLATFORM_NOT_FOUND);
}

TEST_F(FoodHandlers, SearchSendsTheLimit) {
    EXPECT_EQ(plugin.call("search", {{"query", "nutella"}, {"limit", 26}}).code,
              PLATFORM_INVALID_ARGUMENT);
    EXPECT_EQ(plugin.call("search", json::object()).code, PLATFORM_INVALID_ARGUMENT);
    json a = ok_json(plugin.call("search", {{"query", "nut spread"}, {"limit", 3}}));
    EXPECT_EQ(a["count"], 3);
    EXPECT_NE(fetched.back().find("search_terms=nut%20spread"), std::string::npos);
    EXPECT_NE(fetched.back().find("page_size=3"), std::string::npos);
    EXPECT_NE(fetched.back().find("json=1"), std::string::npos);
}

TEST_F(FoodHandlers, TheCacheAnswersARepeatAMalformedBodyIs502) {
    ok_json(plugin.call("product", {{"barcode", "3017620422003"}}));
    ok_json(plugin.call("product", {{"barcode", "3017620422003"}}));
    EXPECT_EQ(fetched.size(), 1u);
    body = R"({"products": 3})";
    Reply r = plugin.call("search", {{"query", "x"}});
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.body.find("Open Food Facts answered a malformed body"), std::string::npos)
        << r.body;
    body = "{}";
    r = plugin.call("hygiene", {{"where", "Leeds"}});
    EXPECT_EQ(r.code, PLATFORM_BAD_GATEWAY);
    EXPECT_NE(r.body.find("Food Standards Agency"), std::string::npos) << r.body;
}

}  // namespace
