// food — food hygiene ratings of UK businesses and packaged food products, from public keyless
// APIs (the catalogue's `food` service; README.md):
//
//   hygiene  GET {name, where, lat, lon, limit 1-30 = 10}   the FSA's ratings (one of name, where,
//                                                            lat+lon required)
//   product  GET {barcode* (6-14 digits)}                    Open Food Facts: one product
//   search   GET {query*, limit 1-25 = 10}                   Open Food Facts: products, a barcode each
//
// Each method fetches through common/upstream (cache, 503/502/504), then a parser (parsers.hpp)
// turns the upstream's body into the answer.
#pragma once

#include <platform/sdk.hpp>

#include "common/upstream/upstream.hpp"

namespace food {

// The upstreams, one each (profile: outbound.providers.<name>.base_url).
extern const common::upstream::Provider kFsa;
extern const common::upstream::Provider kOpenFoodFacts;

}  // namespace food

class Food {
public:
    static void describe(platform::ServiceSpec<Food>& s);
    explicit Food(const platform::Host& host)
        : host_(host), fsa_(host_, food::kFsa), off_(host_, food::kOpenFoodFacts) {}

    platform::json hygiene(platform::Request& r);
    platform::json product(platform::Request& r);
    platform::json search(platform::Request& r);

private:
    platform::Host host_;
    common::upstream::Upstream fsa_, off_;
};
