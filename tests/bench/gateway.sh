#!/usr/bin/env bash
# Gateway throughput next to its peers, in one run. Three servers, each on a free
# loopback port:
#   host      the real host, `platform server --profile local` with a fresh PLATFORM_HOME, timed on
#             GET /api/v1/notes/list (a real plugin call) and GET / (no plugin);
#   pistache  bench-bare-pistache (bare_pistache.cpp): Pistache 0.0.5 answering a fixed body;
#   nginx     nginx.conf.in, `return 200` with the same body;
# and three wrk modes, run one mode at a time across all servers:
#   default   wrk as it comes: HTTP/1.1, no Connection header;
#   keepalive wrk -H 'Connection: keep-alive';
#   pipeline  pipeline.lua: DEPTH requests per write.
# Before timing a server in a mode, lib/probe.py checks it the same way on one connection: 200s,
# whether the connection stays open, and whether all DEPTH pipelined answers come back. A server
# that drops pipelined requests is reported `dropped` and not timed (bare Pistache 0.0.5 does).
# Prints one markdown table (req/s, p50, p99, errors per server and mode; host ÷ pistache and
# host ÷ nginx per mode) and writes it to --out.
#
#   tests/bench/gateway.sh [options]
#     -t, --threads N        wrk threads (2)
#     -c, --connections N    wrk connections (32)
#     -d, --duration D       per server and mode, wrk syntax: 5s, 1m; a bare number is seconds (5s)
#     --depth N              requests per write in the pipelined mode (8)
#     --modes LIST           comma-separated modes, run in that order, a mode may come twice
#                            (default,keepalive,pipeline)
#     --stock-pistache       also time bare Pistache with Pistache's own Connection handling
#     --build-dir DIR        take platform and bench-bare-pistache from DIR, relative to the repository
#                            (build/, built first by scripts/build.sh; any other is used as it is)
#     --out FILE             where the table goes (BUILD_DIR/bench-gateway.md); wrk's raw output goes
#                            next to it, FILE.raw.txt
#     --no-deps              do not run scripts/deps.sh --bench (wrk and nginx must be there)
# DURATION and BUILD_DIR in the environment still work as defaults for -d and --build-dir.
#
# Exits 1, saying why, when wrk, nginx, python3 or curl is missing, a server does not start, or a
# figure cannot be trusted (a failed probe, an unexpected drop, non-2xx answers). Stops everything
# it started, whatever happens.
set -euo pipefail

start_dir=$PWD
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top"
# shellcheck source=lib/servers.sh
source "$here/lib/servers.sh"

threads=2
connections=32
duration=${DURATION:-5}
depth=8
modes=default,keepalive,pipeline
stock=0
build=${BUILD_DIR:-build}
out=
deps=1

usage() {
    sed -n '2,/^set -euo/p' "$here/gateway.sh" | sed '$d' | sed 's/^# \{0,1\}//'
}
while (($#)); do
    case $1 in
        -t | --threads) threads=${2:?$1 needs a value}; shift ;;
        -c | --connections) connections=${2:?$1 needs a value}; shift ;;
        -d | --duration) duration=${2:?$1 needs a value}; shift ;;
        --depth) depth=${2:?$1 needs a value}; shift ;;
        --modes) modes=${2:?$1 needs a value}; shift ;;
        --stock-pistache) stock=1 ;;
        --build-dir) build=${2:?$1 needs a value}; shift ;;
        --out) out=${2:?$1 needs a value}; shift ;;
        --no-deps) deps=0 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument '$1'" ;;
    esac
    shift
done
[[ $duration =~ ^[0-9]+$ ]] && duration="${duration}s"
[[ $duration =~ ^[0-9]+[smh]$ ]] || die "--duration '$duration': want a number of seconds, or 5s, 1m"
[[ $threads =~ ^[1-9][0-9]*$ && $connections =~ ^[1-9][0-9]*$ ]] || die "-t and -c take positive numbers"
((connections >= threads)) || die "wrk needs at least as many connections (-c $connections) as threads (-t $threads)"
[[ $depth =~ ^[1-9][0-9]*$ ]] || die "--depth takes a positive number"
IFS=, read -r -a mode_list <<<"$modes"
for m in "${mode_list[@]}"; do
    [[ $m == default || $m == keepalive || $m == pipeline ]] || die "--modes: unknown mode '$m'"
done
if [[ -z $out ]]; then
    out="$build/bench-gateway.md"
