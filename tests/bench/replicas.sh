#!/usr/bin/env bash
# Write throughput with one host replica and with two, same run, same PostgreSQL (issue 29): notes/add
# through `platform server` on the kubernetes profile's providers (store-postgres, broker-nats,
# events-nats, auth-local), reported, never gated.
#
#   tests/bench/replicas.sh [-c CONNECTIONS] [-d SECONDS] [--build-dir DIR] [--out FILE]
#
# Starts a throwaway PostgreSQL (scripts/postgres.sh) and nats-server (scripts/nats.sh), one
# database, and two replicas (own PLATFORM_HOME and ports, the same PLATFORM_CONFIG_SECRET_KEY),
# signs in as admin, then times with wrk (tests/bench/notes_add.lua: POST /api/v1/notes/add, a new
# title per request, bearer token):
#   1. one replica:  wrk -t2 -c C against replica A alone (B idle)
#   2. two replicas: wrk -t1 -c C/2 against A and against B at the same time (the same load split)
# and reads the CPU time of each replica, of PostgreSQL (postmaster and its backends) and of
# nats-server from /proc before and after each phase. Prints a table: req/s, p50/p99, errors, CPU
# ms per request (replicas, PostgreSQL, NATS, all), and the two-replica ÷ one-replica ratio; also
# to --out (default <build>/bench-replicas.md). On this 2-core machine the replicas, PostgreSQL
# and wrk share the cores, so two replicas cannot be faster by much: the ratio says what sharing
# the store costs, the CPU per request what each request costs.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)

connections=16 seconds=10 build=${BUILD_DIR:-build} out=""
while (($#)); do
    case $1 in
        -c) connections=$2; shift 2 ;;
        -d) seconds=${2%s}; shift 2 ;;
        --build-dir) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h | --help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "replicas.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ $build = /* ]] || build=$top/$build
