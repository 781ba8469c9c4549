// Where this host was built from, for a host run from its build tree rather than installed.
//
// The folders are compiled into one file (src/core/build_tree.cpp), the only host object whose
// command line names them: every other object is then the same in any checkout and build folder,
// and ccache shares it between them (cmake/ccache.cmake). An installed host finds its profiles and
// SDK relative to its own executable instead; these are the fallbacks.
#pragma once

namespace platform::host::build_tree {

// <checkout>/profiles, searched after the installed profiles; "" when the build did not say.
const char* source_profiles();

// <checkout>/plugin-sdk/cmake (PlatformSDKConfig.cmake): what `platform run` builds sources
// against when no SDK is installed; "" when the build did not say.
const char* sdk_source_cmake_dir();

// <build>/plugin-sdk (PlatformSDKConfigVersion.cmake, written by the build); "" when unknown.
const char* sdk_build_dir();

}  // namespace platform::host::build_tree
