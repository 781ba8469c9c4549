// state_files.hpp — the CLI's files under PLATFORM_HOME.
//
//   $PLATFORM_HOME/config.json   the environments added and the selected one (environments.hpp)
//   $PLATFORM_HOME/tokens.json   one login per environment (credentials.hpp)
//
// PLATFORM_HOME defaults to ~/.platform (created mode 0700). Both files are JSON objects, written
// mode 0600 and atomically (a temporary file in the same folder, fsync, rename), so a reader never
// sees half a file and a crash leaves the old one.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace platform::cli {

std::string platform_home();  // PLATFORM_HOME, else $HOME/.platform
std::string config_path();    // platform_home()/config.json
std::string tokens_path();    // platform_home()/tokens.json

// The object in the file; {} when it is missing or not a JSON object.
nlohmann::json read_state(const std::string& path);

// Replaces the file with `value` (indented), mode 0600. Throws std::runtime_error naming the path.
void write_state(const std::string& path, const nlohmann::json& value);

}  // namespace platform::cli
