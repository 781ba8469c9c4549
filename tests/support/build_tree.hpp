// Where this build's files are, for tests: the build folder and the source checkout.
//
// The folders are compiled into one file (build_tree.cpp), the only test object whose command line
// names them. Every other test object is then the same in any checkout and any build folder, so
// ccache (base_dir set to the checkout, scripts/build.sh) shares it between a developer's build and
// CI's fresh clone. Link the `platform-test-build-tree` library (tests/support/CMakeLists.txt,
// build_tree_dep in meson) to use these.
#pragma once

#include <string>

namespace platform::test {

// The build folder: `platform` and `platform-worker` at its top.
std::string build_dir();

// The source checkout (profiles/, plugin-sdk/, tests/e2e/ …).
std::string source_dir();

// <build>/plugins: every plugin's .so.
std::string plugin_dir();

// <build>/tests/plugins: test-only plugins (abi/ holds the ABI failure-mode ones).
std::string test_plugin_dir();

// <build>/platform: the host and CLI executable.
std::string platform_binary();

}  // namespace platform::test
