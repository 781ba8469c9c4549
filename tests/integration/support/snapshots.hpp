// snapshots.hpp — answers checked into tests/integration/snapshots/ and compared with today's.
//
//   auto then = snapshot("openapi.json", now);  // read back; or written anew (the test is skipped)
//   if (!then) return;                           // when PLATFORM_UPDATE_SNAPSHOTS is set
//   EXPECT_EQ(*then, now);
//
// A missing snapshot is a test failure that says how to write it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace platform::test {

// The snapshot `name` as it is checked in; nullopt after writing `now` as that snapshot (when the
// environment sets PLATFORM_UPDATE_SNAPSHOTS; the test is marked skipped) or when there is none
// (a failure is added).
std::optional<nlohmann::json> snapshot(const std::string& name, const nlohmann::json& now);

}  // namespace platform::test