elif [[ $out != /* ]]; then
    out="$start_dir/$out"  # --out is relative to where the script was started, not the repository
fi

# Tools. deps.sh installs wrk and nginx-light when it can; whatever it did, check.
if ((deps)); then
    bash scripts/deps.sh --bench || echo "gateway.sh: scripts/deps.sh --bench failed; checking the tools anyway" >&2
fi
PATH="$PATH:/usr/sbin:/sbin"  # Debian's nginx lives in /usr/sbin, off a normal user's PATH
missing=()
for tool in wrk nginx python3 curl; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ((${#missing[@]})); then
    die "missing: ${missing[*]} (Debian packages: wrk, nginx-light, python3, curl; scripts/deps.sh --bench installs wrk and nginx-light)"
fi

[[ $build != build ]] || bash scripts/build.sh
for bin in "$build/platform" "$build/bench-bare-pistache"; do
    [[ -x $bin ]] || die "$bin is missing — build it first (cmake --build $build --target platform bench-bare-pistache and the plugins)"
done
mkdir -p "$(dirname "$out")"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/platform-bench.XXXXXX")
trap 'bench_cleanup; rm -rf "$tmp"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# 1. the host, local profile, fresh state
mkdir -p "$tmp/home"
admin_secret=$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')  # used only if the provider asks
bench_start "$tmp/host.log" env PLATFORM_HOME="$tmp/home" PLATFORM_ADMIN_SECRET="$admin_secret" \
    "$build/platform" server --profile local --api_address 127.0.0.1:0 --proxy_address 127.0.0.1:0
host_pid=$bench_last_pid
host_port=$(wait_port "$host_pid" host "$tmp/host.log" "listening api=")
host_base="http://127.0.0.1:$host_port"
wait_ok "$host_pid" host "$tmp/host.log" "$host_base/"

# notes are private to their owner: when the profile's auth provider asks for an account (401),
# log in as the local admin (POST /auth/token) and call notes/list with that bearer token, as a
# logged-in client would. With an anonymous-admin provider (auth-noop), no token.
auth=()
auth_note=
code=$(curl -sS -o "$tmp/notes.json" -w '%{http_code}' --max-time 5 "$host_base/api/v1/notes/list" || true)
if [[ $code == 401 ]]; then
    curl -sS --max-time 10 -X POST "$host_base/auth/token" -H 'Content-Type: application/json' \
        -d "{\"id\":\"admin\",\"secret\":\"$admin_secret\",\"token_expiry\":86400}" >"$tmp/token.json" || true
    token=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["access_token"])' "$tmp/token.json" 2>/dev/null) ||
        die "host: notes/list wants an account and POST /auth/token as admin failed: $(head -c 400 "$tmp/token.json")"
    auth=(-H "Authorization: Bearer $token")
    auth_note="with \`Authorization: Bearer\` (an access token of the local admin: the profile's auth provider wants an account)"
    code=$(curl -sS -o "$tmp/notes.json" -w '%{http_code}' --max-time 5 "${auth[@]}" "$host_base/api/v1/notes/list" || true)
fi
[[ $code == 200 ]] || die "host: GET /api/v1/notes/list answered $code: $(head -c 400 "$tmp/notes.json")"
echo "host: $host_base/api/v1/notes/list -> $(cat "$tmp/notes.json")${auth_note:+ ($auth_note)}"

# 2. bare Pistache (and, when asked, the same with Pistache's own Connection handling)
bench_start "$tmp/pistache.log" "$build/bench-bare-pistache" 127.0.0.1:0
pistache_pid=$bench_last_pid
pistache_port=$(wait_port "$pistache_pid" pistache "$tmp/pistache.log" "listening ")
wait_ok "$pistache_pid" pistache "$tmp/pistache.log" "http://127.0.0.1:$pistache_port/"
if ((stock)); then
    bench_start "$tmp/pistache-stock.log" "$build/bench-bare-pistache" 127.0.0.1:0 --stock
    stock_pid=$bench_last_pid
    stock_port=$(wait_port "$stock_pid" pistache-stock "$tmp/pistache-stock.log" "listening ")
    wait_ok "$stock_pid" pistache-stock "$tmp/pistache-stock.log" "http://127.0.0.1:$stock_port/"
fi

# 3. nginx
mkdir -p "$tmp/nginx"
nginx_port=$(free_port)
sed -e "s|@DIR@|$tmp/nginx|g" -e "s|@PORT@|$nginx_port|g" "$here/nginx.conf.in" >"$tmp/nginx/nginx.conf"
bench_start "$tmp/nginx.log" nginx -p "$tmp/nginx/" -e "$tmp/nginx/error.log" -c "$tmp/nginx/nginx.conf"
nginx_pid=$bench_last_pid
wait_ok "$nginx_pid" nginx "$tmp/nginx/error.log" "http://127.0.0.1:$nginx_port/"

# The timed targets: name|pid|log|port|path|label|with the bearer token (1) or not (0).
notes_label="GET /api/v1/notes/list"
((${#auth[@]} == 0)) || notes_label+=", bearer token"
targets=(
    "host-notes|$host_pid|$tmp/host.log|$host_port|/api/v1/notes/list|$notes_label|1"
    "host-root|$host_pid|$tmp/host.log|$host_port|/|GET /|0"
    "pistache|$pistache_pid|$tmp/pistache.log|$pistache_port|/|GET /|0"
)
((stock)) && targets+=("pistache-stock|$stock_pid|$tmp/pistache-stock.log|$stock_port|/|GET /, --stock|0")
targets+=("nginx|$nginx_pid|$tmp/nginx/error.log|$nginx_port|/|GET /|0")

raw="$out.raw.txt"
: >"$raw"
: >"$tmp/runs.tsv"
for round in "${!mode_list[@]}"; do  # a mode may be listed twice (e.g. to check the order's effect)
    mode=${mode_list[$round]}
    for target in "${targets[@]}"; do
        IFS='|' read -r name pid log port path label with_auth <<<"$target"
        url="http://127.0.0.1:$port$path"
        headers=()
        ((with_auth == 0)) || headers=("${auth[@]}")

        set +e
        probe=$(python3 "$here/lib/probe.py" "${headers[@]}" 127.0.0.1 "$port" "$path" "$mode" "$depth")
        rc=$?
        set -e
        echo "==> $mode / $name: probe: $probe"
        wrk_out=-
        if ((rc == 0)); then
            args=(-t"$threads" -c"$connections" -d"$duration" --latency "${headers[@]}")
            case $mode in
                keepalive) args+=(-H 'Connection: keep-alive') ;;
                pipeline) args+=(-s "$here/pipeline.lua") ;;
            esac
            args+=("$url")
            [[ $mode != pipeline ]] || args+=(-- "$depth")
            wrk_out="$tmp/wrk-$round-$mode-$name.txt"
            echo "    wrk ${args[*]@Q}" | sed 's/Bearer [^'"'"']*/Bearer …/'  # no token in logs
            wrk "${args[@]}" >"$wrk_out" 2>&1 || echo "    wrk exited with $?" >>"$wrk_out"
            sed -n -e 's/^Requests\/sec:/    req\/s:/p' -e 's/^ *\(50%\|99%\)/    \1/p' \
                -e 's/^\(Non-2xx.*\|  Socket errors.*\)/    \1/p' "$wrk_out"
            { echo "### $mode / $name: wrk ${args[*]@Q}" | sed 's/Bearer [^'"'"']*/Bearer …/'; cat "$wrk_out"; echo; } >>"$raw"
            alive "$pid" "$name" "$log"
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round:$mode" "$name" "\`$label\`" "$rc" "$probe" "$wrk_out" \
            "$depth" >>"$tmp/runs.tsv"
    done
done

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
    echo "## Gateway benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "- machine: $(nproc) cores ($cpu), load average before/after: $load_before / $load_after"
    echo "- wrk -t$threads -c$connections -d$duration --latency per server and mode, one mode at a time;" \
        "pipelined depth $depth; $(wrk -v 2>&1 | head -n 1 | cut -d' ' -f1-2), $(nginx -v 2>&1 | sed 's/^nginx version: //')"
    echo "- host: \`$build/platform server --profile local\` (SQLite store, access log on, to a file)," \
        "build type $(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt" 2>/dev/null || echo '?')"
    echo "- host auth provider: $(sed -n '/^  auth:/,/plugin:/s/^ *plugin: *//p' profiles/local.yaml | head -n 1)${auth_note:+; notes/list $auth_note}"
} >"$tmp/header.md"

echo
set +e
python3 "$here/lib/report.py" "$tmp/runs.tsv" "$tmp/header.md" >"$out"
status=$?
set -e
cat "$out"
echo
echo "table: $out; wrk output: $raw"
exit "$status"
