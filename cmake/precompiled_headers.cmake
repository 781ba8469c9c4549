# Precompiled headers shared between targets (REUSE_FROM), so nlohmann/json, gtest and the SDK are
# parsed once per build instead of once per source file.
#
# GCC uses a precompiled header only in compiles with the same optimisation level and the same
# -fPIC/-fPIE as the one that made it (else it warns, -Winvalid-pch, and parses the headers
# again); clang also wants the same visibility (else it stops). So there is one per kind of code:
#
#   platform_plugin_pch   -O2, -fPIC, hidden visibility: every plugin (platform_add_plugin), the
#                         test-only and ABI plugins. Defined here.
#   platform_test_pch     -O0, -fPIE: every gtest executable and integration-support
#                         (tests/CMakeLists.txt, which compiles tests without optimisation: they
#                         drive optimised code, and build in half the time). Defined by
#                         platform_define_test_pch() once GTest is found.
#   host_outbound         the host's own (host/CMakeLists.txt), reused by every other host_* layer:
#                         the host's private definitions (spdlog, Boost.DLL) differ from the
#                         plugins'.
#
# A target reusing a header must compile with the same definitions where the header looks at
# them; -Winvalid-pch (CMake adds it) says when one is not used. PLATFORM_PCH=OFF turns them all
# off. The clang builds (the `asan` and `fuzz` presets) do: CMake hands clang the header's absolute
# path through -Xclang, which ccache's base_dir does not rewrite, and clang's .pch holds the
# checkout's paths, so with them no compile of one checkout would hit the cache in another.
option(PLATFORM_PCH "Use the shared precompiled headers" ON)

set(PLATFORM_PCH_DIR ${CMAKE_CURRENT_LIST_DIR}/pch)

# The headers most plugin and test sources include: nlohmann/json, the SDK's service.hpp (which
# brings request, host, store, endpoint and entry) and the standard headers they pull in.
set(PLATFORM_PLUGIN_PCH_HEADERS
  <nlohmann/json.hpp> <platform/sdk/service.hpp>
  <string> <string_view> <vector> <map> <unordered_map> <set> <optional> <functional> <memory>
  <mutex> <atomic> <chrono> <algorithm> <sstream> <stdexcept>)

if(PLATFORM_PCH)
  add_library(platform_plugin_pch OBJECT ${PLATFORM_PCH_DIR}/plugin_pch.cpp)
  target_link_libraries(platform_plugin_pch PRIVATE Platform::sdk)
  # As platform_add_plugin compiles plugins (clang refuses a header made with another visibility).
  set_target_properties(platform_plugin_pch PROPERTIES POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_precompile_headers(platform_plugin_pch PRIVATE ${PLATFORM_PLUGIN_PCH_HEADERS})
endif()

# platform_reuse_pch(<target> PLUGIN|TEST): compile <target> with that shared header.
function(platform_reuse_pch target kind)
  if(NOT PLATFORM_PCH)
    return()
  endif()
  if(kind STREQUAL "PLUGIN")
    set(from platform_plugin_pch)
  elseif(kind STREQUAL "TEST")
    set(from platform_test_pch)
  else()
    message(FATAL_ERROR "platform_reuse_pch(${target} ${kind}): PLUGIN or TEST")
  endif()
  if(TARGET ${from})
    target_precompile_headers(${target} REUSE_FROM ${from})  # CMake adds -Winvalid-pch
    # The header's own includes must be found from the target too: when ccache preprocesses a
    # compile (its first one, with clang), the header is read as text.
    target_include_directories(${target} PRIVATE
      $<TARGET_PROPERTY:Platform::sdk,INTERFACE_INCLUDE_DIRECTORIES>)
  endif()
endfunction()

# platform_define_test_pch(): the tests' header (gtest and the fake host on top of the plugins'),
# after find_package(GTest). Compiled as the tests are: -O0, as an executable (-fPIE).
function(platform_define_test_pch)
  if(NOT PLATFORM_PCH)
    return()
  endif()
  add_executable(platform_test_pch ${PLATFORM_PCH_DIR}/test_pch.cpp)
  target_link_libraries(platform_test_pch PRIVATE Platform::sdk GTest::gtest GTest::gtest_main Threads::Threads)
  target_precompile_headers(platform_test_pch PRIVATE
    <gtest/gtest.h> <platform/testing/fake_host.hpp> ${PLATFORM_PLUGIN_PCH_HEADERS}
    <thread> <condition_variable> <filesystem> <fstream> <regex> <cstdlib> <cstring>)
endfunction()

# platform_reuse_test_pch_below(<dir>): every gtest executable compiled at -O0 in <dir> and the
# folders below it (tests/CMakeLists.txt calls it last) reuses the tests' precompiled header, so a
# new test gets it without a line of its own.
function(platform_reuse_test_pch_below dir)
  if(NOT PLATFORM_PCH)
    return()
  endif()
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    get_target_property(libs ${t} LINK_LIBRARIES)
    get_target_property(pch ${t} PRECOMPILE_HEADERS_REUSE_FROM)
    get_target_property(options ${t} COMPILE_OPTIONS)  # -O0: compiled as the tests are
    if(type STREQUAL "EXECUTABLE" AND NOT t STREQUAL "platform_test_pch" AND NOT pch
       AND "-O0" IN_LIST options
       AND ("GTest::gtest_main" IN_LIST libs OR "GTest::gtest" IN_LIST libs))
      platform_reuse_pch(${t} TEST)
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    platform_reuse_test_pch_below(${sub})
  endforeach()
endfunction()

# platform_test_library(<target>): a static library linked only into test executables (it must
# link GTest::gtest). Compiled as they are, position-independent for an executable (-fPIE after
# CMake's -fPIC), so it reuses the tests' precompiled header.
function(platform_test_library target)
  target_compile_options(${target} PRIVATE -fPIE)
  platform_reuse_pch(${target} TEST)
endfunction()
