#!/usr/bin/env bash
# sdk.example_<lang> — a plugin written in C, Rust or Go on the C ABI alone, end to end:
#   1. copy plugin-sdk/examples/hello-<lang> into an empty folder and build it there, in a clean
#      environment, against the SDK installed in <prefix> (the sdk.install fixture), with the
#      language's own tool (make, cargo, go build -buildmode=c-shared), offline;
#   2. run the example's own unit test; check the library exports platform_plugin_entry only;
#   3. start the INSTALLED host with the example's plugin folder and call both endpoints over
#      /api/v1 (owner scoping: two accounts count apart; anonymous 401; the host's validation of
#      the hand-written schema), once over MCP (tools/call) and once through the CLI;
#   rust: check the hand-declared layout against the installed abi.h, and that a panic in a
#      handler answers 500 and the next call 200;
#   go: load two Go plugins into one host and report what happens (README, "Two Go plugins").
#
# shellcheck disable=SC2154 # go_two_plugins.sh and lib.sh share this script's variables
# usage: out_of_tree_example.sh <c|rust|go> <sdk prefix> <examples dir> <c compiler>
# Exits 77 (ctest: skipped) with a message naming the Debian package when the language's
# toolchain is missing. KEEP_SDK_TEST_DIR=1 keeps the temp folder.
set -euo pipefail

lang=$1 prefix=$2 examples=$3 cc=$4
name=hello-$lang
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/sdk/lib.sh
source "$here/lib.sh"

skip() {
    echo "SKIP: $name: $*"
    exit 77
}

case $lang in
    c) command -v make >/dev/null || skip "needs make (apt-get install make)" ;;
    # Debian's toolchains, never a rustup or golang.org install the machine may also have.
    rust) [[ -x /usr/bin/cargo && -x /usr/bin/rustc ]] ||
        skip "needs Debian's rustc and cargo: apt-get install rustc cargo (scripts/deps.sh installs them)" ;;
    go) [[ -x /usr/bin/go ]] ||
        skip "needs Debian's Go: apt-get install golang-go (scripts/deps.sh installs it)" ;;
    *) echo "usage: $0 <c|rust|go> <sdk prefix> <examples dir> <c compiler>" >&2; exit 2 ;;
esac

sdk_init
# Meson: no fixtures, so each test installs the build itself (a second or two) with
# `meson install --destdir`; <sdk prefix> is then the configured prefix inside that folder.
if [[ -n ${SDK_MESON_BUILD_DIR:-} ]]; then
    "${SDK_MESON:-meson}" install -C "$SDK_MESON_BUILD_DIR" --destdir "$work/destdir" --no-rebuild --quiet \
        >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "meson install failed"; }
    prefix=$work/destdir$prefix
else
    prefix=$(realpath -m -- "$prefix") # make runs in the example's folder
fi
[[ -x $prefix/bin/platform && -f $prefix/include/platform/abi.h ]] ||
    fail "no installed SDK in $prefix (ctest runs the sdk.install test first)"

src=$work/$name
cp -R "$examples/$name" "$src"
rm -rf "$src/plugins" "$src/target" "$src/hello_test"

# ---- 1 and 2. build out of tree, unit test -----------------------------------------------------
build_c() {
    step "make (CC=$cc) against $prefix"
    "${clean_env[@]}" make -C "$src" PLATFORM_PREFIX="$prefix" CC="$cc" CFLAGS="-O2 -Werror" all hello_test \
        >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "make failed"; }
    step "unit test (C, fake host table)"
    (cd "$src" && "${clean_env[@]}" ./hello_test) || fail "the example's unit test failed"
}

build_rust() {
    step "layout: abi_layout.c against the installed abi.h = abi_layout.txt (what the Rust tests check)"
    "$cc" -std=c11 -Wall -Werror -I"$prefix/include" "$src/abi_layout.c" -o "$work/abi_layout" ||
        fail "abi_layout.c does not compile against $prefix/include"
    "$work/abi_layout" | diff -u "$src/abi_layout.txt" - ||
        fail "abi.h's layout differs from hello-rust/abi_layout.txt: update src/platform.rs to the new abi.h, then abi_layout.txt (README)"
    local cargo=("${clean_env[@]}" "CARGO_HOME=$work/cargo-home" "RUSTC=/usr/bin/rustc" /usr/bin/cargo)
    step "cargo test --offline ($(/usr/bin/rustc --version))"
    (cd "$src" && "${cargo[@]}" test --offline) >"$work/test.log" 2>&1 ||
        { cat "$work/test.log" >&2; fail "cargo test failed"; }
    grep -E '^test result:' "$work/test.log"
    step "cargo build --release --offline"
    (cd "$src" && "${cargo[@]}" build --release --offline) >"$work/build.log" 2>&1 ||
        { cat "$work/build.log" >&2; fail "cargo build failed"; }
    mkdir -p "$src/plugins"
    cp "$src/target/release/libhello_rust.so" "$src/plugins/hello-rust.so"
}

