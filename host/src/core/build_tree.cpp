#include <platform/host/core/build_tree.hpp>

#ifndef PLATFORM_SOURCE_PROFILES
#define PLATFORM_SOURCE_PROFILES ""
#endif
#ifndef PLATFORM_SDK_SOURCE_CMAKE_DIR
#define PLATFORM_SDK_SOURCE_CMAKE_DIR ""
#endif
#ifndef PLATFORM_SDK_BUILD_DIR
#define PLATFORM_SDK_BUILD_DIR ""
#endif

namespace platform::host::build_tree {

const char* source_profiles() {
    return PLATFORM_SOURCE_PROFILES;
}
const char* sdk_source_cmake_dir() {
    return PLATFORM_SDK_SOURCE_CMAKE_DIR;
}
const char* sdk_build_dir() {
    return PLATFORM_SDK_BUILD_DIR;
}

}  // namespace platform::host::build_tree
