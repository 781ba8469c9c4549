// overpass — the Overpass API's JSON answers (https://dev.overpass-api.de/overpass-doc/en/
// targets/formats.html#json) read into the places service's points, and the OverpassQL that asks
// for them. No I/O.
//
// A point: {name, category, type, lat, lon, osm: "node/123", opening_hours, cuisine, address,
// phone, website} (members without a tag left out). Ways and relations give their centre
// (`out center`); an element without coordinates is skipped.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "nominatim.hpp"

namespace places {

// The tags that say what a point is, in the order the first one present becomes its
// category/type (amenity=cafe: category "amenity", type "cafe").
inline constexpr const char* kKindTags[] = {"amenity", "shop",   "tourism",    "leisure",
                                            "craft",   "office", "healthcare", "historic"};

// The OverpassQL (for ?data=) asking for named points of those kinds within `radius_m` metres of
// `at`, or, with `query`, any point whose name or kind tag (or cuisine) contains it (ignoring
// case); ways and relations by their centre; at most `max` elements.
std::string nearby_ql(Point at, double radius_m, const std::string& query, int max);

// `text` as a POSIX extended regular expression matching it literally, inside an OverpassQL
// double-quoted string (regex metacharacters and the quote and backslash escaped).
std::string overpass_literal(const std::string& text);

// The elements of an answer as points, in the answer's order. Malformed when `elements` is
// missing or not an array, or when Overpass reports a runtime error in `remark`.
std::vector<nlohmann::json> parse_elements(const nlohmann::json& body);

}  // namespace places
