#!/usr/bin/env bash
# Load and soak (issue 11): a bounded loopback wrk run against the real host, run in rounds, checking
# that nothing breaks or leaks. The host runs a temporary profile: `local`'s SQLite store (so the
# data lives on disk, not in the host's memory) with auth-noop (the bearer token is the account id),
# access log off, http.max_connections above the connection count. soak.lua sends a fixed cycle of
# notes/get, notes/list and notes/add (30% writes) over 4 accounts × 32 titles, all written before
# the first round, so every answer must be 2xx and the data does not grow.
#
#   tests/reliability/soak.sh [options]
#     -d, --seconds N       length of each round (60)
#     -c, --connections C   wrk connections (256)
#     -t, --threads T       wrk threads (2)
#     -r, --rounds R        measured rounds, at least 2 (2)
#     -w, --warmup N        at most this many seconds of the same load before the first round, in
#                           slices of --seconds until one grows the RSS by less than 1%; checked
#                           for errors like a round, not measured (20; 0 = none)
#     --build-dir DIR       where `platform` and the plugins are (build/, relative to the repository)
#
# The warm-up is there because the host's memory grows at first, over the first 100,000 requests
# or so, then stays: the worker pool adds threads, malloc gives them arenas, the store pools SQLite
# connections and fills their page caches. In 10 s rounds at 64 connections the RSS grew 12-16%
# from round 1 to round 2 without it, and by less than 1% from the fourth on. A leak grows in every
# round; that is what rounds 1..R compare.
#
# After each round it waits (polling, 30 s at most) until the host holds no client connection any
# more, then reads its VmRSS and open descriptors from /proc. Passes (exit 0) when every round had
# 0 socket errors (wrk's connect/read/write/timeout) and 0 non-2xx answers, the last round grew the
# RSS by less than 5% over the first, the host holds no more descriptors after the last round than
# after the first — those on the SQLite files aside: their number follows the peak concurrency (see
# db_fd_count) and must stay under 4 × (connections + 16) — and it exits 0 on SIGTERM. Prints
# req/s, p50/p99, RSS, threads and descriptors per round. Exits 1 on a failed check, 77 (ctest's
# skip) when wrk or curl is missing. The short form, for CI (about a minute):
#   tests/reliability/soak.sh --seconds 10 --connections 64 --warmup 60
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)

seconds=60 connections=256 threads=2 rounds=2 warmup=20 build=build
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; }
while (($#)); do
    case $1 in
        -d | --seconds) seconds=${2:?$1 needs a value}; shift ;;
        -c | --connections) connections=${2:?$1 needs a value}; shift ;;
        -t | --threads) threads=${2:?$1 needs a value}; shift ;;
        -r | --rounds) rounds=${2:?$1 needs a value}; shift ;;
        -w | --warmup) warmup=${2:?$1 needs a value}; shift ;;
        --build-dir) build=${2:?$1 needs a value}; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "soak.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
for n in "$seconds" "$connections" "$threads" "$rounds"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "soak.sh: '$n' is not a positive number" >&2; exit 2; }
done
[[ $warmup =~ ^[0-9]+$ ]] || { echo "soak.sh: --warmup '$warmup' is not a number of seconds" >&2; exit 2; }
((rounds >= 2)) || { echo "soak.sh: --rounds must be at least 2 (the last is compared with the first)" >&2; exit 2; }
((connections >= threads)) || { echo "soak.sh: --connections must be at least --threads" >&2; exit 2; }

for tool in wrk curl; do
    if ! command -v "$tool" >/dev/null; then
        echo "soak.sh: SKIPPED: $tool not found (scripts/deps.sh installs it)"
        exit 77
    fi
