#!/usr/bin/env bash
# Smoke run of the meson build (CI runs it through scripts/test after `scripts/build.sh --meson`).
#
#   scripts/smoke-meson.sh [BUILD_DIR]      default: build-meson at the top of the repository
#
# Starts <BUILD_DIR>/platform server --profile local on free loopback ports with a fresh
# PLATFORM_HOME, waits for its `listening api=HOST:PORT proxy=HOST:PORT` line, then checks with
# curl: GET / (version), a login as admin (POST /auth/token, PLATFORM_ADMIN_SECRET) whose bearer
# token the next calls send, notes add and get over the catalogue, Notes.List over the proxy's
# /rpc, and that /registry/listServices names go.core.api.v1.notes. Stops the server on exit. Prints
# `smoke: N passed, M failed` last and exits non-zero when a check failed or the server did not start.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)

case ${1:-} in
    -h | --help)
        sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
esac
dir=${1:-$top/build-meson}
[[ -d $dir || $dir = /* ]] || dir=$top/$dir   # a relative name: from here, else from the top
binary=$dir/platform
start_timeout=${SMOKE_START_TIMEOUT:-30}      # seconds to wait for the listening line

die() {
    echo "smoke: $*" >&2
    echo "smoke: 0 passed, 1 failed"
    exit 1
}
[[ -x $binary ]] || die "$binary is missing — build it first (scripts/build.sh --meson)"
command -v curl >/dev/null 2>&1 || die "curl is missing"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/platform-smoke.XXXXXX")
log=$tmp/server.log
pid=""

# shellcheck source=../tests/scripts/stop_process.sh
source "$top/tests/scripts/stop_process.sh"
stop_and_remove_on_exit pid 50 "$tmp"  # Pistache's shutdown takes 1-2 s

show_log() {
    echo "---- server log ($log, last 40 lines) ----" >&2
    tail -n 40 "$log" >&2 || true
    echo "----" >&2
}

mkdir -p "$tmp/home"
: >"$log"   # exists before the server's own redirection opens it, for the first poll below
admin_secret=smoke-admin-secret-$$
PLATFORM_HOME=$tmp/home PLATFORM_ADMIN_SECRET=$admin_secret "$binary" server --profile local \
    --api_address 127.0.0.1:0 --proxy_address 127.0.0.1:0 >"$log" 2>&1 </dev/null &
pid=$!

# Wait for `listening api=HOST:PORT proxy=HOST:PORT`, polling the log, bounded.
api="" proxy=""
deadline=$((SECONDS + start_timeout))
while ((SECONDS < deadline)); do
    line=$(grep -m1 -o 'listening api=[^ ]* proxy=[^ ]*' "$log" 2>/dev/null || true)
    if [[ -n $line ]]; then
        api=${line#listening api=}
        api=${api%% *}
        proxy=${line##* proxy=}
        break
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
        show_log
        die "the server exited before listening"
    fi
    sleep 0.1
done
if [[ -z $api || -z $proxy ]]; then
    show_log
    die "no 'listening api=... proxy=...' line within ${start_timeout}s"
fi
echo "smoke: server $binary listening api=$api proxy=$proxy"

passed=0 failed=0
status="" body="" token=""

# request METHOD URL [JSON_BODY] — sets $status and $body.
request() {
    local method=$1 url=$2 data=${3:-} out
    local args=(-sS --noproxy '*' --max-time 10 -X "$method" -o "$tmp/body" -w '%{http_code}')
    [[ -z $data ]] || args+=(-H 'Content-Type: application/json' --data "$data")
    [[ -z $token ]] || args+=(-H "Authorization: Bearer $token")
    if out=$(curl "${args[@]}" "$url" 2>"$tmp/curl.err"); then
        status=$out
    else
        status="curl-error: $(head -c 200 "$tmp/curl.err")"
    fi
    body=$(cat "$tmp/body" 2>/dev/null || true)
}

# check NAME EXPECTED_STATUS BODY_REGEX — records one result from the last request.
check() {
    local name=$1 want=$2 pattern=$3
    if [[ $status == "$want" ]] && grep -Eq -- "$pattern" <<<"$body"; then
        passed=$((passed + 1))
        echo "  ok    $name"
    else
        failed=$((failed + 1))
        echo "  FAIL  $name: status $status (want $want), body: ${body:0:300}"
    fi
}

sp='[[:space:]]*'
request GET "http://$api/"
check "GET / answers its version" 200 "\"version\"$sp:$sp\"[^\"]+\""

# The local profile has real accounts (auth-local): notes are private, so log in as admin first.
request POST "http://$api/auth/token" "{\"id\":\"admin\",\"secret\":\"$admin_secret\"}"
check "POST /auth/token as admin" 200 "\"access_token\"$sp:$sp\"[^\"]+\""
token=$(grep -o '"access_token" *: *"[^"]*"' <<<"$body" | sed 's/.*"\([^"]*\)"$/\1/' || true)

request POST "http://$api/api/v1/notes/add" '{"title":"smoke","text":"meson"}'
check "POST /api/v1/notes/add" 200 '.'

request GET "http://$api/api/v1/notes/get?title=smoke"
check "GET /api/v1/notes/get?title=smoke returns the text" 200 "\"text\"$sp:$sp\"meson\""

request POST "http://$proxy/rpc" '{"service":"notes","method":"Notes.List","request":{}}'
check "POST :proxy/rpc notes Notes.List" 200 "\"title\"$sp:$sp\"smoke\""

request GET "http://$api/registry/listServices"
check "/registry/listServices names go.core.api.v1.notes" 200 '"go\.core\.api\.v1\.notes"'

((failed == 0)) || show_log
echo "smoke: $passed passed, $failed failed"
((failed == 0))
