// hazards — natural hazards now, from public keyless feeds (the catalogue's `hazards` service;
// README.md):
//
//   alerts  GET {level = green|orange|red, lat, lon, within_km = 1000 with a point}  GDACS
//   floods  GET {lat, lon, within_km = 30 with a point, severe}                      Environment Agency
//   quakes  GET {min = 2.5, period = hour|day|week|month, lat, lon, within_km = 500}  USGS
//
// Each method fetches its feed through common/upstream (cache, 503/502/504), then the parser of
// that feed (parsers.hpp, one file per feed) turns it into the answer, filtered and sorted.
#pragma once

#include <platform/sdk.hpp>

#include "common/upstream/upstream.hpp"

namespace hazards {

// The upstreams, one each (profile: outbound.providers.<name>.base_url).
extern const common::upstream::Provider kUsgs;
extern const common::upstream::Provider kGdacs;
extern const common::upstream::Provider kEaFloods;

}  // namespace hazards

class Hazards {
public:
    static void describe(platform::ServiceSpec<Hazards>& s);
    explicit Hazards(const platform::Host& host)
        : host_(host),
          usgs_(host_, hazards::kUsgs),
          gdacs_(host_, hazards::kGdacs),
          floods_(host_, hazards::kEaFloods) {}

    platform::json alerts(platform::Request& r);
    platform::json floods(platform::Request& r);
    platform::json quakes(platform::Request& r);

private:
    platform::Host host_;
    common::upstream::Upstream usgs_, gdacs_, floods_;
};
