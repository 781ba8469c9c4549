// weather — forecasts, air quality, the sea and past weather for a point, and a plain lookup by
// place name (the catalogue's `weather` service; README.md):
//
//   forecast  GET {lat*, lon*}                        -> now, today's daylight, seven days
//   air       GET {lat*, lon*}                        -> AQI, particles, gases, UV, pollen
//   marine    GET {lat*, lon*, days 1-7 = 3}          -> waves and sea temperature (404 inland)
//   history   GET {lat*, lon*, start*, end*}          -> averages, rainfall, extremes (ERA5)
//   lookup    GET {place = London, day = today|tomorrow|"", focus = rain|""}
//
// Every answer comes from the Open-Meteo family (open_meteo.hpp) through common/upstream, one
// provider per API so that an operator can point each elsewhere: open-meteo (forecast),
// open-meteo-air, open-meteo-marine, open-meteo-archive, open-meteo-geocoding. Nothing is
// computed that the upstream did not say; without a provider's base_url the method answers 503
// naming it.
#pragma once

#include <platform/sdk.hpp>

#include "common/upstream/upstream.hpp"

class Weather {
public:
    static void describe(platform::ServiceSpec<Weather>& s);
    explicit Weather(const platform::Host& host) : host_(host) {}

    platform::json forecast(platform::Request& r);
    platform::json air(platform::Request& r);
    platform::json marine(platform::Request& r);
    platform::json history(platform::Request& r);
    platform::json lookup(platform::Request& r);

private:
    common::upstream::Upstream upstream(const common::upstream::Provider& p) const {
        return common::upstream::Upstream(host_, p);
    }
    platform::Host host_;
};
