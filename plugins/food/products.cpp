// Open Food Facts' product and search answers (https://openfoodfacts.github.io/openfoodfacts-server/api/)
// read into the product and search answers.
#include <cmath>
#include <cstdlib>

#include "common/upstream/upstream.hpp"
#include "parsers.hpp"

namespace food {

using common::upstream::Malformed;
using common::upstream::text_or_null;
using nlohmann::json;

namespace {

// Open Food Facts writes numbers as numbers or as text.
json number_of(const json& v) {
    if (v.is_number()) return v;
    if (!v.is_string() || v.get<std::string>().empty()) return json();
    const std::string s = v.get<std::string>();
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    return end && *end == '\0' ? json(d) : json();
}

// The product's name: product_name, else its English name, else its generic name.
json name_of(const json& p) {
    for (const char* f : {"product_name", "product_name_en", "generic_name"})
        if (json n = text_or_null(p, f); n.is_string()) return n;
    return json();
}

// Nutri-Score a to e; null for "unknown", "not-applicable" and anything else.
json grade_of(const json& p) {
    for (const char* f : {"nutriscore_grade", "nutrition_grades"}) {
        const json g = text_or_null(p, f);
        if (g.is_string() && g.get<std::string>().size() == 1 && g.get<std::string>()[0] >= 'a' &&
            g.get<std::string>()[0] <= 'e')
            return g;
    }
    return json();
}

// The NOVA group, 1 (unprocessed) to 4 (ultra-processed); null when not computed.
json nova_of(const json& p) {
    const json n = number_of(p.value("nova_group", json()));
    if (!n.is_number()) return json();
    const double v = n.get<double>();
    return v >= 1 && v <= 4 && v == std::floor(v) ? json(static_cast<int>(v)) : json();
}

// "en:milk" -> "milk".
json allergens_of(const json& p) {
    json out = json::array();
    const json tags = p.value("allergens_tags", json::array());
    if (!tags.is_array()) throw Malformed("allergens_tags is not an array");
    for (const json& t : tags) {
        if (!t.is_string()) continue;
        const std::string s = t.get<std::string>();
        const auto colon = s.find(':');
        out.push_back(colon == std::string::npos ? s : s.substr(colon + 1));
    }
    return out;
}

}  // namespace

std::optional<json> product_from(const json& body) {
    if (!body.is_object() || !body.contains("status")) throw Malformed("the answer has no status");
    const json st = number_of(body["status"]);
    if (st.is_number() && st.get<double>() == 0) return std::nullopt;
    if (!body.contains("product") || !body["product"].is_object())
        throw Malformed("the answer has no product object");
    const json& p = body["product"];
    const json n = p.value("nutriments", json::object());
    if (!n.is_object()) throw Malformed("nutriments is not an object");
    const auto per100 = [&](const char* name) { return number_of(n.value(name, json())); };
    json code = text_or_null(body, "code");
    if (code.is_null()) code = text_or_null(p, "code");
    return json{{"barcode", code},
                {"name", name_of(p)},
                {"brand", text_or_null(p, "brands")},
                {"quantity", text_or_null(p, "quantity")},
                {"ingredients", text_or_null(p, "ingredients_text")},
                {"allergens", allergens_of(p)},
                {"nutrition_per_100g",
                 {{"energy_kcal", per100("energy-kcal_100g")},
                  {"fat_g", per100("fat_100g")},
                  {"saturated_fat_g", per100("saturated-fat_100g")},
                  {"carbohydrates_g", per100("carbohydrates_100g")},
                  {"sugars_g", per100("sugars_100g")},
                  {"fiber_g", per100("fiber_100g")},
                  {"proteins_g", per100("proteins_100g")},
                  {"salt_g", per100("salt_100g")}}},
                {"nutrition_grade", grade_of(p)},
                {"processing_level", nova_of(p)}};
}

json products_from(const json& body, std::size_t limit) {
    if (!body.is_object() || !body.contains("products") || !body["products"].is_array())
        throw Malformed("the answer has no products array");
    json out = json::array();
    for (const json& p : body["products"]) {
        if (!p.is_object()) throw Malformed("a product is not an object");
        const json code = text_or_null(p, "code");
        if (!code.is_string() || out.size() >= limit) continue;
        out.push_back({{"barcode", code},
                       {"name", name_of(p)},
                       {"brand", text_or_null(p, "brands")},
                       {"quantity", text_or_null(p, "quantity")},
                       {"nutrition_grade", grade_of(p)},
                       {"processing_level", nova_of(p)}});
    }
    const json total = number_of(body.value("count", json()));
    return {
        {"products", out}, {"count", out.size()}, {"total", total.is_number() ? total : json()}};
}

}  // namespace food
