#!/usr/bin/env bash
# Installs what is missing, configures once, builds.
#
#   scripts/build.sh              CMake + Ninja into build/: everything (Release, -O2, no debug
#                                 information; tests at -O0). The same flags for developers and CI,
#                                 so a CI run after a local build finds every object in ccache.
#   scripts/build.sh --server     only what `platform server` needs (the `server` target: the
#                                 executable, its worker, every plugin), into build/ (scripts/serve)
#   scripts/build.sh --meson      meson into build-meson/          (debugoptimized)
#   scripts/build.sh --meson --quick   meson with clang into build-meson-quick/ (plain: -O0, no
#                                 debug info; what CI's smoke run needs, in a third of the time,
#                                 and the whole tree compiled by the other compiler too)
#   scripts/build.sh --sanitize   clang, ASan + UBSan + fuzz targets, into build-asan/ (the `asan`
#                                 preset; build-meson-asan/ with --meson). scripts/sanitize runs tests in it.
#
# ccache is used when present, with its cache in ${CCACHE_DIR:-$HOME/.cache/ccache} (5 GB at most),
# base_dir set to this checkout and the sloppiness precompiled headers need, so that another
# checkout (CI's fresh clone) hits the same entries (cmake/ccache.cmake explains). Prints the build
# folder on its last line.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cd "$top"

use_meson=0 sanitize=0 quick=0 server=0
for arg in "$@"; do
    case $arg in
        --meson) use_meson=1 ;;
        --sanitize) sanitize=1 ;;
        --quick) quick=1 ;;
        --server) server=1 ;;
        -h | --help)
            sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "build.sh: unknown argument '$arg' (see --help)" >&2
            exit 2
            ;;
    esac
done
if ((server && (use_meson || sanitize))); then
    echo "build.sh: --server is for the CMake build only" >&2
    exit 2
fi

bash "$here/deps.sh"

if command -v ccache >/dev/null 2>&1; then
    export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
    mkdir -p "$CCACHE_DIR"
    ccache --max-size=5G >/dev/null
    # The same settings cmake/ccache.cmake gives CMake's compiles, for meson's (meson calls ccache
    # itself, with this environment).
    export CCACHE_BASEDIR="$top"
    export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
    export CCACHE_NOHASHDIR=1
fi
jobs=$(nproc)

if ((use_meson)); then
    if [[ ! -f meson.build ]]; then
        echo "build.sh: no meson.build at $top yet" >&2
        exit 1
    fi
    dir=build-meson
    setup_args=(--buildtype=debugoptimized)
    compiler=gcc
    if ((quick)); then
        dir=build-meson-quick
        setup_args=(--buildtype=plain)
        compiler=clang
    fi
    if ((sanitize)); then
        dir=build-meson-asan
        setup_args+=("-Db_sanitize=address,undefined" -Db_lundef=false)
    fi
    if [[ -f $dir/build.ninja ]]; then
        uses_clang=0
        grep -q 'clang++' "$dir/build.ninja" && uses_clang=1
        if { [[ $compiler == clang ]] && ((!uses_clang)); } || { [[ $compiler == gcc ]] && ((uses_clang)); }; then
            rm -rf "$dir"  # set up with the other compiler (an older default): start again
        fi
    fi
    if [[ ! -f $dir/meson-private/coredata.dat ]]; then
        if [[ $compiler == clang ]]; then
            # Meson puts ccache in front of the compilers it finds, not of those named in CC/CXX.
            launcher=""
            command -v ccache >/dev/null 2>&1 && launcher="ccache "
            CC="${launcher}clang" CXX="${launcher}clang++" meson setup "$dir" "${setup_args[@]}"
        else
            meson setup "$dir" "${setup_args[@]}"
        fi
    fi
    meson compile -C "$dir" -j "$jobs"
else
    dir=build
    config_args=(--preset default)
    if ((sanitize)); then
        # The `asan` preset (CMakePresets.json): clang, ASan + UBSan, the libFuzzer targets.
        dir=build-asan
        config_args=(--preset asan)
    fi
    # Configure when there is no build yet, when an earlier configure stopped half-way, or when the
    # folder was configured with another build type (an older default): the flags must be the
    # preset's for ccache to share objects with other checkouts.
    want=$( ((sanitize)) && echo RelWithDebInfo || echo Release)
    if [[ ! -f $dir/build.ninja ]] || ! grep -qx "CMAKE_BUILD_TYPE:STRING=$want" "$dir/CMakeCache.txt"; then
        cmake "${config_args[@]}"
    fi
    if ((server)); then
        cmake --build "$dir" -j "$jobs" --target server
    else
        cmake --build "$dir" -j "$jobs"
    fi
fi

echo "built: $top/$dir"
