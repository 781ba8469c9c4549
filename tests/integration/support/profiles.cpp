#include "profiles.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "build_tree.hpp"

namespace platform::test {

std::string profile_text(const std::string& name) {
    namespace fs = std::filesystem;
    std::ifstream in(fs::path(platform::test::source_dir()) / "profiles" / (name + ".yaml"));
    if (!in) throw std::runtime_error("profiles/" + name + ".yaml not found next to the tests");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string test_profile_text() {
    return profile_text("test");
}

std::string test_profile_with(const std::string& path, const std::string& extra) {
    std::ofstream(path) << test_profile_text() << "\n" << extra << "\n";
    return path;
}

std::string manual_clock_local_profile(const std::string& dir) {
    std::string text = profile_text("local");
    auto swap = [&](const std::string& from, const std::string& to) {
        auto at = text.find(from);
        if (at == std::string::npos)
            throw std::runtime_error("profiles/local.yaml no longer has `" + from + "`");
        text.replace(at, from.size(), to);
    };
    swap("clock: real", "clock: manual\ntest_plugins: true");
    swap("privileged: [", "privileged: [clock, ");
    const std::string path = dir + "/manual.yaml";
    std::ofstream(path) << text;
    return path;
}

}  // namespace platform::test
