#include "e2e_script.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "build_tree.hpp"
#include "command.hpp"

namespace platform::test {

using nlohmann::json;

std::string e2e_dir() {
    return source_dir() + "/tests/e2e";
}

json run_e2e_script(const std::string& script, const json& config, const std::string& home,
                    int timeout_seconds) {
    const std::string dir = e2e_dir();
    const char* path = std::getenv("PATH");
    CommandResult r = run_command(
        {dir + "/node_modules/.bin/node", dir + "/" + script, config.dump()},
        {{"PATH", dir + "/node_modules/.bin:" + (path ? path : "/usr/bin:/bin")}, {"HOME", home}},
        timeout_seconds);
    EXPECT_EQ(r.code, 0) << script << "\n" << r.out << r.err;
    json out = json::parse(r.out, nullptr, false);
    EXPECT_TRUE(out.is_object()) << script << "\n" << r.out << r.err;
    if (!out.is_object()) return json::object();
    EXPECT_FALSE(out.contains("timeout")) << out.dump(1);
    EXPECT_FALSE(out.contains("error")) << out.dump(1);
    return out;
}

}  // namespace platform::test
