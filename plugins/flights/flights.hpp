// flights — aircraft in the air and on the ground from ADS-B receivers, and flight times from a
// schedule provider (the catalogue's `flights` service; README.md):
//
//   airport   GET {code*}                              -> an airport's live ground, approach and
//                                                         climb-out (ADS-B within 10 nm)
//   overhead  GET {near, lat, lon, radius 1-250 = 30}  -> aircraft nearest first (ADS-B)
//   status    GET {flight, airport, direction = arrivals|departures}
//                                                      -> scheduled, estimated and actual times
//                                                         (schedule provider `flight-status`)
//   track     GET {flight*}                            -> the airborne aircraft with that flight
//                                                         number, callsign or registration (ADS-B)
//
// Files: adsb (the ADS-B format and what is computed from it), airports (the embedded airport and
// airline tables), schedule (the schedule provider's format). Every upstream call goes through
// common/upstream.
#pragma once

#include <platform/sdk.hpp>

#include "common/upstream/upstream.hpp"

namespace flights {

// api.adsb.lol v2: keyless, ADSBExchange v2 format. Positions are live: kept 15 seconds.
inline const common::upstream::Provider kAdsb{"adsb", "adsb.lol", "https://api.adsb.lol",
                                              15 * 1000};
// A schedule provider in the AviationStack format (keyed: its access key as the operator's
// api_key, e.g. api_key_header "?access_key"); times change by the minute.
inline const common::upstream::Provider kFlightStatus{"flight-status", "the flight status provider",
                                                      "https://api.aviationstack.com",
                                                      2 * 60 * 1000, true};

// Nautical miles around an airport that flights/airport watches.
inline constexpr double kAirportRadiusNm = 10;
inline constexpr int kMaxRadiusNm = 250;

}  // namespace flights

class Flights {
public:
    static void describe(platform::ServiceSpec<Flights>& s);
    explicit Flights(const platform::Host& host) : host_(host) {}

    platform::json airport(platform::Request& r);
    platform::json overhead(platform::Request& r);
    platform::json status(platform::Request& r);
    platform::json track(platform::Request& r);

private:
    platform::Host host_;
};
