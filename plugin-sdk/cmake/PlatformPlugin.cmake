# platform_add_plugin(<name> SOURCES <files...> [LIBS <targets...>] [TEST_ONLY] [OUTPUT_DIR <dir>])
#
# Builds plugins/<name>.so the way every plugin must be built: a MODULE with hidden visibility,
# -Wl,--no-undefined, and a version script exporting only `platform_plugin_entry`. Also defines an
# OBJECT library <name>-objects with the same sources, so unit tests can link a plugin directly and
# drive it through platform/testing/fake_host.hpp. TEST_ONLY plugins go to tests/plugins/.
set(PLATFORM_PLUGIN_MAP ${CMAKE_CURRENT_LIST_DIR}/plugin.map CACHE INTERNAL "")

function(platform_add_plugin name)
  cmake_parse_arguments(P "TEST_ONLY" "OUTPUT_DIR" "SOURCES;LIBS" ${ARGN})
  if(P_OUTPUT_DIR)
    set(out ${P_OUTPUT_DIR})
  elseif(P_TEST_ONLY)
    set(out ${PLATFORM_TEST_PLUGIN_OUTPUT_DIR})
  else()
    set(out ${PLATFORM_PLUGIN_OUTPUT_DIR})
  endif()
  add_library(${name}-objects OBJECT ${P_SOURCES})
  target_link_libraries(${name}-objects PUBLIC Platform::sdk ${P_LIBS})
  set_target_properties(${name}-objects PROPERTIES
    CXX_VISIBILITY_PRESET hidden C_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
    POSITION_INDEPENDENT_CODE ON)
  add_library(${name} MODULE $<TARGET_OBJECTS:${name}-objects>)
  target_link_libraries(${name} PRIVATE Platform::sdk ${P_LIBS})
  set_target_properties(${name} PROPERTIES
    PREFIX "" OUTPUT_NAME ${name} LIBRARY_OUTPUT_DIRECTORY ${out}
    LINK_DEPENDS ${PLATFORM_PLUGIN_MAP})
  target_link_options(${name} PRIVATE -Wl,--no-undefined -Wl,--version-script=${PLATFORM_PLUGIN_MAP})
endfunction()
