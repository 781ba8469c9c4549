// clocks.hpp — fixed clocks for model-builtin's tests: "now" as RFC 3339 in an IANA zone.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "clock.hpp"

namespace builtin_test {

// Wednesday 25 November 2026, 10:00 in Paris (+01:00).
constexpr const char* kParisNow = "2026-11-25T10:00:00+01:00";

inline builtin::LocalClock clock_at(const std::string& now, const std::string& zone) {
    auto tz = common::time::TimeZone::load(zone);
    EXPECT_NE(tz, nullptr) << zone << " is missing from /usr/share/zoneinfo";
    return builtin::LocalClock::from_context({{"now", now}, {"timezone", zone}}, 0);
}

inline builtin::LocalClock paris() {
    return clock_at(kParisNow, "Europe/Paris");
}

}  // namespace builtin_test
