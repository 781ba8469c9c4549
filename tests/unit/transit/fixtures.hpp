// fixtures.hpp — the upstream fixtures (tests/fixtures/<provider>/) as text and JSON for the
// transit and flights parser tests. Header-only.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "build_tree.hpp"

namespace fixtures {

inline std::string text(const std::string& provider, const std::string& file) {
    const std::string path =
        platform::test::source_dir() + "/tests/fixtures/" + provider + "/" + file;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("no fixture " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline nlohmann::json json(const std::string& provider, const std::string& file) {
    return nlohmann::json::parse(text(provider, file));
}

}  // namespace fixtures
