#!/usr/bin/env bash
# Installs what is missing, configures once, builds.
#
#   scripts/build.sh              CMake + Ninja into build/        (RelWithDebInfo)
#   scripts/build.sh --meson      meson into build-meson/          (debugoptimized)
#   scripts/build.sh --meson --quick   meson into build-meson-quick/ (plain: -O0, no debug info;
#                                 what CI's smoke run needs, in half the time)
#   scripts/build.sh --sanitize   clang, ASan + UBSan + fuzz targets, into build-asan/ (the `asan`
#                                 preset; build-meson-asan/ with --meson). scripts/sanitize runs tests in it.
#
# ccache is used when present (CMake and meson both pick it up), with its cache in
# ${CCACHE_DIR:-$HOME/.cache/ccache}, capped at 2 GB. With CI=true the CMake build leaves out
# debug information (-O2 without -g: a third less compile time). Prints the build folder on its
# last line.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
cd "$top"

use_meson=0 sanitize=0 quick=0
for arg in "$@"; do
    case $arg in
        --meson) use_meson=1 ;;
        --sanitize) sanitize=1 ;;
        --quick) quick=1 ;;
        -h | --help)
            sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "build.sh: unknown argument '$arg'" >&2
            exit 2
            ;;
    esac
done

bash "$here/deps.sh"

if command -v ccache >/dev/null 2>&1; then
    export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
    mkdir -p "$CCACHE_DIR"
    ccache --max-size=2G >/dev/null
fi
jobs=$(nproc)

if ((use_meson)); then
    if [[ ! -f meson.build ]]; then
        echo "build.sh: no meson.build at $top yet" >&2
        exit 1
    fi
    dir=build-meson
    setup_args=(--buildtype=debugoptimized)
    if ((quick)); then
        dir=build-meson-quick
        setup_args=(--buildtype=plain)
    fi
    if ((sanitize)); then
        dir=build-meson-asan
        setup_args+=("-Db_sanitize=address,undefined" -Db_lundef=false)
    fi
    if [[ ! -f $dir/meson-private/coredata.dat ]]; then
        meson setup "$dir" "${setup_args[@]}"
    fi
    meson compile -C "$dir" -j "$jobs"
else
    dir=build
    config_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
    if [[ ${CI:-} == true ]]; then
        config_args+=("-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG")
    fi
    if ((sanitize)); then
        # The `asan` preset (CMakePresets.json): clang, ASan + UBSan, the libFuzzer targets.
        dir=build-asan
        config_args=(--preset asan)
    fi
    if [[ ! -f $dir/CMakeCache.txt ]]; then
        cmake -S . -B "$dir" -G Ninja "${config_args[@]}"
    elif [[ ! -f $dir/build.ninja && ! -f $dir/Makefile ]]; then
        # An earlier configure stopped half-way: finish it, keeping the folder's generator.
        cmake -S . -B "$dir" "${config_args[@]}"
    fi
    cmake --build "$dir" -j "$jobs"
fi

echo "built: $top/$dir"
