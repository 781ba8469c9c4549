// The Food Standards Agency's ratings API, version 2
// (https://api.ratings.food.gov.uk/Help/Api/GET-Establishments) read into the hygiene answer.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/upstream/upstream.hpp"
#include "parsers.hpp"

namespace food {

using common::upstream::Malformed;
using common::upstream::text_or_null;
using nlohmann::json;

double distance_km(double lat1, double lon1, double lat2, double lon2) {
    constexpr double kRadiusKm = 6371.0088, kRad = M_PI / 180.0;
    const double dlat = (lat2 - lat1) * kRad, dlon = (lon2 - lon1) * kRad;
    const double a =
        std::sin(dlat / 2) * std::sin(dlat / 2) +
        std::cos(lat1 * kRad) * std::cos(lat2 * kRad) * std::sin(dlon / 2) * std::sin(dlon / 2);
    return 2 * kRadiusKm * std::asin(std::min(1.0, std::sqrt(a)));
}

namespace {

// A number the FSA writes as a number or as text ("-1.257677"); null when neither.
json number_of(const json& v) {
    if (v.is_number()) return v;
    if (!v.is_string() || v.get<std::string>().empty()) return json();
    const std::string s = v.get<std::string>();
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    return end && *end == '\0' ? json(d) : json();
}

}  // namespace

json establishments_from(const json& body, const std::optional<Point>& from) {
    if (!body.is_object() || !body.contains("establishments") || !body["establishments"].is_array())
        throw Malformed("the answer has no establishments array");
    json out = json::array();
    for (const json& e : body["establishments"]) {
        if (!e.is_object() || !e.contains("FHRSID") || !e.contains("BusinessName"))
            throw Malformed("an establishment has no FHRSID or BusinessName");
        std::string address;
        for (const char* line : {"AddressLine1", "AddressLine2", "AddressLine3", "AddressLine4"})
            if (const json t = text_or_null(e, line); t.is_string())
                address += (address.empty() ? "" : ", ") + t.get<std::string>();
        const json geo = e.value("geocode", json());
        const json lat = geo.is_object() ? number_of(geo.value("latitude", json())) : json();
        const json lon = geo.is_object() ? number_of(geo.value("longitude", json())) : json();
        const json sc = e.value("scores", json());
        const json date = text_or_null(e, "RatingDate");
        json item = {
            {"id", e["FHRSID"]},
            {"name", e["BusinessName"]},
            {"type", text_or_null(e, "BusinessType")},
            {"address", address.empty() ? json() : json(address)},
            {"postcode", text_or_null(e, "PostCode")},
            {"rating", e.contains("RatingValue") && !e["RatingValue"].is_null()
                           ? json(e["RatingValue"].is_string() ? e["RatingValue"].get<std::string>()
                                                               : e["RatingValue"].dump())
                           : json()},
            {"rating_date",
             date.is_string() ? json(date.get<std::string>().substr(0, 10)) : json()},
            {"authority", text_or_null(e, "LocalAuthorityName")},
            {"lat", lat},
            {"lon", lon},
            {"scores", sc.is_object()
                           ? json{{"hygiene", sc.value("Hygiene", json())},
                                  {"structural", sc.value("Structural", json())},
                                  {"management", sc.value("ConfidenceInManagement", json())}}
                           : json()}};
        if (from && lat.is_number() && lon.is_number())
            item["distance_km"] =
                std::round(distance_km(from->lat, from->lon, lat.get<double>(), lon.get<double>()) *
                           100) /
                100;
        out.push_back(std::move(item));
    }
    const json meta = body.value("meta", json());
    const json total = meta.is_object() ? meta.value("totalCount", json()) : json();
    return {{"establishments", out},
            {"count", out.size()},
            {"total", total.is_number() ? total : json(out.size())}};
}

}  // namespace food
