// The food plugin's parsers (plugins/food/parsers.hpp) on the fixtures in
// tests/fixtures/{fsa,openfoodfacts}/ (the APIs' documented formats), on empty answers and on
// bodies that are not the API's.
#include "../../../plugins/food/parsers.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/upstream/upstream.hpp"
#include "fixtures.hpp"

namespace {

using common::upstream::Malformed;
using nlohmann::json;

using platform::test::fixture_json;

TEST(FoodHygiene, EstablishmentsInTheFsasOrder) {
    const json a =
        food::establishments_from(fixture_json("fsa", "establishments.json"), std::nullopt);
    EXPECT_EQ(a["count"], 3);
    EXPECT_EQ(a["total"], 57);
    const json& e = a["establishments"][0];
    EXPECT_EQ(e["id"], 1098765);
    EXPECT_EQ(e["name"], "The Crown");
    EXPECT_EQ(e["type"], "Pub/bar/nightclub");
    EXPECT_EQ(e["address"], "59A Cornmarket Street, Oxford");
    EXPECT_EQ(e["postcode"], "OX1 3HB");
    EXPECT_EQ(e["rating"], "5");
    EXPECT_EQ(e["rating_date"], "2024-03-12");
    EXPECT_EQ(e["authority"], "Oxford City");
    EXPECT_EQ(e["lat"], 51.752873);
    EXPECT_EQ(e["lon"], -1.258457);
    EXPECT_EQ(e["scores"], (json{{"hygiene", 0}, {"structural", 5}, {"management", 0}}));
    EXPECT_FALSE(e.contains("distance_km"));
    const json& awaiting = a["establishments"][2];
    EXPECT_EQ(awaiting["rating"], "AwaitingInspection");
    EXPECT_EQ(awaiting["address"], "4 Botley Road, Oxford, Oxfordshire");
    EXPECT_EQ(awaiting["lat"], json());
    EXPECT_EQ(awaiting["scores"]["hygiene"], json());
}

TEST(FoodHygiene, WithAPointEachHasItsDistance) {
    const json a = food::establishments_from(fixture_json("fsa", "establishments.json"),
                                             food::Point{51.752, -1.2577});
    EXPECT_NEAR(a["establishments"][0]["distance_km"].get<double>(), 0.11, 0.01);
    EXPECT_NEAR(a["establishments"][1]["distance_km"].get<double>(), 3.26, 0.01);
    EXPECT_FALSE(a["establishments"][2].contains("distance_km"));  // no geocode
}

TEST(FoodHygiene, NoMatchIsEmptyAMalformedBodyThrows) {
    EXPECT_EQ(food::establishments_from(fixture_json("fsa", "empty.json"), std::nullopt),
              (json{{"establishments", json::array()}, {"count", 0}, {"total", 0}}));
    EXPECT_THROW(food::establishments_from(json::array(), std::nullopt), Malformed);
    EXPECT_THROW(food::establishments_from({{"establishments", {{{"Name", "x"}}}}}, std::nullopt),
                 Malformed);
}

TEST(FoodProduct, EveryFieldOfAKnownProduct) {
    const auto p = food::product_from(fixture_json("openfoodfacts", "product-3017620422003.json"));
    ASSERT_TRUE(p);
    EXPECT_EQ((*p)["barcode"], "3017620422003");
    EXPECT_EQ((*p)["name"], "Nutella");
    EXPECT_EQ((*p)["brand"], "Nutella,Ferrero");
    EXPECT_EQ((*p)["quantity"], "400 g");
    EXPECT_EQ((*p)["ingredients"].get<std::string>().substr(0, 21), "Sugar, palm oil, haze");
    EXPECT_EQ((*p)["allergens"], (json{"milk", "nuts", "soybeans"}));
    EXPECT_EQ((*p)["nutrition_per_100g"], (json{{"energy_kcal", 539},
                                                {"fat_g", 30.9},
                                                {"saturated_fat_g", 10.6},
                                                {"carbohydrates_g", 57.5},
                                                {"sugars_g", 56.3},
                                                {"fiber_g", nullptr},
                                                {"proteins_g", 6.3},
                                                {"salt_g", 0.107}}));
    EXPECT_EQ((*p)["nutrition_grade"], "e");
    EXPECT_EQ((*p)["processing_level"], 4);
}

TEST(FoodProduct, ASparseProductHasNullsNumbersFromText) {
    const auto p = food::product_from(fixture_json("openfoodfacts", "product-sparse.json"));
    ASSERT_TRUE(p);
    EXPECT_EQ((*p)["name"], json());
    EXPECT_EQ((*p)["brand"], "Mars");
    EXPECT_EQ((*p)["ingredients"], json());
    EXPECT_EQ((*p)["allergens"], json::array());
    EXPECT_EQ((*p)["nutrition_per_100g"]["energy_kcal"], 449.0);
    EXPECT_EQ((*p)["nutrition_per_100g"]["fat_g"], json());
    EXPECT_EQ((*p)["nutrition_grade"], json());  // "unknown"
    EXPECT_EQ((*p)["processing_level"], 4);      // "4"
}

TEST(FoodProduct, NotFoundIsNulloptAMalformedBodyThrows) {
    EXPECT_FALSE(food::product_from(fixture_json("openfoodfacts", "product-not-found.json")));
    EXPECT_THROW(food::product_from(json::object()), Malformed);
    EXPECT_THROW(food::product_from({{"status", 1}}), Malformed);
    EXPECT_THROW(food::product_from({{"status", 1}, {"product", {{"nutriments", 3}}}}), Malformed);
}

TEST(FoodSearch, ProductsWithABarcodeUpToTheLimit) {
    const json a = food::products_from(fixture_json("openfoodfacts", "search.json"), 10);
    EXPECT_EQ(a["count"], 4);  // one of the five has no code
    EXPECT_EQ(a["total"], 1742);
    EXPECT_EQ(a["products"][0], (json{{"barcode", "3017620422003"},
                                      {"name", "Nutella"},
                                      {"brand", "Nutella,Ferrero"},
                                      {"quantity", "400 g"},
                                      {"nutrition_grade", "e"},
                                      {"processing_level", 4}}));
    EXPECT_EQ(a["products"][3]["barcode"], "20267605");
    EXPECT_EQ(a["products"][3]["nutrition_grade"], "d");
    EXPECT_EQ(food::products_from(fixture_json("openfoodfacts", "search.json"), 2)["count"], 2);
}

TEST(FoodSearch, NoMatchIsEmptyAMalformedBodyThrows) {
    EXPECT_EQ(food::products_from(fixture_json("openfoodfacts", "search-empty.json"), 10),
              (json{{"products", json::array()}, {"count", 0}, {"total", 0}}));
    EXPECT_THROW(food::products_from({{"count", 0}}, 10), Malformed);
    EXPECT_THROW(food::products_from({{"products", {"x"}}}, 10), Malformed);
}

}  // namespace
