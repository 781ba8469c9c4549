#!/usr/bin/env bash
# sdk.out_of_tree_hello — the installable SDK, end to end:
#   1. `cmake --install` the Platform build into a temporary prefix;
#   2. copy plugin-sdk/examples/hello into an empty folder and build it there, in a clean
#      environment, against the installed SDK only (find_package(PlatformSDK));
#   3. start the INSTALLED host with the example's plugin folder and call hello through the gateway;
#   4. check pkg-config --cflags platform-sdk.
#
# usage: out_of_tree_hello.sh <cmake> <platform build dir> <example source dir> <c++ compiler> <generator>
# Exits non-zero with a message on the first failure. KEEP_SDK_TEST_DIR=1 keeps the temp folder.
set -euo pipefail

cmake_bin=$1 build_dir=$2 example_src=$3 cxx=$4 generator=$5
source_dir=$(cd "$example_src/../../.." && pwd) # the Platform source tree, which must stay invisible

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/sdk/lib.sh
source "$here/lib.sh"
sdk_init # $work, removed on exit (KEEP_SDK_TEST_DIR=1 keeps it), and $clean_env
prefix=$work/prefix

# ---- 1. install ------------------------------------------------------------------------------
step "install $build_dir into $prefix"
"$cmake_bin" --install "$build_dir" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; fail "cmake --install failed"; }

for f in bin/platform include/platform/abi.h include/platform/sdk.hpp include/platform/testing/fake_host.hpp \
    lib/cmake/PlatformSDK/PlatformSDKConfig.cmake lib/cmake/PlatformSDK/PlatformSDKConfigVersion.cmake \
    lib/cmake/PlatformSDK/PlatformPlugin.cmake lib/cmake/PlatformSDK/plugin.map \
    lib/pkgconfig/platform-sdk.pc lib/platform/plugins/notes.so lib/platform/plugins/store-memory.so \
    share/platform/profiles/test.yaml share/platform/profiles/local.yaml \
    share/platform/profiles/kubernetes.yaml; do
    [[ -e $prefix/$f ]] || fail "not installed: $prefix/$f"
done
if compgen -G "$prefix/lib/platform/plugins/abi-*" >/dev/null || [[ -e $prefix/lib/platform/plugins/clock.so ]]; then
    fail "test-only plugins were installed: $(ls "$prefix/lib/platform/plugins")"
fi

# ---- 2. build the example out of tree ----------------------------------------------------------
step "build the hello example out of tree against $prefix"
cp -R "$example_src" "$work/hello"
rm -rf "$work/hello/build"
(cd "$work/hello" && "${clean_env[@]}" "$cmake_bin" -S . -B build -G "$generator" \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON) >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log" >&2; fail "configuring the example failed"; }
grep -q "^PlatformSDK_DIR:PATH=$prefix/lib/cmake/PlatformSDK\$" "$work/hello/build/CMakeCache.txt" ||
    fail "find_package(PlatformSDK) did not pick the installed SDK: $(grep PlatformSDK_DIR "$work/hello/build/CMakeCache.txt")"
"${clean_env[@]}" "$cmake_bin" --build "$work/hello/build" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; fail "building the example failed"; }

commands=$work/hello/build/compile_commands.json
grep -q -- "$prefix/include" "$commands" || fail "the example was not compiled against $prefix/include"
if grep -qF -e "-I$source_dir/" -e "-isystem $source_dir/" -e "$source_dir/plugin-sdk" "$commands"; then
    fail "the example's compile commands reference the source tree $source_dir: $(grep -oF -- "$source_dir/" "$commands" | sort -u)"
fi
grep -q -- "--version-script=$prefix/lib/cmake/PlatformSDK/plugin.map" "$work/hello/build/build.ninja" 2>/dev/null ||
    [[ $generator != Ninja ]] || fail "the plugin was not linked with the installed plugin.map"
[[ -f $work/hello/build/plugins/hello.so ]] || fail "no $work/hello/build/plugins/hello.so"
exports=$(nm -D --defined-only "$work/hello/build/plugins/hello.so" | awk '{print $3}')
[[ $exports == platform_plugin_entry ]] || fail "hello.so must export only platform_plugin_entry, exports: $exports"

step "run the example's unit test (fake host)"
"${clean_env[@]}" "$work/hello/build/hello_test" || fail "the example's unit test failed"

# ---- 3. the installed host serves it -----------------------------------------------------------
step "start $prefix/bin/platform with PLATFORM_PLUGIN_PATH=$work/hello/build/plugins"
start_host main "$work/hello/build/plugins"

grep -qF "profile test ($prefix/bin/../share/platform/profiles/test.yaml)" "$work/host-main.log" ||
    fail "the installed host did not use the installed profile ($prefix/share/platform/profiles/test.yaml)"
grep -q "plugin notes .* serving" "$work/host-main.log" || fail "the installed host did not load its installed plugins"
grep -q "plugin hello 1.0.0 serving go.core.api.v1.hello" "$work/host-main.log" || fail "the host did not load hello.so"

expect "GET /api/v1/hello/greet?name=Ada" '{"data":{"message":"Hello, Ada!"}}' \
    "http://$api/api/v1/hello/greet?name=Ada"
expect "POST /api/v1/hello/count as alice (1)" '{"data":{"count":1}}' \
    -X POST -H 'Authorization: Bearer alice' "http://$api/api/v1/hello/count"
expect "POST /api/v1/hello/count as alice (2)" '{"data":{"count":2}}' \
    -X POST -H 'Authorization: Bearer alice' "http://$api/api/v1/hello/count"
expect "POST /api/v1/hello/count as bob" '{"data":{"count":1}}' \
    -X POST -H 'Authorization: Bearer bob' "http://$api/api/v1/hello/count"
code=$(curl -sS --max-time 10 -o /dev/null -w '%{http_code}' -X POST "http://$api/api/v1/hello/count") ||
    fail "anonymous count: curl failed"
[[ $code == 401 ]] || fail "anonymous POST /api/v1/hello/count: expected 401, got $code"
echo "ok   anonymous POST /api/v1/hello/count -> 401"
expect "POST :proxy/rpc Hello.Greet" '{"message":"Hello, Ada!"}' \
    -X POST -H 'Content-Type: application/json' \
    -d '{"service":"hello","method":"Hello.Greet","request":{"name":"Ada"}}' "http://$proxy/rpc"

# ---- 4. pkg-config -----------------------------------------------------------------------------
step "pkg-config platform-sdk"
pc_env=("${clean_env[@]}" "PKG_CONFIG_PATH=$prefix/lib/pkgconfig")
cflags=$("${pc_env[@]}" pkg-config --cflags platform-sdk) || fail "pkg-config --cflags platform-sdk failed"
[[ " $cflags " == *" -I$prefix/include "* ]] || fail "pkg-config --cflags platform-sdk: expected -I$prefix/include, got '$cflags'"
echo "ok   pkg-config --cflags platform-sdk -> $cflags"
# The flags alone are enough to compile a plugin.
# shellcheck disable=SC2086
"${clean_env[@]}" "$cxx" -std=c++17 -fsyntax-only $cflags "$work/hello/hello.cpp" ||
    fail "hello.cpp does not compile with only \$(pkg-config --cflags platform-sdk)"
echo "ok   hello.cpp compiles with the pkg-config flags"

echo "PASS: hello, built out of tree against the installed SDK, answers through the installed host"
