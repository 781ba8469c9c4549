#include "snapshots.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "build_tree.hpp"

namespace platform::test {

std::optional<nlohmann::json> snapshot(const std::string& name, const nlohmann::json& now) {
    const std::string path = source_dir() + "/tests/integration/snapshots/" + name;
    if (std::getenv("PLATFORM_UPDATE_SNAPSHOTS")) {
        std::ofstream(path) << now.dump(1) << "\n";
        [&] { GTEST_SKIP() << "wrote " << path; }();  // the test is skipped, not passed
        return std::nullopt;
    }
    std::ifstream in(path);
    if (!in) {
        ADD_FAILURE() << "no snapshot " << path << " (PLATFORM_UPDATE_SNAPSHOTS=1 writes it)";
        return std::nullopt;
    }
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str());
}

}  // namespace platform::test
