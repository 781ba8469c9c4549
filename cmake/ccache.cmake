# ccache for every compile, set up so that its cache is shared between checkouts and build folders.
#
# A compile is looked up by a hash of its command line and its inputs. Three things would make the
# same source miss in another checkout (CI builds a fresh clone in another folder):
#   - absolute paths on the command line: base_dir = the checkout makes ccache rewrite them to
#     paths relative to the build folder (the same in every clone);
#   - the working directory, hashed when objects carry debug information: hash_dir = false (the
#     default build has no debug information anyway, scripts/build.sh);
#   - precompiled headers, which ccache refuses unless its sloppiness allows them (pch_defines,
#     time_macros) and the fresh .gch files are not "too new" (include_file_mtime/ctime). A .gch
#     holds the checkout's paths, so compiles using it would be keyed by bytes that differ between
#     folders: cmake/ccache_launch.sh writes a folder-free checksum next to each .gch, which ccache
#     hashes instead (pch_external_checksum, CCACHE_PCH_EXTSUM), and removes the old .gch before making a new one.
# Those settings go on each compile's environment through the launcher, so a plain `cmake --build`
# gets them as well as scripts/build.sh, and the user's own ccache.conf is left alone. The cache
# folder and its size come from that configuration (scripts/build.sh: ~/.cache/ccache, 5 GB).
#
# Paths compiled into code (-DFOO="/abs/path") are not rewritten: keep them in one small file per
# target (host/src/core/build_tree.cpp, tests/support/build_tree.cpp).
#
# PLATFORM_CCACHE=OFF builds without it.
option(PLATFORM_CCACHE "Compile through ccache when it is installed" ON)
find_program(CCACHE_PROGRAM ccache)
if(PLATFORM_CCACHE AND CCACHE_PROGRAM)
  set(PLATFORM_CCACHE_SLOPPINESS pch_defines,time_macros,include_file_mtime,include_file_ctime)
  set(launcher ${CMAKE_COMMAND} -E env
    CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
    CCACHE_SLOPPINESS=${PLATFORM_CCACHE_SLOPPINESS}
    CCACHE_NOHASHDIR=1
    CCACHE_PCH_EXTSUM=1
    ${CMAKE_CURRENT_LIST_DIR}/ccache_launch.sh ${CCACHE_PROGRAM})
  set(CMAKE_C_COMPILER_LAUNCHER ${launcher})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${launcher})
endif()
