# PlatformSDKConfig.cmake — find_package(PlatformSDK) for plugins built outside the Platform tree.
#
#   find_package(PlatformSDK 0.1 REQUIRED)
#   platform_add_plugin(hello SOURCES hello.cpp)      # -> <build>/plugins/hello.so
#
# Provides the INTERFACE target Platform::sdk (C ABI + header-only C++ SDK; needs nlohmann_json
# 3.11), Platform::abi (the C header alone), Platform::testing (the SDK, the fake host and the
# argument validator it checks calls with, for unit tests), and the function
# platform_add_plugin (PlatformPlugin.cmake). Sets PlatformSDK_INCLUDE_DIR.
#
# This file is installed unmodified by both the CMake and the meson build, so it holds no
# configured paths: it is relocatable and finds the installation prefix from its own location
# (<prefix>/lib/cmake/PlatformSDK; a packager moving it to lib64/ or lib/<multiarch>/ is fine too).
include(CMakeFindDependencyMacro)

set(_platform_sdk_prefix "${CMAKE_CURRENT_LIST_DIR}")
set(_platform_sdk_include "")
foreach(_platform_sdk_up RANGE 1 5)
  get_filename_component(_platform_sdk_prefix "${_platform_sdk_prefix}" DIRECTORY)
  if(EXISTS "${_platform_sdk_prefix}/include/platform/abi.h")
    set(_platform_sdk_include "${_platform_sdk_prefix}/include")
    break()
  endif()
endforeach()
if(NOT _platform_sdk_include)
  set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
  set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE
      "no include/platform/abi.h in any parent folder of ${CMAKE_CURRENT_LIST_DIR}; the installation is incomplete")
  return()
endif()

find_dependency(nlohmann_json 3.11)

if(NOT TARGET Platform::abi)
  add_library(Platform::abi INTERFACE IMPORTED)
  set_target_properties(Platform::abi PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_platform_sdk_include}")
endif()
if(NOT TARGET Platform::sdk)
  add_library(Platform::sdk INTERFACE IMPORTED)
  set_target_properties(Platform::sdk PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_platform_sdk_include}"
    INTERFACE_LINK_LIBRARIES "nlohmann_json::nlohmann_json"
    INTERFACE_COMPILE_FEATURES "cxx_std_17")
endif()

# The argument validator the host uses (lib/libplatform_validation.a), and Platform::testing: what
# a plugin's unit test links so that the fake host validates arguments as the host does.
get_filename_component(_platform_sdk_root "${_platform_sdk_include}" DIRECTORY)
if(NOT TARGET Platform::validation AND EXISTS "${_platform_sdk_root}/lib/libplatform_validation.a")
  add_library(Platform::validation STATIC IMPORTED)
  set_target_properties(Platform::validation PROPERTIES
    IMPORTED_LOCATION "${_platform_sdk_root}/lib/libplatform_validation.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_platform_sdk_include}"
    INTERFACE_LINK_LIBRARIES "nlohmann_json::nlohmann_json")
endif()
if(NOT TARGET Platform::testing AND TARGET Platform::validation)
  add_library(Platform::testing INTERFACE IMPORTED)
  set_target_properties(Platform::testing PROPERTIES
    INTERFACE_LINK_LIBRARIES "Platform::sdk;Platform::validation")
endif()

set(PlatformSDK_INCLUDE_DIR "${_platform_sdk_include}")
include("${CMAKE_CURRENT_LIST_DIR}/PlatformPlugin.cmake")

unset(_platform_sdk_prefix)
unset(_platform_sdk_include)
unset(_platform_sdk_root)
unset(_platform_sdk_up)
