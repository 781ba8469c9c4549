// transit — public transport: London's live arrivals, stops and line status (TfL), England's bus
// positions (BODS), British station boards (Rail Data Marketplace) and the published timetables
// of a country (Mobility Database) — the catalogue's `transit` service; README.md:
//
//   arrivals  GET {stop*}                                 -> live arrivals at a London stop
//   buses     GET {lat, lon, within_km 2 (<=25), limit 10} -> bus positions nearest first (England)
//   feeds     GET {country = GB}                          -> timetables carried and available
//   nearby    GET {lat*, lon*, radius 400 (<=2000) m}      -> stops nearest first with ids
//   status    GET {modes}                                 -> London lines' status
//   trains    GET {station, rows 1-20 = 10, arrivals}     -> a British station board
//
// Files: tfl (TfL's formats and modes), bods (SIRI-VM over libxml2), rail (the board), feeds
// (the catalogue). Every upstream call goes through common/upstream.
#pragma once

#include <platform/sdk.hpp>

#include "common/upstream/upstream.hpp"

namespace transit {

// TfL Unified API: keyless (an optional app_key: api_key_header "?app_key").
inline const common::upstream::Provider kTfl{"tfl", "TfL", "https://api.tfl.gov.uk", 30 * 1000};
// Bus Open Data Service SIRI-VM: keyed (api_key_header "?api_key").
inline const common::upstream::Provider kBods{"bods", "BODS", "https://data.bus-data.dft.gov.uk",
                                              20 * 1000, true};
// Rail Data Marketplace Live Departure Board (LDBWS REST, JSON): keyed (api_key_header "x-apikey").
inline const common::upstream::Provider kRail{
    "rail", "the Live Departure Board",
    "https://api1.raildata.org.uk/1010-live-departure-board-dep1_2", 30 * 1000, true};
// Mobility Database catalogue: keyed (an access token: api_key_header "Authorization: Bearer").
inline const common::upstream::Provider kMobilityDatabase{
    "mobility-database", "the Mobility Database", "https://api.mobilitydatabase.org",
    24 * 60 * 60 * 1000, true};
// The published GTFS timetable arrivals outside London would come from: named by the 503 (this
// version reads no GTFS; docs/decisions.md 55).
inline const char* const kTimetableSetting = "providers.gtfs.base_url";

}  // namespace transit

class Transit {
public:
    static void describe(platform::ServiceSpec<Transit>& s);
    explicit Transit(const platform::Host& host) : host_(host) {}

    platform::json arrivals(platform::Request& r);
    platform::json buses(platform::Request& r);
    platform::json feeds(platform::Request& r);
    platform::json nearby(platform::Request& r);
    platform::json status(platform::Request& r);
    platform::json trains(platform::Request& r);

private:
    platform::Host host_;
};
