#!/usr/bin/env bash
# The first hour's first wait: from a fresh clone to the server's `listening` line (README command 1,
# scripts/serve), on a machine where the packages are already installed.
#
#   tests/bench/first_start.sh [--cold] [--keep]
#
#   --cold   with an empty ccache (a new machine); default: the user's ccache, as a developer who
#            built another checkout has it
#   --keep   keep the clone (printed) instead of removing it
#
# Clones this repository's HEAD into a temporary folder, runs its scripts/serve on free loopback
# ports with a temporary PLATFORM_HOME, and stops the server once it printed `listening`. Prints
# the clone, build and start times, the number of build steps and ccache's hits, e.g.
#   first start (warm ccache): clone 0.4 s, build 41.2 s (318 steps, ccache 312/312 hits), listening 1.3 s later: 42.9 s
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)

cold=0 keep=0
for arg in "$@"; do
    case $arg in
        --cold) cold=1 ;;
        --keep) keep=1 ;;
        -h | --help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "first_start.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

bash "$top/scripts/deps.sh" >/dev/null   # not timed: the packages are there on the measured machine
work=$(mktemp -d "${TMPDIR:-/tmp}/platform-first-start.XXXXXX")
server=""
cleanup() {
    if [[ -n $server ]] && kill -0 "$server" 2>/dev/null; then
        kill -TERM "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    if ((keep)); then echo "kept: $work/platform"; else rm -rf "$work"; fi
}
trap cleanup EXIT

if ((cold)); then
    export CCACHE_DIR=$work/ccache
fi
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
hits() { ccache --print-stats 2>/dev/null | awk '$1 ~ /^(direct|preprocessed)_cache_hit$/ { h += $2 } $1 == "cache_miss" { m += $2 } END { print h + 0, m + 0 }'; }

now() { date +%s.%N; }
t0=$(now)
git clone -q "$top" "$work/platform"
t1=$(now)
read -r h0 m0 < <(hits)
log=$work/serve.log
PLATFORM_HOME=$work/home setsid bash "$work/platform/scripts/serve" \
    --api_address 127.0.0.1:0 --proxy_address 127.0.0.1:0 >"$log" 2>&1 &
server=$!
built="" listening=""
# Wait on the log, not on a clock: the build's last line, then the server's `listening` line.
while kill -0 "$server" 2>/dev/null; do
    [[ -n $built ]] || ! grep -q '^built: ' "$log" || built=$(now)
    if grep -q 'listening api=' "$log"; then
        listening=$(now)
        break
    fi
    sleep 0.05
done
if [[ -z $listening ]]; then
    tail -n 30 "$log" >&2
    echo "first_start.sh: scripts/serve stopped before listening" >&2
    exit 1
fi
read -r h1 m1 < <(hits)
steps=$(awk 'NR > 1' "$work/platform/build/.ninja_log" | wc -l)
kill -TERM -- "-$server" 2>/dev/null || kill -TERM "$server" 2>/dev/null || true

hit=$((h1 - h0)) miss=$((m1 - m0))
printf 'first start (%s ccache): clone %.1f s, build %.1f s (%d steps, ccache %d/%d hits), listening %.1f s later: %.1f s\n' \
    "$( ((cold)) && echo cold || echo warm)" "$(echo "$t1 - $t0" | bc)" "$(echo "$built - $t1" | bc)" \
    "$steps" "$hit" "$((hit + miss))" "$(echo "$listening - $built" | bc)" "$(echo "$listening - $t0" | bc)"
