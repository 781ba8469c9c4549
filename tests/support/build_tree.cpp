#include "build_tree.hpp"

#if !defined(PLATFORM_BUILD_DIR) || !defined(PLATFORM_SOURCE_DIR) || \
    !defined(PLATFORM_PLUGIN_DIR) || !defined(PLATFORM_TEST_PLUGIN_DIR)
#error \
    "PLATFORM_BUILD_DIR, PLATFORM_SOURCE_DIR, PLATFORM_PLUGIN_DIR, PLATFORM_TEST_PLUGIN_DIR: the folders"
#endif

namespace platform::test {

std::string build_dir() {
    return PLATFORM_BUILD_DIR;
}
std::string source_dir() {
    return PLATFORM_SOURCE_DIR;
}
std::string plugin_dir() {
    return PLATFORM_PLUGIN_DIR;
}
std::string test_plugin_dir() {
    return PLATFORM_TEST_PLUGIN_DIR;
}
std::string platform_binary() {
    return build_dir() + "/platform";
}

}  // namespace platform::test
