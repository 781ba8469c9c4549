// fixtures.hpp — the upstream answers the external-data services' tests serve or parse:
// tests/fixtures/<provider>/<file>, each folder with a SOURCE note saying which published
// documentation the files follow (header-only; needs build_tree for the source folder).
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "build_tree.hpp"

namespace platform::test {

// The bytes of tests/fixtures/<provider>/<file>; throws naming the path when it is missing.
inline std::string fixture_text(const std::string& provider, const std::string& file) {
    const std::string path = source_dir() + "/tests/fixtures/" + provider + "/" + file;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("no fixture " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The same fixture parsed as JSON (throws when it is not).
inline nlohmann::json fixture_json(const std::string& provider, const std::string& file) {
    return nlohmann::json::parse(fixture_text(provider, file));
}

}  // namespace platform::test
