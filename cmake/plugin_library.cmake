# platform_add_plugin_library(<target> SOURCES <files...> [LIBS <targets...>])
#
# A static library of code plugins share (plugins/common/README.md), compiled as plugins are
# (platform_add_plugin: position-independent, hidden visibility, the plugins' precompiled header)
# and linked by each plugin that uses it: platform_add_plugin(<name> SOURCES ... LIBS <target>).
# Its headers are included from the include root plugins/ ("common/<lib>/<file>.hpp"), which it
# passes on to whatever links it, with Platform::sdk and LIBS.
include_guard(GLOBAL)

function(platform_add_plugin_library target)
  cmake_parse_arguments(L "" "" "SOURCES;LIBS" ${ARGN})
  if(L_UNPARSED_ARGUMENTS OR NOT L_SOURCES)
    message(FATAL_ERROR
      "platform_add_plugin_library(${target} SOURCES <files...> [LIBS <targets...>]): ${ARGN}")
  endif()
  add_library(${target} STATIC ${L_SOURCES})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/plugins)
  target_link_libraries(${target} PUBLIC Platform::sdk ${L_LIBS})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  platform_reuse_pch(${target} PLUGIN)
endfunction()
