// profiles.hpp — the source tree's profiles (profiles/<name>.yaml) and the variants tests write of
// them before starting a host on one:
//
//   HostProcess::Options o;
//   o.profile = test_profile_with(dir.path() + "/limited.yaml", "http: {header_timeout_ms: 1000}");
//   HostProcess host(o);
//
// Each function reads or writes files on the calling thread; a profile that cannot be read throws.
#pragma once

#include <string>

namespace platform::test {

// The text of the source tree's profiles/<name>.yaml.
std::string profile_text(const std::string& name);

// The text of profiles/test.yaml, for tests that write a variant of it.
std::string test_profile_text();

// Writes profiles/test.yaml followed by `extra` (YAML sections) to `path`; answers `path`.
std::string test_profile_with(const std::string& path, const std::string& extra);

// `profile` with `settings` ("key: value" lines) added as the plugin_config of `plugin`; throws
// when the profile has no plugin_config section.
std::string with_plugin_config(std::string profile, const std::string& plugin,
                               const std::string& settings);

// `profile` (profiles/test.yaml's text) with its in-memory store replaced by store-sqlite at
// `db_path`, so what is stored outlives the host process; throws when it has no store-memory.
std::string with_sqlite_store(std::string profile, const std::string& db_path);

// Writes the `local` profile (auth-local: real accounts, each with a time zone) on a manual
// business clock (the test-only clock plugin, privileged) to `dir`/manual.yaml; answers the path.
// PLATFORM_ADMIN_SECRET must be set for a host using it.
std::string manual_clock_local_profile(const std::string& dir);

}  // namespace platform::test
