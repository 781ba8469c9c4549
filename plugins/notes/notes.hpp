// notes — short notes keyed by title, owned by the caller (spec: hosted-assistant §4.2 "notes").
#pragma once

#include <platform/sdk.hpp>

class Notes {
public:
    static void describe(platform::ServiceSpec<Notes>& s);
    explicit Notes(const platform::Host& host) : host_(host) {}

    platform::json add(platform::Request& r);
    platform::json remove(platform::Request& r);
    platform::json get(platform::Request& r);
    platform::json list(platform::Request& r);

private:
    platform::Host host_;
};
