#!/usr/bin/env bash
# Tests PLATFORM_LOG_LEVEL (docs/operations.md, "Logs and log levels") on a real server: a value
# that is not a level stops the start with exit 2 and a message naming the setting and the allowed
# values; `warn` hides the info lines (the `listening` line too) while the server serves and the
# access log goes on; the default keeps them.
#
#   tests/scripts/log_level_test.sh [path/to/platform]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
platform=${1:-$top/build/platform}
[[ -x $platform ]] || {
    echo "FAIL: $platform is not an executable (give the build's platform binary)"
    exit 1
}
command -v curl >/dev/null 2>&1 || {
    echo "FAIL: curl is missing"
    exit 1
}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/log-level-test.XXXXXX")
server_pid=
# shellcheck source=stop_process.sh
source "$here/stop_process.sh"
stop_and_remove_on_exit server_pid 0 "$scratch"
fail() {
    echo "FAIL: $*"
    exit 1
}

# run_server LEVEL NAME — starts the server with PLATFORM_LOG_LEVEL=LEVEL ("" = unset) under
# $scratch/NAME, waits (deadline 20 s) for keys/operator.json, which it writes once it listens
# whatever the level, asks GET /health, stops it with SIGTERM (exit 0 wanted); its stderr is left
# in $scratch/NAME.log.
run_server() {
    local level=$1 name=$2 home=$scratch/$2/home deadline api status rc=0
    local env_level=(-u PLATFORM_LOG_LEVEL)
    [[ -z $level ]] || env_level=(PLATFORM_LOG_LEVEL="$level")
    env -u PLATFORM_PROFILE_PATH -u PLATFORM_CONFIG_SECRET_KEY "${env_level[@]}" \
        PLATFORM_HOME="$home" PLATFORM_ADMIN_SECRET=log-level-test-secret \
        "$platform" server --profile local --api_address 127.0.0.1:0 \
        --proxy_address 127.0.0.1:0 >/dev/null 2>"$scratch/$name.log" &
    server_pid=$!
    deadline=$((SECONDS + 20))
    until [[ -s $home/keys/operator.json ]]; do
        kill -0 "$server_pid" 2>/dev/null || fail "$name: the server exited at start:"$'\n'"$(cat "$scratch/$name.log")"
        ((SECONDS < deadline)) || fail "$name: no keys/operator.json within 20 s"
        sleep 0.05
    done
    api=$(grep -o '"api":"[^"]*"' "$home/keys/operator.json" | cut -d'"' -f4)
    status=$(curl -sS --max-time 20 -o /dev/null -w '%{http_code}' "http://$api/health") || fail "$name: curl failed"
    [[ $status == 200 ]] || fail "$name: GET /health answered $status"
    kill -TERM "$server_pid"
    wait "$server_pid" || rc=$?
    server_pid=
    ((rc == 0)) || fail "$name: the server exited $rc after SIGTERM"
}

# Not a level: exit 2 before anything starts, naming the setting and the values (a server that
# ignores the setting would run: `timeout` ends it, exit 124).
rc=0
out=$(timeout 10 env PLATFORM_LOG_LEVEL=verbose PLATFORM_HOME="$scratch/bad" "$platform" server \
    --profile local --api_address 127.0.0.1:0 --proxy_address 127.0.0.1:0 2>&1) || rc=$?
((rc == 2)) || fail "PLATFORM_LOG_LEVEL=verbose: exit $rc, wanted 2:"$'\n'"$out"
want="PLATFORM_LOG_LEVEL: 'verbose' is not a log level (trace, debug, info, warn, error or off)"
grep -qF -- "$want" <<<"$out" || fail "PLATFORM_LOG_LEVEL=verbose said: $out"
echo "ok   PLATFORM_LOG_LEVEL=verbose: exit 2, naming the setting and the levels"
rc=0
out=$(timeout 10 env PLATFORM_HOME="$scratch/bad" "$platform" server --log_level verbose \
    --profile local --api_address 127.0.0.1:0 --proxy_address 127.0.0.1:0 2>&1) || rc=$?
((rc == 2)) || fail "--log_level verbose: exit $rc, wanted 2:"$'\n'"$out"
grep -q -- '--log_level' <<<"$out" || fail "--log_level verbose said: $out"
echo "ok   --log_level verbose: exit 2, naming the flag"

run_server "" default
grep -q ' info listening api=' "$scratch/default.log" || fail "default: no info 'listening' line"
echo "ok   default (info): the listening line is logged"

run_server WARN warn
if grep -q ' info ' "$scratch/warn.log"; then
    fail "warn: info lines were logged:"$'\n'"$(grep ' info ' "$scratch/warn.log" | head -5)"
fi
grep -q '"path":"/health"' "$scratch/warn.log" || fail "warn: the access log lost the /health request"
echo "ok   PLATFORM_LOG_LEVEL=WARN: no info lines, the server serves, the access log goes on"

echo "PASS log_level_test"
