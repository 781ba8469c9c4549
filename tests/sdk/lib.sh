# shellcheck shell=bash disable=SC2154,SC2034  # $prefix comes from the caller; $api, $proxy, $body go to it
# tests/sdk/lib.sh — what the SDK's out-of-tree tests share: a temporary work folder removed on
# exit, a clean environment, the installed host started on a free port, and checks of its answers.
# Sourced (bash); the caller has `set -euo pipefail`.
#
#   sdk_init                      creates $work (KEEP_SDK_TEST_DIR=1 keeps it) and $clean_env:
#                                 env -i with a plain PATH, no inherited include, library, CMake
#                                 or pkg-config search paths
#   start_host <name> <plugin dir> [args...]   starts $prefix/bin/platform (profile test unless
#                                 args say otherwise) with PLATFORM_PLUGIN_PATH; sets $api, $proxy
#   stop_host <name>              stops it (SIGTERM, then waits)
#   expect <what> <body> <curl args...>          the exact body
#   expect_code <what> <status> <curl args...>   the HTTP status; the body is in $body
#   mcp_tool_call <token> <tool> <arguments json>   initialize + tools/call over /mcp; prints the answer
#   fail <message>, step <message>

sdk_init() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/platform-sdk-test-XXXXXX")
    declare -gA host_pids=()
    declare -ga clean_env=(env -i "PATH=/usr/local/bin:/usr/bin:/bin" "HOME=$work/home" "TMPDIR=$work")
    mkdir -p "$work/home"
    trap sdk_cleanup EXIT
}

sdk_cleanup() {
    local name
    for name in "${!host_pids[@]}"; do stop_host "$name"; done
    if [[ ${KEEP_SDK_TEST_DIR:-} == 1 ]]; then echo "kept $work"; else rm -rf "$work"; fi
}

fail() {
    echo "FAIL: $*" >&2
    local log
    for log in "$work"/host-*.log; do
        [[ -f $log ]] || continue
        echo "---- $log ----" >&2
        tail -n 60 "$log" >&2
    done
    exit 1
}
step() { echo "== $*"; }

# start_host <name> <plugin dir> [server args...]: the log is $work/host-<name>.log.
start_host() {
    local name=$1 plugins=$2 log="$work/host-$1.log" line pid
    shift 2
    local args=("$@")
    ((${#args[@]})) || args=(--profile test)
    mkdir -p "$work/state-$name"
    (cd "$work" && exec "${clean_env[@]}" "PLATFORM_HOME=$work/state-$name" "PLATFORM_PLUGIN_PATH=$plugins" \
        "$prefix/bin/platform" server "${args[@]}" --api_address 127.0.0.1:0 --proxy_address 127.0.0.1:0) \
        >"$log" 2>&1 &
    pid=$!
    host_pids[$name]=$pid
    api='' proxy=''
    for _ in $(seq 1 300); do # up to 30 s
        if line=$(grep -m1 -o 'listening api=[^ ]* proxy=[^ ]*' "$log"); then
            api=${line#listening api=}
            api=${api%% *}
            proxy=${line##*proxy=}
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || fail "the installed host ($name) exited before listening"
        sleep 0.1
    done
    fail "no 'listening' line from the installed host ($name) within 30 s"
}

stop_host() {
    local pid=${host_pids[$1]:-}
    unset "host_pids[$1]"
    [[ -n $pid ]] || return 0
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    fi
}

host_alive() { kill -0 "${host_pids[$1]}" 2>/dev/null; }

expect() { # <what> <expected body> <curl args...>
    local what=$1 want=$2 got
    shift 2
    got=$(curl -sS --max-time 10 "$@") || fail "$what: curl failed"
    [[ $got == "$want" ]] || fail "$what: expected $want, got $got"
    echo "ok   $what -> $got"
}

expect_code() { # <what> <expected status> <curl args...>; leaves the body in $body
    local what=$1 want=$2 code
    shift 2
    code=$(curl -sS --max-time 10 -o "$work/body" -w '%{http_code}' "$@") || fail "$what: curl failed"
    body=$(cat "$work/body")
    [[ $code == "$want" ]] || fail "$what: expected HTTP $want, got $code $body"
    echo "ok   $what -> $code $body"
}

# mcp_tool_call <bearer token> <tool> <arguments JSON>: one session, one tools/call; prints the
# JSON-RPC answer of the call.
mcp_tool_call() {
    local token=$1 tool=$2 arguments=$3 session
    local h=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream'
        -H "Authorization: Bearer $token")
    curl -sS --max-time 10 -D "$work/mcp.headers" -o /dev/null "${h[@]}" "http://$api/mcp" \
        -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sdk-test","version":"1"}}}' ||
        fail "MCP initialize: curl failed"
    session=$(tr -d '\r' <"$work/mcp.headers" | awk -F': ' 'tolower($1) == "mcp-session-id" {print $2}')
    [[ -n $session ]] || fail "MCP initialize: no Mcp-Session-Id header: $(cat "$work/mcp.headers")"
    h+=(-H "Mcp-Session-Id: $session" -H 'MCP-Protocol-Version: 2025-06-18')
    curl -sS --max-time 10 -o /dev/null "${h[@]}" "http://$api/mcp" \
        -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' || fail "MCP initialized: curl failed"
    curl -sS --max-time 10 "${h[@]}" "http://$api/mcp" \
        -d "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"$tool\",\"arguments\":$arguments}}" ||
        fail "MCP tools/call $tool: curl failed"
}
