#include "food.hpp"

#include "parsers.hpp"

namespace schema = platform::schema;

using common::upstream::Options;
using common::upstream::Query;
using platform::json;

namespace food {

// Cache lifetimes: local authorities upload ratings daily; products change rarely (a day), and a
// search answers from the same products.
const common::upstream::Provider kFsa{"fsa", "The Food Standards Agency",
                                      "https://api.ratings.food.gov.uk", 6 * 60 * 60 * 1000};
const common::upstream::Provider kOpenFoodFacts{
    "openfoodfacts", "Open Food Facts", "https://world.openfoodfacts.org", 24 * 60 * 60 * 1000};

namespace {

// The fields of a product the answers use (Open Food Facts sends only these).
const char* kProductFields =
    "code,product_name,product_name_en,generic_name,brands,quantity,ingredients_text,"
    "allergens_tags,nutriments,nutriscore_grade,nutrition_grades,nova_group";
const char* kSearchFields =
    "code,product_name,product_name_en,generic_name,brands,quantity,nutriscore_grade,"
    "nutrition_grades,nova_group";

bool has(const platform::Request& r, const char* name) {
    const auto it = r.args().find(name);
    return it != r.args().end() && !it->is_null() && !(it->is_string() && it->empty());
}

}  // namespace
}  // namespace food

void Food::describe(platform::ServiceSpec<Food>& s) {
    s.id("food").version("1.0.0").service("v1.food").summary(
        "Food hygiene ratings of UK businesses (the Food Standards Agency) and packaged food "
        "products by barcode or by name (Open Food Facts)");
    s.get("hygiene")
        .title("Food hygiene ratings (UK)")
        .description(
            "Hygiene ratings of UK food businesses from the Food Standards Agency, found by "
            "`name`, by `where` (an address, town or postcode) and/or near a point (`lat` and "
            "`lon`, nearest first); give at least one. Answers {establishments: [{id, name, type, "
            "address, postcode, rating (0-5, or Exempt, AwaitingInspection, ...; Pass/Improvement "
            "Required in Scotland), rating_date, authority, lat, lon, scores: {hygiene, "
            "structural, management} (lower is better), distance_km (with a point)}], count, "
            "total (how many the FSA matched)}. Contains public sector information licensed "
            "under the Open Government Licence v3.0.")
        .schema(schema::object()
                    .str("name")
                    .max_len(100)
                    .doc("The business's name, or part of it")
                    .str("where")
                    .max_len(100)
                    .doc("An address, town or postcode")
                    .prop("lat", schema::latitude("Latitude of a point to search near (with lon)"))
                    .prop("lon", schema::longitude("Longitude of the point (with lat)"))
                    .prop("limit", schema::limit(30, 10,
                                                 "How many businesses (default 10, at "
                                                 "most 30)")))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Food::hygiene);
    s.get("product")
        .title("A food product by barcode")
        .description(
            "One packaged food product from Open Food Facts by its barcode (EAN/UPC, 6 to 14 "
            "digits); 404 when Open Food Facts does not know it. Answers {barcode, name, brand, "
            "quantity, ingredients, allergens: [e.g. \"milk\"], nutrition_per_100g: "
            "{energy_kcal, fat_g, saturated_fat_g, carbohydrates_g, sugars_g, fiber_g, "
            "proteins_g, salt_g}, nutrition_grade (Nutri-Score a-e), processing_level (NOVA 1 "
            "unprocessed to 4 ultra-processed)}; what Open Food Facts lacks is null. Data: Open "
            "Food Facts contributors, ODbL.")
        .schema(schema::object()
                    .str("barcode")
                    .pattern("^[0-9]{6,14}$")
                    .required()
                    .doc("The barcode: 6 to 14 digits"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Food::product);
    s.get("search")
        .title("Search food products")
        .description(
            "Packaged food products from Open Food Facts matching `query`, each with its barcode "
            "(for product). Answers {products: [{barcode, name, brand, quantity, "
            "nutrition_grade, processing_level}], count, total (how many Open Food Facts "
            "matched)}. Data: Open Food Facts contributors, ODbL.")
        .schema(schema::object()
                    .str("query")
                    .min_len(1)
                    .max_len(200)
                    .required()
                    .doc("Words to search for: a name, a brand")
                    .prop("limit", schema::limit(25, 10,
                                                 "How many products (default 10, at "
                                                 "most 25)")))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Food::search);
}

json Food::hygiene(platform::Request& r) {
    if (food::has(r, "lat") != food::has(r, "lon"))
        throw platform::invalid_argument(std::string(food::has(r, "lat") ? "lon" : "lat") +
                                         ": lat and lon go together; give both or neither");
    const bool point = food::has(r, "lat");
    if (!point && !food::has(r, "name") && !food::has(r, "where"))
        throw platform::invalid_argument(
            "name, where, lat and lon: give a name, a place (where) or a point (lat and lon)");
    Query q;
    if (food::has(r, "name")) q.str("name", r.str("name"));
    if (food::has(r, "where")) q.str("address", r.str("where"));
    std::optional<food::Point> from;
    if (point) {
        from = food::Point{r["lat"].get<double>(), r["lon"].get<double>()};
        q.num("latitude", from->lat).num("longitude", from->lon).str("sortOptionKey", "distance");
    }
    q.integer("pageNumber", 1).integer("pageSize", r.integer("limit", 10));
    Options o;
    o.headers = {{"x-api-version", "2"}, {"Accept", "application/json"}};
    const json body = fsa_.get_json("/Establishments" + q.text(), o);
    return fsa_.parse(body, [&](const json& j) { return food::establishments_from(j, from); });
}

json Food::product(platform::Request& r) {
    const std::string barcode = r.str("barcode");
    Options o;
    o.pass = {404};
    const auto a = off_.fetch(
        "/api/v2/product/" + barcode + ".json" + Query().str("fields", food::kProductFields).text(),
        o);
    const auto missing = [&] {
        return platform::not_found("barcode: Open Food Facts has no product " + barcode);
    };
    if (a.status == 404) throw missing();
    const json body = json::parse(a.body, nullptr, false);
    if (body.is_discarded()) throw off_.malformed("the body is not JSON");
    const auto p = off_.parse(body, [](const json& j) { return food::product_from(j); });
    if (!p) throw missing();
    return *p;
}

json Food::search(platform::Request& r) {
    const int64_t limit = r.integer("limit", 10);
    const json body = off_.get_json("/cgi/search.pl" + Query()
                                                           .str("search_terms", r.str("query"))
                                                           .str("search_simple", "1")
                                                           .str("action", "process")
                                                           .str("json", "1")
                                                           .integer("page_size", limit)
                                                           .str("fields", food::kSearchFields)
                                                           .text());
    return off_.parse(body, [&](const json& j) {
        return food::products_from(j, static_cast<std::size_t>(limit));
    });
}

PLATFORM_SERVICE(Food)
