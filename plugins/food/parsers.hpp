// parsers.hpp — each upstream's body read into the food service's answer. Pure functions over JSON
// (no host), so that the unit tests run them on the fixtures in tests/fixtures/<provider>/. A body
// not in the documented shape throws common::upstream::Malformed (the 502 naming the upstream); a
// missing optional field is null in the answer.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace food {

// A point to measure distances from (hygiene with lat and lon).
struct Point {
    double lat = 0, lon = 0;
};

// Kilometres between two points on a sphere of the Earth's mean radius (haversine).
double distance_km(double lat1, double lon1, double lat2, double lon2);

// The FSA's /Establishments (API version 2): {"establishments": [{id, name, type, address,
// postcode, rating, rating_date, authority, lat, lon, scores {hygiene, structural, management},
// distance_km (with a point)}], "count", "total"}, in the FSA's order (nearest first when asked by
// distance).
nlohmann::json establishments_from(const nlohmann::json& body, const std::optional<Point>& from);

// Open Food Facts' /api/v2/product/<barcode>.json: {barcode, name, brand, ingredients, allergens
// [..], nutrition_per_100g {energy_kcal, fat_g, saturated_fat_g, carbohydrates_g, sugars_g,
// fiber_g, proteins_g, salt_g}, nutrition_grade (a-e), processing_level (NOVA 1-4)}; nullopt
// when Open Food Facts has no such product (status 0).
std::optional<nlohmann::json> product_from(const nlohmann::json& body);

// Open Food Facts' search: {"products": [{barcode, name, brand, nutrition_grade,
// processing_level}], "count", "total"}, products without a barcode left out, at most `limit`.
nlohmann::json products_from(const nlohmann::json& body, std::size_t limit);

}  // namespace food
