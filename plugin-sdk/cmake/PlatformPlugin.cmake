# platform_add_plugin(<name> SOURCES <files...> [LIBS <targets...>] [TEST_ONLY] [OUTPUT_DIR <dir>]
#                     [INSTALL])
#
# Builds <name>.so the way every plugin must be built: a MODULE with hidden visibility,
# -Wl,--no-undefined, and a version script exporting only `platform_plugin_entry`. Also defines an
# OBJECT library <name>-objects with the same sources, so unit tests can link a plugin directly and
# drive it through platform/testing/fake_host.hpp.
#
# Where the .so lands: OUTPUT_DIR when given; else TEST_ONLY plugins go to
# ${PLATFORM_TEST_PLUGIN_OUTPUT_DIR} (default <build>/tests/plugins) and the others to
# ${PLATFORM_PLUGIN_OUTPUT_DIR} (default <build>/plugins). Point the host at that folder with
# PLATFORM_PLUGIN_PATH.
#
# Installing is opt-in: INSTALL, or the variable PLATFORM_INSTALL_PLUGINS set to ON (the Platform
# build itself does this), adds install(TARGETS <name>) to <prefix>/lib/platform/plugins (or
# ${PLATFORM_PLUGIN_INSTALL_DIR} when set), where a host installed in the same prefix looks by
# itself. TEST_ONLY and OUTPUT_DIR plugins are installed only with an explicit INSTALL.
#
# Used by the Platform build (included from the source tree) and by out-of-tree plugins (installed
# next to PlatformSDKConfig.cmake and included by find_package(PlatformSDK)). Needs the target
# Platform::sdk, which both provide.
include_guard(GLOBAL)

function(platform_add_plugin name)
  cmake_parse_arguments(P "TEST_ONLY;INSTALL" "OUTPUT_DIR" "SOURCES;LIBS" ${ARGN})
  if(P_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "platform_add_plugin(${name}): unknown arguments: ${P_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT P_SOURCES)
    message(FATAL_ERROR "platform_add_plugin(${name}): SOURCES is required")
  endif()
  if(NOT TARGET Platform::sdk)
    message(FATAL_ERROR "platform_add_plugin(${name}): the target Platform::sdk is missing; "
                        "use find_package(PlatformSDK REQUIRED) before calling it")
  endif()

  if(P_OUTPUT_DIR)
    set(out ${P_OUTPUT_DIR})
  elseif(P_TEST_ONLY)
    if(DEFINED PLATFORM_TEST_PLUGIN_OUTPUT_DIR)
      set(out ${PLATFORM_TEST_PLUGIN_OUTPUT_DIR})
    else()
      set(out ${CMAKE_BINARY_DIR}/tests/plugins)
    endif()
  elseif(DEFINED PLATFORM_PLUGIN_OUTPUT_DIR)
    set(out ${PLATFORM_PLUGIN_OUTPUT_DIR})
  else()
    set(out ${CMAKE_BINARY_DIR}/plugins)
  endif()

  # The version script sits next to this file, in the source tree or in <prefix>/lib/cmake/PlatformSDK.
  set(map ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/plugin.map)

  add_library(${name}-objects OBJECT ${P_SOURCES})
  target_link_libraries(${name}-objects PUBLIC Platform::sdk ${P_LIBS})
  set_target_properties(${name}-objects PROPERTIES
    CXX_VISIBILITY_PRESET hidden C_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
    POSITION_INDEPENDENT_CODE ON)
  if(COMMAND platform_reuse_pch)
    # Inside the Platform build: the plugins' shared precompiled header (cmake/precompiled_headers.cmake).
    platform_reuse_pch(${name}-objects PLUGIN)
  endif()
  add_library(${name} MODULE $<TARGET_OBJECTS:${name}-objects>)
  target_link_libraries(${name} PRIVATE Platform::sdk ${P_LIBS})
  set_target_properties(${name} PROPERTIES
    PREFIX "" OUTPUT_NAME ${name} LIBRARY_OUTPUT_DIRECTORY ${out}
    LINK_DEPENDS ${map})
  target_link_options(${name} PRIVATE -Wl,--version-script=${map})
  if(NOT PLATFORM_PLUGIN_ALLOW_UNDEFINED)  # set by sanitizer builds with clang only
    target_link_options(${name} PRIVATE -Wl,--no-undefined)
  endif()

  if(P_INSTALL OR (PLATFORM_INSTALL_PLUGINS AND NOT P_TEST_ONLY AND NOT P_OUTPUT_DIR))
    # The host searches <exe>/../lib/platform/plugins: plain lib/, whatever CMAKE_INSTALL_LIBDIR is.
    if(PLATFORM_PLUGIN_INSTALL_DIR)
      set(dest ${PLATFORM_PLUGIN_INSTALL_DIR})
    else()
      set(dest lib/platform/plugins)
    endif()
    install(TARGETS ${name} LIBRARY DESTINATION ${dest})
  endif()
endfunction()