done
[[ $build = /* ]] || build=$top/$build
platform=$build/platform
[[ -x $platform ]] || { echo "soak.sh: $platform not found: build it first (scripts/build.sh)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/platform-soak.XXXXXX")
host_pid=
# shellcheck source=../scripts/stop_process.sh
source "$top/tests/scripts/stop_process.sh"
stop_and_remove_on_exit host_pid 0 "$work"
die() {
    echo "soak.sh: FAIL: $*" >&2
    [[ -f $work/host.log ]] && { echo "--- host log (last 20 lines)" >&2; tail -n 20 "$work/host.log" >&2; }
    exit 1
}

# alive — the host runs (a crashed child stays a zombie until waited for: kill -0 still succeeds).
alive() { [[ -r /proc/$host_pid/status ]] && ! grep -q '^State:[[:space:]]*Z' "/proc/$host_pid/status"; }
dead() {
    local status=0
    wait "$host_pid" || status=$?
    host_pid=
    die "the host died $1 (exit status $status$( ((status > 128)) && echo ", signal $((status - 128))"))"
}

cat >"$work/soak.yaml" <<EOF
name: soak
description: soak run (tests/reliability/soak.sh) — SQLite store, auth-noop, no access log
clock: real
plugins: all
privileged: [registry, config, store, broker, network]
providers:
  store: {plugin: store-sqlite, config: {path: "\${PLATFORM_HOME}/data/store.db"}}
  broker: {plugin: broker-memory}
  events: {plugin: events-sqlite, config: {path: "\${PLATFORM_HOME}/data/events.db"}}
  auth: {plugin: auth-noop, config: {admins: [admin]}}
settings: {call_timeout_ms: 30000}
http: {max_connections: $((connections + 256)), access_log: false}
EOF

mkdir -p "$work/home"
PLATFORM_HOME=$work/home "$platform" server --profile "$work/soak.yaml" \
    --api_address 127.0.0.1:0 --proxy_address 127.0.0.1:0 >"$work/host.log" 2>&1 </dev/null &
host_pid=$!
port=
for _ in $(seq 1 300); do
    port=$(sed -n 's/.*listening api=[^ ]*:\([0-9][0-9]*\) .*/\1/p' "$work/host.log" | head -n 1)
    [[ -n $port ]] && break
    alive || dead "at start-up"
    sleep 0.1
done
[[ -n $port ]] || die "the host printed no 'listening api=' line in 30 s"
base=http://127.0.0.1:$port
curl -fsS --max-time 10 -o /dev/null "$base/health" || die "GET /health did not answer 2xx"

# Every (account, title) soak.lua reads, written once over one keep-alive connection.
accounts=4 titles=32
{
    for a in $(seq 1 $accounts); do
        for t in $(seq 0 $((titles - 1))); do
            printf 'url = "%s/api/v1/notes/add"\nheader = "Authorization: Bearer soak-%d"\n' "$base" "$a"
            printf 'header = "Content-Type: application/json"\ndata = "{\\"title\\":\\"t%d\\",\\"text\\":\\"seed\\"}"\n' "$t"
            printf 'output = "/dev/null"\nwrite-out = "%%{http_code}\\n"\n'
            ((a == accounts && t == titles - 1)) || echo next
        done
    done
} >"$work/seed.curl"
seeded=$(curl -sS --max-time 60 -K "$work/seed.curl" | grep -c '^2' || true)
((seeded == accounts * titles)) || die "seeding: $seeded of $((accounts * titles)) notes/add answered 2xx"

fd_count() { find "/proc/$host_pid/fd" -mindepth 1 2>/dev/null | wc -l; }
# db_fd_count — descriptors on the SQLite files under the home: the store's pooled connections
# (16 kept idle, more while calls overlap) and the ones SQLite keeps open after a close while other
# connections hold locks on the file, to reuse at the next open. Their number follows the load's
# peak concurrency, not the number of requests.
db_fd_count() { find "/proc/$host_pid/fd" -mindepth 1 -lname "$work/home/data/*" 2>/dev/null | wc -l; }
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$host_pid/status"; }
thread_count() { awk '/^Threads:/ {print $2}' "/proc/$host_pid/status"; }
# client_sockets — connections to the api port the host still holds a descriptor for: its socket
# inodes (/proc/PID/fd) matched with /proc/net/tcp{,6} rows on that local port, not listening.
client_sockets() {
    find "/proc/$host_pid/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null | tr -dc '0-9\n' >"$work/inodes"
    awk -v port="$(printf '%04X' "$port")" -v held="$work/inodes" '
        FILENAME == held { inode[$1] = 1; next }
        FNR > 1 { split($2, addr, ":"); if (addr[2] == port && $4 != "0A" && ($10 in inode)) n++ }
        END { print n + 0 }' "$work/inodes" /proc/net/tcp /proc/net/tcp6
}
# settle — waits until the host has closed every client connection (30 s at most).
settle() {
    local deadline=$((SECONDS + 30))
    while (($(client_sockets) > 0)); do
        alive || dead "while its connections were closing"
        ((SECONDS < deadline)) || die "$(client_sockets) client connections still open in the host 30 s after the round"
        sleep 0.1
    done
}
settle
rss_start=$(rss_kib) fd_start=$(fd_count)
echo "soak: a warm-up of up to ${warmup}s, then $rounds rounds of ${seconds}s; $connections connections, $threads wrk threads on $base (host pid $host_pid)"
echo "soak: before: RSS ${rss_start} KiB, $fd_start descriptors"

failures=()
declare -a rss fds dbfds
# load ROUND SECONDS — one wrk run; its summary line goes to $line, and its errors to failures.
load() {
    local round=$1 out=$work/wrk-${1// /-}.txt
    wrk -t"$threads" -c"$connections" -d"${2}s" --latency --timeout 10s -s "$here/soak.lua" \
        "$base" -- $accounts $titles >"$out" 2>&1 || die "wrk failed: $(tail -n 5 "$out")"
    alive || dead "during the $round"
    line=$(grep '^soak requests=' "$out") || die "wrk printed no summary line: $(tail -n 5 "$out")"
    settle
    local errors=$(($(field connect) + $(field read) + $(field write) + $(field timeout)))
    ((errors == 0)) || failures+=("$round: $errors socket errors")
    (($(field non2xx) == 0)) || failures+=("$round: $(field non2xx) non-2xx answers ($(field statuses))")
    (($(field requests) > 0)) || failures+=("$round: no request answered")
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$line"; }
summary() {
    printf '%s requests, %s req/s, p50 %s ms, p99 %s ms; socket errors connect %s read %s write %s timeout %s; non-2xx %s (%s)' \
        "$(field requests)" "$(field rps)" "$(field p50_ms)" "$(field p99_ms)" "$(field connect)" \
        "$(field read)" "$(field write)" "$(field timeout)" "$(field non2xx)" "$(field statuses)"
}
# The warm-up runs in slices of at most --seconds until a slice grows the RSS by less than 1%, or
# --warmup seconds are spent.
warmed=0 before=$(rss_kib)
while ((warmed < warmup)); do
    slice=$((warmup - warmed < seconds ? warmup - warmed : seconds))
    load warm-up "$slice"
    warmed=$((warmed + slice)) after=$(rss_kib)
    echo "soak: warm-up (${warmed}s): $(summary); RSS $after KiB, $(thread_count) threads, $(fd_count) descriptors"
    awk -v a="$before" -v b="$after" 'BEGIN {exit !((b - a) * 100 < a)}' && break
    before=$after
done
for round in $(seq 1 "$rounds"); do
    load "round $round" "$seconds"
    rss[round]=$(rss_kib) fds[round]=$(fd_count) dbfds[round]=$(db_fd_count)
    echo "soak: round $round: $(summary); RSS ${rss[round]} KiB, $(thread_count) threads, ${fds[round]} descriptors (${dbfds[round]} on SQLite files)"
done

growth=$(awk -v a="${rss[1]}" -v b="${rss[rounds]}" 'BEGIN {printf "%.2f", (b - a) * 100 / a}')
echo "soak: RSS after round 1 ${rss[1]} KiB, after round $rounds ${rss[rounds]} KiB: ${growth}% (limit 5%)"
others1=$((fds[1] - dbfds[1])) others=$((fds[rounds] - dbfds[rounds])) db_limit=$((4 * (connections + 16)))
echo "soak: descriptors after round 1 ${fds[1]} (${others1} besides SQLite's), after round $rounds ${fds[rounds]} (${others})"
awk -v g="$growth" 'BEGIN {exit !(g < 5)}' || failures+=("RSS grew ${growth}% from round 1 to round $rounds")
((others <= others1)) || failures+=("$((others - others1)) more descriptors (besides SQLite's) after round $rounds than after round 1")
((dbfds[rounds] <= db_limit)) || failures+=("${dbfds[rounds]} descriptors on SQLite files: more than 4 × (connections + 16) = $db_limit")

kill -TERM "$host_pid"
status=0
wait "$host_pid" || status=$?
host_pid=
((status == 0)) || failures+=("the host exited $status on SIGTERM")

if ((${#failures[@]})); then
    printf 'soak.sh: FAIL: %s\n' "${failures[@]}" >&2
    exit 1
fi
echo "soak: PASS"
