// places — places on the map from OpenStreetMap and a 90-metre elevation model (the catalogue's
// `places` service; README.md):
//
//   address    GET {lat*, lon*}                 -> the place there (Nominatim /reverse); 404
//   elevation  GET {place | lat+lon}            -> {lat, lon, place?, elevation_m, elevation_ft, ...}
//   geocode    GET {address*}                   -> {query, results: [place]} (Nominatim /search)
//   nearby     GET {near | lat+lon, query, radius 1-5000 = 1000}
//                                               -> points from Overpass, nearest first, each
//                                                  with distance_m and open_now where known
//   search     GET {query*, near | lat+lon, radius 1-50000 = 2000}
//                                               -> Nominatim /search bounded around the point
//                                                  (nearest first), or anywhere without one
//
// A place: nominatim.hpp; a point: overpass.hpp; opening hours: opening_hours.hpp. `near` and
// `place` are place names geocoded through Nominatim first (404 when nothing matches).
// Upstreams through common/upstream, one Provider each (below). Lookups in lookups.cpp, nearby in
// nearby.cpp, the endpoint descriptions in places.cpp.
#pragma once

#include <common/upstream/upstream.hpp>
#include <optional>
#include <platform/sdk.hpp>
#include <string>

#include "nominatim.hpp"

class Places {
public:
    static void describe(platform::ServiceSpec<Places>& s);
    explicit Places(const platform::Host& host) : host_(host) {}

    platform::json address(platform::Request& r);
    platform::json elevation(platform::Request& r);
    platform::json geocode(platform::Request& r);
    platform::json nearby(platform::Request& r);
    platform::json search(platform::Request& r);

    // Nominatim asks for at most 1 request a second: its answers are kept a day.
    static const common::upstream::Provider kNominatim;
    static const common::upstream::Provider kOverpass;
    // Open-Meteo's Elevation API (Copernicus GLO-90), named apart from the weather's open-meteo.
    static const common::upstream::Provider kElevation;

    static constexpr int kGeocodeResults = 10;
    static constexpr int kSearchResults = 20;
    static constexpr int kNearbyResults = 50;
    static constexpr int kOverpassElements = 300;  // asked for, before sorting by distance
    static constexpr double kNearbyMaxRadius = 5000;
    static constexpr double kSearchMaxRadius = 50000;

    // Where a request points: lat and lon, or a place name (the argument `name_arg`, "near" or
    // "place") geocoded through Nominatim. nullopt when none is given and `required` is false.
    struct Located {
        places::Point at;
        platform::json place;  // the geocoded place, or null
    };
    std::optional<Located> locate(const platform::Request& r, const char* name_arg,
                                  bool required) const;

    // The IANA zone open_now is evaluated in at `at`: "Europe/London" in Great Britain and
    // Ireland, "" elsewhere (no zone lookup: open_now is then null). nearby.cpp.
    static std::string zone_at(places::Point at);

private:
    platform::Host host_;
};
