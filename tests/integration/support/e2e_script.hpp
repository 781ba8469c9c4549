// e2e_script.hpp — runs one of tests/e2e's Node scripts (the browser ones: console.mjs,
// apps_sandbox.mjs) with tests/e2e's own node and packages, and reads its one JSON answer.
//
//   json out = run_e2e_script("console.mjs", config, home.path(), 240);
//
// The script gets `config` as its one argument, tests/e2e/node_modules/.bin first on PATH and
// HOME `home`. Fails the test (gtest EXPECT) when it exits non-zero, prints anything but a JSON
// object, or answers `timeout` or `error`; answers the object, or {} when there is none.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace platform::test {

// tests/e2e in the source tree.
std::string e2e_dir();

nlohmann::json run_e2e_script(const std::string& script, const nlohmann::json& config,
                              const std::string& home, int timeout_seconds);

}  // namespace platform::test
