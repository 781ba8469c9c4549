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

std::string with_plugin_config(std::string profile, const std::string& plugin,
                               const std::string& settings) {
    const std::string section = "plugin_config:\n";
    const auto at = profile.find(section);
    if (at == std::string::npos) throw std::runtime_error("the profile has no plugin_config");
    std::string block = "  " + plugin + ":\n";
    std::istringstream lines(settings);
    for (std::string line; std::getline(lines, line);) block += "    " + line + "\n";
    profile.insert(at + section.size(), block);
    return profile;
}

std::string with_sqlite_store(std::string profile, const std::string& db_path) {
    const std::string memory = "  store:\n    plugin: store-memory\n";
    const auto at = profile.find(memory);
    if (at == std::string::npos) throw std::runtime_error("the profile has no store-memory store");
    profile.replace(
        at, memory.size(),
        "  store:\n    plugin: store-sqlite\n    config:\n      path: \"" + db_path + "\"\n");
    return profile;
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
