// fixture.hpp — the upstream fixtures of tests/fixtures/<provider>/ as text and JSON, for the
// places and maps unit tests. Header-only (included by a relative path).
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "build_tree.hpp"

namespace upstream_fixture {

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

}  // namespace upstream_fixture
