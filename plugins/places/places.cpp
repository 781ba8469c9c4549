#include "places.hpp"

namespace schema = platform::schema;

const common::upstream::Provider Places::kNominatim{
    "nominatim", "Nominatim", "https://nominatim.openstreetmap.org", 24 * 60 * 60 * 1000};
const common::upstream::Provider Places::kOverpass{"overpass", "Overpass API",
                                                   "https://overpass-api.de", 60 * 60 * 1000};
const common::upstream::Provider Places::kElevation{
    "open-meteo-elevation", "Open-Meteo Elevation API", "https://api.open-meteo.com",
    30LL * 24 * 60 * 60 * 1000};

namespace {

const char* kPlaceShape =
    "A place is {name?, display_name, lat, lon, category, type, importance, address: {road, "
    "city, postcode, country, country_code, ...}, bbox: {south, north, west, east}, osm: "
    "\"way/123\"} (members OpenStreetMap lacks are left out).";

schema::Object with_point(schema::Object o, const char* name_arg, const char* name_doc) {
    return o.str(name_arg)
        .min_len(1)
        .max_len(200)
        .doc(name_doc)
        .prop("lat", schema::latitude("Latitude in degrees (with lon, instead of a name)"))
        .prop("lon", schema::longitude("Longitude in degrees (with lat, instead of a name)"));
}

}  // namespace

void Places::describe(platform::ServiceSpec<Places>& s) {
    s.id("places")
        .version("1.0.0")
        .service("v1.places")
        .summary("Addresses, places and points of interest from OpenStreetMap, and elevations");
    s.get("address")
        .title("Address of a point")
        .description(std::string("Reverse geocoding through Nominatim (OpenStreetMap): the "
                                 "address at a point, as {lat, lon, place}; 404 when there is "
                                 "none. ") +
                     kPlaceShape)
        .schema(schema::object()
                    .prop("lat", schema::latitude("Latitude in degrees"))
                    .required()
                    .prop("lon", schema::longitude("Longitude in degrees"))
                    .required())
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Places::address);
    s.get("elevation")
        .title("Elevation of a point")
        .description(
            "Height above sea level of a place (its name, geocoded through Nominatim) or of lat "
            "and lon, from the Copernicus GLO-90 90-metre elevation model (Open-Meteo): {lat, "
            "lon, place? (the geocoded place's display_name), elevation_m, elevation_ft, model, "
            "source}. Metres and feet to 0.1.")
        .schema(with_point(schema::object(), "place", "A place name to geocode first"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Places::elevation);
    s.get("geocode")
        .title("Find an address")
        .description(std::string("Geocoding through Nominatim (OpenStreetMap): the places "
                                 "matching an address or place name, best first, at most 10: "
                                 "{query, results: [place]} (empty when nothing matches). ") +
                     kPlaceShape)
        .schema(schema::object().str("address").min_len(1).max_len(300).required().doc(
            "An address or place name, e.g. \"10 Downing Street, London\""))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Places::geocode);
    s.get("nearby")
        .title("Points of interest nearby")
        .description(
            "Named shops, amenities, attractions and the like within radius metres of a place "
            "(near, geocoded through Nominatim) or of lat and lon, from OpenStreetMap through "
            "the Overpass API; with query, those whose name or kind (cafe, pharmacy, ...) "
            "contains it. Nearest first, at most 50: {center: {lat, lon, place?}, radius, query, "
            "time_zone, evaluated_at, count, points: [{name, category, type, lat, lon, "
            "distance_m, osm, opening_hours?, open_now, cuisine?, address?, phone?, website?}]}. "
            "open_now is true or false from the opening_hours tag at the current time in "
            "time_zone (Europe/London in Great Britain and Ireland), and null where unknown: no "
            "tag, a form not understood, or a point elsewhere.")
        .schema(with_point(schema::object(), "near", "A place name to search around")
                    .str("query")
                    .min_len(1)
                    .max_len(100)
                    .doc("What to look for: a name or a kind, e.g. \"cafe\"")
                    .number("radius")
                    .range(1, kNearbyMaxRadius)
                    .def(1000)
                    .doc("Metres around the point, 1-5000"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Places::nearby);
    s.get("search")
        .title("Search for places")
        .description(
            std::string(
                "Places matching a query through Nominatim (OpenStreetMap), within radius "
                "metres of a place (near, geocoded first) or of lat and lon, nearest first, "
                "each with distance_m; without a point, anywhere, best first. At most 20: "
                "{query, center?: {lat, lon, place?}, radius?, count, results: [place]}. ") +
            kPlaceShape)
        .schema(schema::object()
                    .str("query")
                    .min_len(1)
                    .max_len(200)
                    .required()
                    .doc("What to look for, e.g. \"pharmacy\" or \"Tate Modern\"")
                    .include(with_point(schema::object(), "near", "A place name to search around"))
                    .number("radius")
                    .range(1, kSearchMaxRadius)
                    .def(2000)
                    .doc("Metres around the point, 1-50000"))
        .access(platform::Access::public_)
        .read_only()
        .open_world()
        .handler(&Places::search);
}

PLATFORM_SERVICE(Places)
