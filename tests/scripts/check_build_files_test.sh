#!/usr/bin/env bash
# Tests scripts/check-build-files: it passes on this repository, and on small trees made here it
# fails on each kind of mismatch, naming the file that lacks the source, and accepts the ways the
# two build systems spell the same list.
#
#   tests/scripts/check_build_files_test.sh [path/to/check-build-files]
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
checker=("${1:-$here/../../scripts/check-build-files}")
# shellcheck source=checker_test_lib.sh
source "$here/checker_test_lib.sh"

# tree NAME FOLDER CMAKE_TEXT MESON_TEXT — writes one folder's build files (empty text: no file).
tree() {
    mkdir -p "$scratch/$1/$2"
    [[ -z $3 ]] || printf '%s\n' "$3" >"$scratch/$1/$2/CMakeLists.txt"
    [[ -z $4 ]] || printf '%s\n' "$4" >"$scratch/$1/$2/meson.build"
}

# The repository itself.
out=$("${checker[@]}" 2>&1) && echo "ok   repository" || {
    echo "FAIL repository"$'\n'"$out"
    failures=$((failures + 1))
}

# Same lists, spelled each system's way: relative, from the top, across folders, quoted, with
# comments naming other files and names built from variables (not checked).
tree same lib 'add_library(x a.cpp "b.cpp" ${PROJECT_SOURCE_DIR}/util/c.cpp ../util/d.cpp) # e.cpp
foreach(t one two)
  add_executable(${t} ${t}.cpp)
endforeach()' "x = library('x', 'a.cpp', files('b.cpp'), meson.project_source_root() / 'util' / 'c.cpp',
  '../util/d.cpp')  # e.cpp
foreach t : ['one', 'two']
  executable(t, t + '.cpp')
endforeach"
tree same util 'add_library(u u.c)' "u = static_library('u', 'u.c')"
expect same 0 "2 folders"

# A source only CMake names: meson.build is the file at fault.
tree cmake-only lib 'add_library(x a.cpp b.cpp)' "library('x', 'a.cpp')"
expect cmake-only 1 "lib/meson.build: does not name lib/b.cpp (named by lib/CMakeLists.txt)"

# A source only meson names, written across folders.
tree meson-only tests 'add_executable(t t.cpp)' "executable('t', 't.cpp', '../src/extra.cpp')"
expect meson-only 1 "tests/CMakeLists.txt: does not name src/extra.cpp (named by tests/meson.build)"

# The same file name from another folder is a different source.
tree other-folder app 'add_executable(app main.cpp ${CMAKE_SOURCE_DIR}/common/x.cpp)' \
    "executable('app', 'main.cpp', '../lib/x.cpp')"
expect other-folder 1 "app/meson.build: does not name common/x.cpp" "app/CMakeLists.txt: does not name lib/x.cpp"

# A folder with only one of the two files, naming sources.
tree missing-file solo 'add_library(solo solo.cpp)' ''
expect missing-file 1 "solo/meson.build: does not name solo/solo.cpp"

# A project of its own (an out-of-tree example) is skipped.
tree example examples/hello 'cmake_minimum_required(VERSION 3.22)
project(hello CXX)
add_library(hello MODULE hello.cpp)' ''
expect example 0 "0 folders"

report_failures
