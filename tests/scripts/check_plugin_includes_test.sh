#!/usr/bin/env bash
# Tests scripts/check-plugin-includes: it passes on this repository; on a copy of plugins/ with one
# planted include of another plugin's header it fails naming the file and line; and on small trees
# made here it fails on each way a plugin can reach into another's folder (quoted, angled and
# include-root includes, CMake and meson source lists, a common library including a plugin) while
# accepting a plugin's own files and the libraries of plugins/common.
#
#   tests/scripts/check_plugin_includes_test.sh [path/to/check-plugin-includes]
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
checker=(python3 "${1:-$top/scripts/check-plugin-includes}")
# shellcheck source=checker_test_lib.sh
source "$here/checker_test_lib.sh"

# file TREE PATH TEXT — writes $scratch/TREE/PATH.
file() {
    mkdir -p "$(dirname "$scratch/$1/$2")"
    printf '%s\n' "$3" >"$scratch/$1/$2"
}

# base TREE — two clean plugins (a, b) and a common library (x) that a uses.
base() {
    file "$1" plugins/a/a.hpp '#pragma once'
    file "$1" plugins/a/a.cpp '#include "a.hpp"
#include <platform/sdk.hpp>
#include "common/x/x.hpp"'
    file "$1" plugins/a/sub/part.cpp '#include "../a.hpp"'
    file "$1" plugins/a/CMakeLists.txt 'platform_add_plugin(a SOURCES a.cpp sub/part.cpp LIBS platform_common_x)
# an old note: ../b/b.cpp was compiled in here'
    file "$1" plugins/a/meson.build "plugin_defs += {'a': {'sources': files('a.cpp', 'sub' / 'part.cpp')}}"
    file "$1" plugins/b/b.hpp '#pragma once'
    file "$1" plugins/b/b.cpp '#include "b.hpp"'
    file "$1" plugins/common/x/x.hpp '#pragma once'
    file "$1" plugins/common/x/x.cpp '#include "common/x/x.hpp"'
    file "$1" plugins/common/x/meson.build "x = static_library('x', files('x.cpp'), include_directories: include_directories('../..'))"
}

# The repository itself.
out=$("${checker[@]}" 2>&1) && echo "ok   repository" || {
    echo "FAIL repository"$'\n'"$out"
    failures=$((failures + 1))
}

# A copy of this repository's plugins/ with one planted include.
mkdir -p "$scratch/planted"
cp -r "$top/plugins" "$scratch/planted/plugins"
printf '#include "../inbox/inbox.hpp"\n' >>"$scratch/planted/plugins/stream/stream.cpp"
line=$(wc -l <"$scratch/planted/plugins/stream/stream.cpp")
expect planted 1 "plugins/stream/stream.cpp:$line: includes plugins/inbox/inbox.hpp (the inbox plugin's folder)"

base clean
expect clean 0 "3 folders, none includes another plugin's files"

base quoted
file quoted plugins/a/a.cpp '#include "a.hpp"
#include "../b/b.hpp"'
expect quoted 1 "plugins/a/a.cpp:2: includes plugins/b/b.hpp (the b plugin's folder)"

base angled
file angled plugins/a/sub/part.cpp '#include <../../b/b.hpp>'
expect angled 1 "plugins/a/sub/part.cpp:1: includes plugins/b/b.hpp"

base rooted
file rooted plugins/a/a.cpp '#include "b/b.hpp"'
expect rooted 1 "plugins/a/a.cpp:1: includes plugins/b/b.hpp"

base cmake
file cmake plugins/a/CMakeLists.txt 'platform_add_plugin(a SOURCES a.cpp
  ../b/b.cpp ${PROJECT_SOURCE_DIR}/plugins/b/b.cpp)'
expect cmake 1 "plugins/a/CMakeLists.txt:2: names plugins/b/b.cpp"

base meson
file meson plugins/a/meson.build "plugin_defs += {'a': {'sources': files('a.cpp', '../b/b.cpp',
  '..' / 'b' / 'b.cpp')}}"
expect meson 1 "plugins/a/meson.build:1: names plugins/b/b.cpp" "plugins/a/meson.build:2: names plugins/b/b.cpp"

base library
file library plugins/common/x/x.cpp '#include "../../b/b.hpp"'
expect library 1 "plugins/common/x/x.cpp:1: includes plugins/b/b.hpp (the b plugin's folder)"

report_failures
