#!/usr/bin/env bash
# Gateway throughput next to its peers, in one run (DESIGN §10): the real host serving
# GET /api/v1/notes/list, bare Pistache answering a fixed body, and nginx returning the same body.
# Prints req/s, p50 and p99 per target and the ratios host/pistache and host/nginx.
#
#   tests/bench/gateway.sh               10 s per target
#   DURATION=30 tests/bench/gateway.sh   longer runs
#   BUILD_DIR=build-asan ...             binaries from another folder, used as they are
#
# Installs wrk and nginx (scripts/deps.sh --bench) and builds build/ first (scripts/build.sh).
# Stops everything it started, whatever happens.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top"

duration=${DURATION:-10}
build=${BUILD_DIR:-build}
wrk_args=(-t2 -c64 "-d${duration}s" --latency -H 'Connection: keep-alive')

die() {
    echo "gateway.sh: $*" >&2
    exit 1
}

bash scripts/deps.sh --bench
[[ $build != build ]] || bash scripts/build.sh
for bin in "$build/platform" "$build/bench-bare-pistache"; do
    [[ -x $bin ]] || die "$bin is missing — build it first"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/platform-bench.XXXXXX")
pids=()

# stop PID — SIGTERM, then SIGKILL after 5 s.
stop() {
    local pid=$1
    kill -TERM "$pid" 2>/dev/null || return 0
    for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
cleanup() {
    local pid
    for pid in "${pids[@]}"; do stop "$pid"; done
    rm -rf "$tmp"
}
trap cleanup EXIT

# alive PID NAME LOG — dies with the log's tail when the process has exited.
alive() {
    kill -0 "$1" 2>/dev/null && return 0
    tail -n 20 "$3" >&2 || true
    die "$2 exited during start-up"
}

# wait_port PID NAME LOG PREFIX — polls LOG up to 30 s for `PREFIX HOST:PORT`; prints PORT.
wait_port() {
    local pid=$1 name=$2 log=$3 prefix=$4 port
    for _ in $(seq 1 300); do
        port=$(sed -n "s/.*${prefix}[^ \"]*:\([0-9][0-9]*\).*/\1/p" "$log" | head -n 1)
        if [[ -n $port ]]; then
            echo "$port"
            return 0
        fi
        alive "$pid" "$name" "$log"
        sleep 0.1
    done
    die "$name printed no '$prefix HOST:PORT' line in 30 s (log: $log)"
}

# wait_ok PID NAME LOG URL — until URL answers 2xx, up to 10 s.
wait_ok() {
    local pid=$1 name=$2 log=$3 url=$4
    for _ in $(seq 1 100); do
        if curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; then
            echo "$name: $url -> $(curl -sS --max-time 2 "$url")"
            return 0
        fi
        alive "$pid" "$name" "$log"
        sleep 0.1
    done
    die "$name: $url did not answer 2xx in 10 s"
}

# A port nothing listens on, below Linux's ephemeral range.
free_port() {
    local port
    for _ in $(seq 1 100); do
        port=$((20000 + RANDOM % 12000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return 0
        fi
    done
    die "no free port found"
}

# 1. the host, local profile, fresh state
mkdir -p "$tmp/home"
PLATFORM_HOME="$tmp/home" "$build/platform" server --profile local \
    --api_address 127.0.0.1:0 --proxy_address 127.0.0.1:0 >"$tmp/host.log" 2>&1 </dev/null &
pids+=($!)
host_port=$(wait_port "${pids[-1]}" host "$tmp/host.log" "listening api=")
host_url="http://127.0.0.1:$host_port/api/v1/notes/list"
wait_ok "${pids[-1]}" host "$tmp/host.log" "$host_url"

# 2. bare Pistache
"$build/bench-bare-pistache" 127.0.0.1:0 >"$tmp/pistache.log" 2>&1 </dev/null &
pids+=($!)
bare_port=$(wait_port "${pids[-1]}" pistache "$tmp/pistache.log" "listening ")
bare_url="http://127.0.0.1:$bare_port/"
wait_ok "${pids[-1]}" pistache "$tmp/pistache.log" "$bare_url"

# 3. nginx
mkdir -p "$tmp/nginx"
nginx_port=$(free_port)
sed -e "s|@DIR@|$tmp/nginx|g" -e "s|@PORT@|$nginx_port|g" "$here/nginx.conf.in" >"$tmp/nginx/nginx.conf"
nginx -p "$tmp/nginx/" -e "$tmp/nginx/error.log" -c "$tmp/nginx/nginx.conf" \
    >"$tmp/nginx.log" 2>&1 </dev/null &
pids+=($!)
nginx_url="http://127.0.0.1:$nginx_port/"
wait_ok "${pids[-1]}" nginx "$tmp/nginx/error.log" "$nginx_url"

# parse_wrk FILE — prints "req/s p50_ms p99_ms errors" from wrk --latency output.
parse_wrk() {
    awk '
        function ms(v) {
            if (v ~ /us$/) return v / 1000
            if (v ~ /ms$/) return v + 0
            if (v ~ /s$/) return v * 1000
            if (v ~ /m$/) return v * 60000
            return v
        }
        /^ +50%/ { p50 = ms($2) }
        /^ +99%/ { p99 = ms($2) }
        /^Requests\/sec:/ { rps = $2 }
        /Non-2xx or 3xx responses:/ { errors += $NF }
        /Socket errors:/ { gsub(/,/, ""); errors += $4 + $6 + $8 + $10 }
        END { printf "%.0f %.3f %.3f %d\n", rps, p50, p99, errors }
    ' "$1"
}

declare -A result
for target in host pistache nginx; do
    case $target in
        host) url=$host_url ;;
        pistache) url=$bare_url ;;
        nginx) url=$nginx_url ;;
    esac
    echo
    echo "==> $target: wrk ${wrk_args[*]:0:4} -H 'Connection: keep-alive' $url"
    wrk "${wrk_args[@]}" "$url" | tee "$tmp/wrk-$target.txt"
    result[$target]=$(parse_wrk "$tmp/wrk-$target.txt")
done

echo
echo "==> gateway benchmark, $(nproc) cores, wrk -t2 -c64 -d${duration}s"
printf '%-10s %12s %10s %10s %8s\n' target req/s "p50 ms" "p99 ms" errors
for target in host pistache nginx; do
    read -r rps p50 p99 errors <<<"${result[$target]}"
    printf '%-10s %12s %10s %10s %8s\n' "$target" "$rps" "$p50" "$p99" "$errors"
done
echo
printf '%-15s %10s %10s %10s\n' ratio req/s p50 p99
for peer in pistache nginx; do
    awk -v name="host/$peer" -v a="${result[host]}" -v b="${result[$peer]}" 'BEGIN {
        split(a, x, " "); split(b, y, " ")
        printf "%-15s", name
        for (i = 1; i <= 3; i++) printf " %9.2fx", (y[i] > 0 ? x[i] / y[i] : 0)
        printf "\n"
    }'
done
