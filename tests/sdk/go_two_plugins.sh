# shellcheck shell=bash disable=SC2154  # sourced: $work, $src, $go, $prefix, $api come from its caller
# tests/sdk/go_two_plugins.sh — sourced by out_of_tree_example.sh for `go`, after hello-go passed:
# two Go plugins in one host. Each c-shared Go library carries its own Go runtime (scheduler,
# heap, GC, signal handlers); Go does not support two runtimes in one process, but on Linux each
# c-shared library is linked -Bsymbolic, our version script hides every symbol but the entry, and
# the host loads plugins RTLD_LOCAL, so the two do not see each other. The README of hello-go
# states what this test checks:
#   1. both in the host's process: both load, both answer, under concurrent calls, and the host
#      stays up (the configuration works with Go 1.19 on Linux amd64, unsupported upstream);
#   2. `isolation: {hello-go2: process}`: the second runs in a platform-worker process of its own,
#      with its own runtime; the host never maps it, and both answer. This is the supported way.
# Uses $go (the go command), $src, $prefix, $work and lib.sh's helpers.

step "two Go plugins: build the example again as hello-go2 (-ldflags -X)"
mkdir -p "$work/two"
(cd "$src" && "${go[@]}" build -buildmode=c-shared \
    -ldflags "-X main.pluginID=hello-go2 -X main.serviceName=v1.hello-go2 -extldflags '-Wl,--no-undefined -Wl,--version-script=$prefix/lib/cmake/PlatformSDK/plugin.map'" \
    -o "$work/two/hello-go2.so" .) >"$work/build2.log" 2>&1 || { cat "$work/build2.log" >&2; fail "go build hello-go2 failed"; }
rm -f "$work/two/hello-go2.h"
cp "$src/plugins/hello-go.so" "$work/two/"

# Calls both services, 100 calls each, 8 at a time, and counts the answers that were not 200.
both_answer() {
    local what=$1 bad
    expect "$what: hello-go greet" '{"data":{"message":"Hello, Ada!"}}' "http://$api/api/v1/hello-go/greet?name=Ada"
    expect "$what: hello-go2 greet" '{"data":{"message":"Hello, Ada!"}}' "http://$api/api/v1/hello-go2/greet?name=Ada"
    expect "$what: hello-go count as alice" '{"data":{"count":1}}' -X POST -H 'Authorization: Bearer alice' "http://$api/api/v1/hello-go/count"
    expect "$what: hello-go2 count as alice (its own store table)" '{"data":{"count":1}}' -X POST -H 'Authorization: Bearer alice' "http://$api/api/v1/hello-go2/count"
    bad=$(for i in $(seq 1 100); do
        echo "http://$api/api/v1/hello-go/greet?name=a$i"
        echo "http://$api/api/v1/hello-go2/greet?name=b$i"
    done | xargs -P 8 -n 1 curl -s -o /dev/null --max-time 10 -w '%{http_code}\n' | grep -vc '^200$' || true)
    [[ $bad == 0 ]] || fail "$what: $bad of 200 concurrent greets were not 200"
    echo "ok   $what: 200 concurrent greets over both plugins, all 200"
}

step "two Go runtimes in the host's own process"
start_host two "$work/two"
if ! grep -q "plugin hello-go 1.0.0 serving" "$work/host-two.log" ||
    ! grep -q "plugin hello-go2 1.0.0 serving" "$work/host-two.log"; then
    fail "the host did not load both Go plugins"
fi
maps=$(cat "/proc/${host_pids[two]}/maps")
[[ $maps == *hello-go.so* && $maps == *hello-go2.so* ]] || fail "the host process does not map both Go libraries"
both_answer "in process"
host_alive two || fail "the host died with two Go runtimes in it"
stop_host two

step "the second Go plugin in its own process: isolation: {hello-go2: process}"
cat >"$work/go-isolated.yaml" <<'EOF'
# The test profile's providers, with the second Go plugin in a platform-worker.
name: go-isolated
clock: manual
plugins: all
isolation: {hello-go2: process}
providers:
  store: {plugin: store-memory}
  broker: {plugin: broker-memory}
  events: {plugin: events-memory}
  auth: {plugin: auth-noop}
EOF
start_host isolated "$work/two" --profile "$work/go-isolated.yaml"
worker=$(grep -o 'plugin hello-go2 runs in worker pid [0-9]*' "$work/host-isolated.log" | awk '{print $NF}') ||
    fail "hello-go2 did not start in a worker"
maps=$(cat "/proc/${host_pids[isolated]}/maps")
[[ $maps == *hello-go.so* && $maps != *hello-go2.so* ]] || fail "the host must map hello-go.so and not hello-go2.so"
grep -q hello-go2.so "/proc/$worker/maps" || fail "the worker $worker does not map hello-go2.so"
echo "ok   hello-go2 runs in platform-worker pid $worker; the host maps only hello-go.so"
both_answer "isolated"
stop_host isolated
