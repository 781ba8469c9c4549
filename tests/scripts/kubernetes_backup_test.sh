#!/usr/bin/env bash
# Runs the plain manifests' pod without a cluster, and the backup procedures of docs/operations.md
# ("Running replicas") against it. Two replicas of the built host start as the Deployment's
# container would: its args and environment (tests/e2e/kubernetes_check.mjs pod), the ConfigMap's
# profile on PLATFORM_PROFILE_PATH, the Secret's keys filled in here, through the image's
# entrypoint (profiles/kubernetes/entrypoint.sh), each with its own PLATFORM_HOME and a pod name
# for PLATFORM_NODE_ID — on a throwaway
# PostgreSQL (scripts/postgres.sh) and NATS (scripts/nats.sh), loopback ports instead of 8080/8081.
#   1. A note written and three events published through one replica are read through the other.
#   2. Backups: pg_dump of the schema `platform` while both serve; the JetStream store folder copied
#      while nats-server is stopped (the replicas reconnect by themselves after its restart).
#   3. A later note and a fourth event, through the second replica (after the NATS restart).
#   4. Restore: replicas stopped, pg_restore --clean, the store folder put back, replicas started.
#      The access token from before still authenticates (same PLATFORM_CONFIG_SECRET_KEY), the
#      first note and the three events are back, the later note and the fourth event are not.
# Skipped (exit 77), naming what is missing, without PostgreSQL 15's binaries, pg_dump/pg_restore or
# nats-server (scripts/deps.sh installs them). Needs tests/e2e/node_modules (scripts/e2e-deps.sh).
#
#   tests/scripts/kubernetes_backup_test.sh [path/to/platform]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
platform=${1:-$top/build/platform}
node=$top/tests/e2e/node_modules/.bin/node
pg_bin=${PLATFORM_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
started=$SECONDS

[[ -x $platform ]] || {
    echo "FAIL: $platform is not an executable (give the build's platform binary)"
    exit 1
}
[[ -x $node ]] || {
    echo "FAIL: tests/e2e/node_modules lacks node: run scripts/e2e-deps.sh"
    exit 1
}
for tool in "$pg_bin/initdb" "$pg_bin/pg_dump" "$pg_bin/pg_restore" nats-server; do
    [[ -x $tool ]] || command -v "$tool" >/dev/null 2>&1 || {
        echo "SKIP: $tool is missing (Debian's postgresql and nats-server: scripts/deps.sh)"
        exit 77
    }
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/kubernetes-backup-test.XXXXXX")
chmod 0755 "$scratch" # PostgreSQL runs as another user when this runs as root
pids=(0 "" "")
# shellcheck source=stop_process.sh
source "$here/stop_process.sh"
cleanup() {
    stop_process "${pids[1]}" 100
    stop_process "${pids[2]}" 100
    bash "$top/scripts/nats.sh" stop "$scratch/nats" >/dev/null 2>&1 || true
    bash "$top/scripts/postgres.sh" stop "$scratch/pg" >/dev/null 2>&1 || true
    rm -rf -- "$scratch"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*"
    for r in 1 2; do
        [[ -f $scratch/replica$r.log ]] || continue
        echo "--- replica $r's log (last 15 lines):"
        tail -n 15 "$scratch/replica$r.log"
    done
    exit 1
}
ok() { echo "ok   $*"; }

dsn=$(bash "$top/scripts/postgres.sh" start "$scratch/pg") || fail "scripts/postgres.sh start"
nats_env=$(bash "$top/scripts/nats.sh" start "$scratch/nats") || fail "scripts/nats.sh start"
nats_url=$(sed -n 's/^PLATFORM_NATS_URL=//p' <<<"$nats_env")
ok "PostgreSQL at ${dsn%%/postgres}, NATS at $nats_url"

# The pod's container, from the manifests.
"$node" "$top/tests/e2e/kubernetes_check.mjs" pod "$top/profiles/kubernetes/manifests" "$scratch/pod" ||
    fail "kubernetes_check.mjs pod"
mapfile -t pod_args <"$scratch/pod/args"
declare -A secret=(
    [config-secret-key]=$(openssl rand -hex 32)
    [postgres-url]=$dsn
    [admin-secret]=kubernetes-backup-admin-secret
)

# start_replica N — the container's environment with loopback ports, this test's PostgreSQL, NATS
# and Secret values, and its own home; waits (20 s) for the `listening` line and sets api[N].
declare -a api=()
start_replica() {
    local n=$1 line name value
    local -a env=(PATH="$(dirname "$platform"):/usr/bin:/bin")
    while IFS= read -r line; do
        name=${line%%=*}
        value=${line#*=}
        case $name in
            PLATFORM_HOME) value=$scratch/home$n ;;
            PLATFORM_PROFILE_PATH) value=$scratch/pod/profiles ;;
            PLATFORM_API_ADDRESS | PLATFORM_PROXY_ADDRESS) value=127.0.0.1:0 ;;
            PLATFORM_NATS_URL) value=$nats_url ;;
        esac
        [[ $value == field:metadata.name ]] && value=platform-test-replica-$n # the pod's name
        [[ $value == field:* ]] && fail "env $name: no stand-in for the pod's ${value#field:}"
        if [[ $value == secret:* ]]; then
            [[ -n ${secret[${value#secret:}]+set} ]] || fail "env $name: the Secret has no key ${value#secret:}"
            value=${secret[${value#secret:}]}
        fi
        env+=("$name=$value")
    done <"$scratch/pod/env"
    : >"$scratch/replica$n.log"
    env -i "${env[@]}" sh "$top/profiles/kubernetes/entrypoint.sh" "${pod_args[@]}" \
        >"$scratch/replica$n.out" 2>"$scratch/replica$n.log" &
    pids[n]=$!
    local deadline=$((SECONDS + 20))
    line=
    while ((SECONDS < deadline)); do
        line=$(grep -m1 -o 'listening api=[^ ]*' "$scratch/replica$n.log" || true)
        [[ -n $line ]] && break
        kill -0 "${pids[n]}" 2>/dev/null || fail "replica $n exited before listening"
        sleep 0.05
    done
    [[ -n $line ]] || fail "replica $n: no 'listening' line within 20 s"
    api[n]=${line#listening api=}
}
stop_replica() {
    stop_process "${pids[$1]}" 200
    pids[$1]=""
}
call() { # call N METHOD PATH [JSON] — prints the body; fails on a status other than 2xx
    local n=$1 method=$2 path=$3 body=${4:-} out code
    out=$(curl -sS -X "$method" "http://${api[n]}$path" -H "Authorization: Bearer ${token:-}" \
        -H 'Content-Type: application/json' ${body:+-d "$body"} -w '\n%{http_code}') || fail "curl $method $path"
    code=${out##*$'\n'}
    out=${out%$'\n'*}
    [[ $code == 2* ]] || fail "$method $path on replica $n: $code $out"
    printf '%s' "$out"
}
status() { curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer ${token:-}" "http://${api[$1]}$2"; }
payloads() { "$node" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).events.map(e=>e.payload.n).join(",")))'; }

start_replica 1
start_replica 2
for n in 1 2; do
    [[ $(status "$n" /health) == 200 ]] || fail "replica $n: /health is not 200: $(curl -s "http://${api[n]}/health")"
done
ok "two replicas from the Deployment's args and env, through the entrypoint: /health 200 on ${api[1]} and ${api[2]}"

# 1. Shared through PostgreSQL and NATS.
token=$(call 1 POST /auth/token "{\"id\":\"admin\",\"secret\":\"${secret[admin-secret]}\"}" |
    sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
[[ -n $token ]] || fail "no access token for admin (PLATFORM_ADMIN_SECRET from the Secret)"
call 1 POST /api/v1/notes/add '{"title":"kept","text":"before the backup"}' >/dev/null
[[ $(call 2 GET '/api/v1/notes/get?title=kept') == *'before the backup'* ]] || fail "replica 2 does not read replica 1's note"
for i in 1 2 3; do call 1 POST /events/publish "{\"topic\":\"kube-backup\",\"payload\":{\"n\":$i}}" >/dev/null; done
[[ $(call 2 GET '/events/read?topic=kube-backup' | payloads) == 1,2,3 ]] || fail "replica 2 does not read replica 1's events"
ok "a note and three events through replica 1, read through replica 2"

# 2. Backups, as docs/operations.md says.
"$pg_bin/pg_dump" --format=custom --schema=platform --file="$scratch/platform.dump" "$dsn" || fail "pg_dump"
bash "$top/scripts/nats.sh" stop --keep "$scratch/nats" >/dev/null || fail "nats.sh stop --keep"
cp -a "$scratch/nats/store" "$scratch/jetstream-backup"
bash "$top/scripts/nats.sh" start "$scratch/nats" >/dev/null || fail "nats.sh start (restart)"
ok "pg_dump --schema=platform while serving ($(stat -c %s "$scratch/platform.dump") bytes); JetStream store copied while nats-server was stopped"

# 3. Later writes, through replica 2 once it has reconnected to the restarted NATS.
call 2 POST /api/v1/notes/add '{"title":"later","text":"after the backup"}' >/dev/null
deadline=$((SECONDS + 20))
until out=$(curl -s -X POST "http://${api[2]}/events/publish" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' -d '{"topic":"kube-backup","payload":{"n":4}}') && [[ $out == *'"offset":4'* ]]; do
    ((SECONDS < deadline)) || fail "replica 2 could not publish within 20 s of the NATS restart: $out"
    sleep 0.1
done
[[ $(call 1 GET '/events/read?topic=kube-backup' | payloads) == 1,2,3,4 ]] || fail "replica 1 does not read the fourth event"
ok "after the NATS restart: a later note and a fourth event (the replicas reconnected by themselves)"

# 4. Restore both, with the replicas stopped.
stop_replica 1
stop_replica 2
"$pg_bin/pg_restore" --clean --if-exists --schema=platform --dbname="$dsn" "$scratch/platform.dump" || fail "pg_restore"
bash "$top/scripts/nats.sh" stop --keep "$scratch/nats" >/dev/null || fail "nats.sh stop --keep"
rm -rf "$scratch/nats/store"
cp -a "$scratch/jetstream-backup" "$scratch/nats/store"
bash "$top/scripts/nats.sh" start "$scratch/nats" >/dev/null || fail "nats.sh start (restored)"
start_replica 1
start_replica 2
[[ $(call 2 GET '/api/v1/notes/get?title=kept') == *'before the backup'* ]] ||
    fail "the note from before the backup is not back (or the old token was refused)"
[[ $(status 1 '/api/v1/notes/get?title=later') == 404 ]] || fail "the note written after the backup survived the restore"
[[ $(call 1 GET '/events/read?topic=kube-backup' | payloads) == 1,2,3 ]] || fail "the events are not the three from before the backup"
ok "restored: the old token authenticates, the note and the three events from before are back, the later ones are not"

echo "PASS kubernetes_backup_test ($((SECONDS - started)) s)"
