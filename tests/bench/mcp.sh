#!/usr/bin/env bash
# MCP tools/call throughput next to the official TypeScript SDK's server, in one run.
#   host  `platform server --profile test` (memory store, bearer token = account id), /mcp
#   node  mcp_node_server.mjs: @modelcontextprotocol/sdk's Streamable HTTP server, same tool
# Both serve notes_get {"title":"bench"} from memory and answer JSON. mcp_client.mjs (fetch,
# keep-alive) runs CALLS calls with 1 and with 8 in flight, against each server in turn, ROUNDS
# times; the table gives the median calls/s, p50 and p99 and the host ÷ node ratio.
#
#   tests/bench/mcp.sh [--build-dir DIR] [--calls N] [--rounds N] [--out FILE]
#     --build-dir DIR   where `platform` and the plugins are (build/; built by scripts/build.sh when
#                       it is build/)
#     --calls N         tools/call requests per measurement (2000)
#     --rounds N        measurements per server and concurrency; medians are reported (3)
#     --out FILE        where the table goes (BUILD_DIR/bench-mcp.md)
# Needs the npm packages of tests/e2e (scripts/e2e-deps.sh installs them, Node 22 included).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top"
# shellcheck source=lib/servers.sh
source "$here/lib/servers.sh"

build=build calls=2000 rounds=3 out=
while (($#)); do
    case $1 in
        --build-dir) build=${2:?$1 needs a value}; shift ;;
        --calls) calls=${2:?$1 needs a value}; shift ;;
        --rounds) rounds=${2:?$1 needs a value}; shift ;;
        --out) out=${2:?$1 needs a value}; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$here/mcp.sh" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done
out=${out:-$build/bench-mcp.md}

scripts/e2e-deps.sh
if [[ $build == build ]]; then scripts/build.sh >&2 || die "scripts/build.sh failed"; fi
[[ -x $build/platform ]] || die "$build/platform is missing (build it, or pass --build-dir)"
export PATH="$top/tests/e2e/node_modules/.bin:$PATH"  # Node 22 from npm
ln -sfn ../e2e/node_modules "$here/node_modules"      # the scripts here import the e2e packages

tmp=$(mktemp -d)
trap 'bench_cleanup; rm -rf "$tmp"' EXIT
bench_start "$tmp/host.log" env PLATFORM_HOME="$tmp/home" "$build/platform" server --profile test \
    --api_address 127.0.0.1:0 --proxy_address 127.0.0.1:0
host_pid=$bench_last_pid
host_port=$(wait_port "$host_pid" host "$tmp/host.log" "listening api=")
curl -fsS -o /dev/null -H 'Authorization: Bearer bench' -H 'Content-Type: application/json' \
    -d '{"title":"bench","text":"a note to read"}' "http://127.0.0.1:$host_port/api/v1/notes/add" ||
    die "could not write the note the benchmark reads"
bench_start "$tmp/node.log" node "$here/mcp_node_server.mjs"
node_pid=$bench_last_pid
node_port=$(wait_port "$node_pid" node "$tmp/node.log" "listening ")

args='{"title":"bench"}'
results="$tmp/results.jsonl"
for round in $(seq 1 "$rounds"); do
    for c in 1 8; do
        for server in host node; do
            if [[ $server == host ]]; then url="http://127.0.0.1:$host_port/mcp" token=bench; else url="http://127.0.0.1:$node_port/mcp" token=; fi
            line=$(node "$here/mcp_client.mjs" "$url" "$token" "$calls" "$c" notes_get "$args") ||
                die "the client failed against $server"
            echo "{\"server\":\"$server\",\"round\":$round,${line:1}" >>"$results"
            echo "round $round c=$c $server: $line" >&2
        done
    done
done

python3 - "$results" "$calls" "$rounds" >"$out" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
def med(server, c, key):
    return statistics.median(r[key] for r in rows if r["server"] == server and r["in_flight"] == c)
print(f"MCP tools/call notes_get, {sys.argv[2]} calls per run, median of {sys.argv[3]} runs\n")
print("| in flight | server | calls/s | p50 ms | p99 ms | errors |")
print("|---|---|---|---|---|---|")
for c in (1, 8):
    for s in ("host", "node"):
        errs = sum(r["errors"] for r in rows if r["server"] == s and r["in_flight"] == c)
        print(f"| {c} | {s} | {med(s, c, 'calls_per_s'):.0f} | {med(s, c, 'p50_ms'):.2f} | {med(s, c, 'p99_ms'):.2f} | {errs} |")
print()
for c in (1, 8):
    print(f"host ÷ node at {c} in flight: {med('host', c, 'calls_per_s') / med('node', c, 'calls_per_s'):.2f}×")
bad = sum(r["errors"] for r in rows)
sys.exit(1 if bad else 0)
PY
status=$?
cat "$out"
exit $status
