// transit — public transport: London's live arrivals, stops and line status (TfL), England's bus
// positions (BODS), British station boards (Rail Data Marketplace) and the published timetables
// of a country (Mobility Database) — the catalogue's `transit` service; README.md:
//
//   arrivals  GET {stop*}                                 -> live in London, timetable elsewhere
//   buses     GET {lat, lon, within_km 2 (<=25), limit 10} -> bus positions nearest first (England)
//   feeds     GET {country = GB}                          -> timetables carried and available
//   nearby    GET {lat*, lon*, radius 400 (<=2000) m}      -> stops nearest first with ids
//   status    GET {modes}                                 -> London lines' status
//   trains    GET {station, rows 1-20 = 10, arrivals}     -> a British station board
//
// Outside London, arrivals and nearby read the published GTFS timetable the profile names
// (providers.gtfs.base_url: its ZIP), held in memory (timetables.hpp) and listed by feeds.
//
// Files: tfl (TfL's formats and modes), bods (SIRI-VM over libxml2), rail (the board), feeds
// (the catalogue), gtfs_csv + gtfs_timetable (reading a GTFS feed), timetables (loading and
// holding it), timetable_answers (its answers in TfL's shapes). Every upstream call goes through
// common/upstream.
#pragma once

#include <platform/sdk.hpp>

#include "common/upstream/upstream.hpp"
#include "timetables.hpp"

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
// The setting that names the published GTFS timetable (timetables.hpp kGtfs).
inline const char* const kTimetableSetting = "providers.gtfs.base_url";
// How long a call waits for the timetable's first load before answering 503 "still loading".
inline constexpr int64_t kTimetableWaitMs = 20 * 1000;

}  // namespace transit

class Transit {
public:
    static void describe(platform::ServiceSpec<Transit>& s);
    explicit Transit(const platform::Host& host) : host_(host), timetables_(host) {}
    void start() { timetables_.start(); }
    void stop() { timetables_.stop(); }

    platform::json arrivals(platform::Request& r);
    platform::json buses(platform::Request& r);
    platform::json feeds(platform::Request& r);
    platform::json nearby(platform::Request& r);
    platform::json status(platform::Request& r);
    platform::json trains(platform::Request& r);

private:
    // TfL's live arrivals at one of its stops (name: as its search gave it, or "").
    platform::json live_arrivals(const common::upstream::Upstream& tfl, const std::string& id,
                                 std::string name);

    platform::Host host_;
    transit::Timetables timetables_;
};
