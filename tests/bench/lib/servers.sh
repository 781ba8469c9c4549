# shellcheck shell=bash
# Process helpers for tests/bench/gateway.sh (sourced, not run): start-up checks, free ports, and
# stopping what the script started. The caller sets `set -euo pipefail` and `top` (the repository).

# shellcheck source=../scripts/stop_process.sh
source "$top/tests/scripts/stop_process.sh"

bench_pids=()  # every process started through bench_start, stopped by bench_cleanup

die() {
    echo "gateway.sh: $*" >&2
    exit 1
}

# bench_start LOG CMD... — runs CMD in the background, output to LOG; its pid goes to bench_pids
# and to $bench_last_pid.
bench_start() {
    local log=$1
    shift
    "$@" >"$log" 2>&1 </dev/null &
    bench_last_pid=$!
    bench_pids+=("$bench_last_pid")
}


# bench_cleanup — stops every process bench_start started (set as the EXIT trap).
bench_cleanup() {
    local pid
    for pid in "${bench_pids[@]}"; do stop_process "$pid" 50; done  # SIGKILL after 5 s
}

# alive PID NAME LOG — dies with the log's tail when the process has exited.
alive() {
    kill -0 "$1" 2>/dev/null && return 0
    tail -n 20 "$3" >&2 || true
    die "$2 exited (log above: $3)"
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

# wait_ok PID NAME LOG URL — until URL answers 2xx, up to 10 s; prints what it answered.
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

# free_port — a loopback port nothing listens on, below Linux's ephemeral range.
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