# Every go command: offline, abi.h from the installed SDK; its build cache PLATFORM_TEST_GOCACHE
# (the build tree's, shared with the runtime's Go tests: content-addressed, safe to share), else
# one inside the work folder.
go=("${clean_env[@]}" "GOPATH=$work/gopath" "GOCACHE=${PLATFORM_TEST_GOCACHE:-$work/gocache}" "GOFLAGS=" "GOPROXY=off"
    "CGO_ENABLED=1" "CC=$cc" "CGO_CFLAGS=-I$prefix/include -O2 -g" /usr/bin/go)

build_go() {
    step "go test ($(/usr/bin/go version))"
    (cd "$src" && "${go[@]}" test .) >"$work/test.log" 2>&1 ||
        { cat "$work/test.log" >&2; fail "go test failed"; }
    cat "$work/test.log"
    step "go build -buildmode=c-shared"
    (cd "$src" && "${go[@]}" build -buildmode=c-shared \
        -ldflags "-extldflags '-Wl,--no-undefined -Wl,--version-script=$prefix/lib/cmake/PlatformSDK/plugin.map'" \
        -o plugins/hello-go.so .) >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "go build failed"; }
    rm -f "$src/plugins/hello-go.h"
}

"build_$lang"
so=$src/plugins/$name.so
[[ -f $so ]] || fail "no $so"
exports=$(nm -D --defined-only "$so" | awk '{print $3}')
[[ $exports == platform_plugin_entry ]] || fail "$name.so must export only platform_plugin_entry, exports: $exports"
echo "ok   $name.so exports only platform_plugin_entry"

# ---- 3. the installed host serves it -----------------------------------------------------------
step "start $prefix/bin/platform with PLATFORM_PLUGIN_PATH=$src/plugins"
start_host main "$src/plugins"
grep -q "plugin $name 1.0.0 serving go.core.api.v1.$name (2 endpoints)" "$work/host-main.log" ||
    fail "the host did not load $name.so"
base=http://$api/api/v1/$name

expect "GET /api/v1/$name/greet?name=Ada" '{"data":{"message":"Hello, Ada!"}}' "$base/greet?name=Ada"
# shellcheck disable=SC1003 # the name ends with a backslash
expect "GET greet, a name to escape" '{"data":{"message":"Hello, \"Q\" é\\!"}}' \
    --get --data-urlencode 'name="Q" é\' "$base/greet"
expect_code "GET greet without name (the host validates the plugin's schema)" 400 "$base/greet"
[[ $body == *'name: is required'* ]] || fail "400 without a name must say 'name: is required': $body"
expect_code "GET greet, a name of 101 characters" 400 "$base/greet?name=$(printf 'x%.0s' $(seq 101))"
expect "POST count as alice (1)" '{"data":{"count":1}}' -X POST -H 'Authorization: Bearer alice' "$base/count"
expect "POST count as alice (2)" '{"data":{"count":2}}' -X POST -H 'Authorization: Bearer alice' "$base/count"
expect "POST count as bob (his own)" '{"data":{"count":1}}' -X POST -H 'Authorization: Bearer bob' "$base/count"
expect_code "POST count anonymous" 401 -X POST "$base/count"
expect_code "GET count (a POST endpoint)" 405 -H 'Authorization: Bearer alice' "$base/count"

answer=$(mcp_tool_call alice "${name}_greet" '{"name":"Ada"}')
[[ $answer == *'"structuredContent":{"message":"Hello, Ada!"}'* ]] ||
    fail "MCP tools/call ${name}_greet: expected structuredContent {\"message\":\"Hello, Ada!\"}, got $answer"
echo "ok   MCP tools/call ${name}_greet -> structuredContent {\"message\":\"Hello, Ada!\"}"

cli=$("${clean_env[@]}" "PLATFORM_PROXY=$proxy" "PLATFORM_TOKEN=alice" "$prefix/bin/platform" "$name" count 2>&1) ||
    fail "platform $name count: $cli"
[[ $cli =~ \"count\":\ ?3 ]] || fail "platform $name count (alice's third): expected count 3, got $cli"
echo "ok   platform $name count (CLI, as alice) -> $cli"

if [[ $lang == rust ]]; then
    step "a panic in a handler is a 500; the host stays up and the next call works"
    expect_code "GET greet?name=panic" 500 "$base/greet?name=panic"
    [[ $body == *'"code":"internal"'*'greet was asked to panic'* ]] || fail "the 500 must be internal and say why: $body"
    expect "GET greet?name=Ada after the panic" '{"data":{"message":"Hello, Ada!"}}' "$base/greet?name=Ada"
    expect "POST count as alice after the panic (4)" '{"data":{"count":4}}' -X POST -H 'Authorization: Bearer alice' "$base/count"
    host_alive main || fail "the host died after the panic"
fi
stop_host main

if [[ $lang == go ]]; then
    # shellcheck source=tests/sdk/go_two_plugins.sh
    source "$here/go_two_plugins.sh"
fi

echo "PASS: $name, built out of tree against the installed SDK, answers through the installed host"