out=${out:-$build/bench-replicas.md}
platform=$build/platform
[[ -x $platform ]] || { echo "replicas.sh: no $platform (scripts/build.sh --server)" >&2; exit 1; }
for tool in wrk curl python3 psql; do
    command -v "$tool" >/dev/null || { echo "replicas.sh: $tool is missing" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/platform-bench-replicas.XXXXXX")
chmod 755 "$work"  # PostgreSQL runs as its own user (scripts/postgres.sh) and must reach $work/pg
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    [[ -f $work/nats/nats.conf ]] && bash "$top/scripts/nats.sh" stop "$work/nats" >/dev/null 2>&1 || true
    [[ -d $work/pg ]] && bash "$top/scripts/postgres.sh" stop "$work/pg" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "replicas.sh: starting PostgreSQL and nats-server in $work" >&2
mkdir -p "$work/pg"
dsn=$(bash "$top/scripts/postgres.sh" start "$work/pg" | head -n 1)
eval "$(bash "$top/scripts/nats.sh" start "$work/nats" | sed 's/^/export /')"
psql -q -X "$dsn" -c 'CREATE DATABASE bench' >/dev/null
db_url=${dsn%/*}/bench
postmaster=$(head -n 1 "$work/pg/data/postmaster.pid")

# profiles/kubernetes.yaml without its rate limits: one account writes here as fast as wrk sends.
profile=$work/kubernetes.yaml
python3 - "$top/profiles/kubernetes.yaml" >"$profile" <<'PY'
import sys
out, dropping = [], None
for line in open(sys.argv[1]).read().splitlines():
    indent = len(line) - len(line.lstrip(" "))
    if dropping is not None:
        if not line.strip() or indent > dropping:
            continue
        dropping = None
    if line.lstrip(" ").startswith(("rate_limit:", "account_rate_limit:")):
        dropping = indent
        continue
    out.append(line)
print("\n".join(out))
PY
secret=bench-admin-$RANDOM$RANDOM
key=$(python3 -c 'import secrets; print(secrets.token_hex(32))')

ports=()
for name in a b; do
    mkdir -p "$work/$name"
    PLATFORM_HOME=$work/$name PLATFORM_POSTGRES_URL=$db_url PLATFORM_ADMIN_SECRET=$secret \
        PLATFORM_CONFIG_SECRET_KEY=$key \
        "$platform" server --profile "$profile" --api_address 127.0.0.1:0 \
        --proxy_address 127.0.0.1:0 >"$work/$name.log" 2>&1 </dev/null &
    pids+=($!)
    port=""
    while [[ -z $port ]]; do  # the listening line, or the process gone
        port=$(sed -n 's/.*listening api=[^ ]*:\([0-9][0-9]*\).*/\1/p' "$work/$name.log" | head -n 1)
        [[ -n $port ]] && break
        kill -0 "${pids[-1]}" 2>/dev/null || { tail -n 20 "$work/$name.log" >&2; exit 1; }
        sleep 0.1
    done
    ports+=("$port")
done
pid_a=${pids[0]} pid_b=${pids[1]}
token=$(curl -fsS "http://127.0.0.1:${ports[0]}/auth/token" -H 'Content-Type: application/json' \
    -d "{\"id\":\"admin\",\"secret\":\"$secret\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
for port in "${ports[@]}"; do  # a probe: one write through each must answer 200
    code=$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1/notes/add" \
        -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d '{"title":"probe","text":"probe"}')
    [[ $code == 200 ]] || { echo "replicas.sh: notes/add on port $port answered $code" >&2; exit 1; }
done

# cpu_ms PID... — user+system CPU of the processes and their reaped children, in ms.
cpu_ms() {
    python3 - "$@" <<'PY'
import os, sys
tick = os.sysconf("SC_CLK_TCK")
total = 0
for pid in sys.argv[1:]:
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    except OSError:
        pass
print(total * 1000 // tick)
PY
}
# PostgreSQL: the postmaster and its backends (children).
pg_pids() { echo "$postmaster" $(ps -o pid= --ppid "$postmaster"); }

# phase NAME PORT:THREADS:CONNS... — runs wrk against each port at once; prints
# "name requests errors reqs p50 p99 cpu_replicas cpu_pg cpu_nats".
phase() {
    local name=$1
    shift
    local pg0 nats0 rep0 pg1 nats1 rep1
    pg0=$(cpu_ms $(pg_pids)) nats0=$(cpu_ms "$PLATFORM_NATS_PID") rep0=$(cpu_ms "$pid_a" "$pid_b")
    local n=0 spec port
    for spec in "$@"; do
        IFS=: read -r port threads conns <<<"$spec"
        wrk -t"$threads" -c"$conns" -d"${seconds}s" --latency -s "$here/notes_add.lua" \
            "http://127.0.0.1:$port/api/v1/notes/add" -- "$token" "$name$n" >"$work/wrk-$name-$n.txt" 2>&1 &
        n=$((n + 1))
    done
    wait  # the wrk runs: this function runs in a subshell, whose only children they are
    pg1=$(cpu_ms $(pg_pids)) nats1=$(cpu_ms "$PLATFORM_NATS_PID") rep1=$(cpu_ms "$pid_a" "$pid_b")
    python3 - "$name" "$((rep1 - rep0))" "$((pg1 - pg0))" "$((nats1 - nats0))" "$work"/wrk-"$name"-*.txt <<'PY'
import re, sys
name, rep, pg, nats, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
requests = errors = 0; reqs = 0.0; p50 = []; p99 = []
def ms(v, unit): return float(v) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
for f in files:
    t = open(f).read()
    requests += int(re.search(r"(\d+) requests in", t).group(1))
    reqs += float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", t); errors += int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", t)
    errors += sum(map(int, m.groups())) if m else 0
    p50.append(ms(*re.search(r"50%\s+([\d.]+)(us|ms|s)", t).groups()))
    p99.append(ms(*re.search(r"99%\s+([\d.]+)(us|ms|s)", t).groups()))
print(name, requests, errors, f"{reqs:.0f}", f"{max(p50):.2f}", f"{max(p99):.2f}", rep, pg, nats)
PY
}

half=$((connections / 2))
echo "replicas.sh: one replica, ${seconds} s, $connections connections" >&2
one=$(phase one "${ports[0]}:2:$connections")
echo "replicas.sh: two replicas, ${seconds} s, $half + $half connections" >&2
two=$(phase two "${ports[0]}:1:$half" "${ports[1]}:1:$half")
for i in 0 1; do  # both replicas lived through it
    kill -0 "${pids[$i]}" 2>/dev/null || { tail -n 20 "$work/$([[ $i == 0 ]] && echo a || echo b).log" >&2; exit 1; }
done

python3 - "$one" "$two" "$connections" "$seconds" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY' | tee "$out"
import sys
rows = [r.split() for r in sys.argv[1:3]]
conns, secs, cores, load = sys.argv[3:7]
print(f"## Replicas: notes/add, one vs two replicas on one PostgreSQL ({secs} s each, {conns} connections, {cores} cores, load {load})\n")
print("| replicas | requests | errors | req/s | p50 ms | p99 ms | CPU ms/req: replicas | PostgreSQL | NATS | all |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
per = {}
for name, req, err, rps, p50, p99, rep, pg, nats in rows:
    req = int(req) or 1
    r, p, n = int(rep) / req, int(pg) / req, int(nats) / req
    per[name] = (float(rps), r + p + n)
    print(f"| {name} | {req} | {err} | {float(rps):,.0f} | {p50} | {p99} | {r:.3f} | {p:.3f} | {n:.3f} | {r + p + n:.3f} |")
print(f"\ntwo ÷ one: req/s {per['two'][0] / per['one'][0]:.2f}×, CPU per request {per['two'][1] / per['one'][1]:.2f}×")
PY
errors=$(awk '{s += $3} END {print s + 0}' <<<"$one
$two")
((errors == 0)) || { echo "replicas.sh: $errors errors (non-2xx or socket) — see the table" >&2; exit 1; }
