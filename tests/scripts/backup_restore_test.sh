#!/usr/bin/env bash
# Tests scripts/backup and scripts/restore (docs/operations.md) against a real server: the `local`
# profile on free loopback ports under a temporary PLATFORM_HOME. It logs in, stores a note and a
# sealed config secret, backs up while the server runs, writes one more note, stops the server,
# wipes the home, restores, and starts again: the access token from before must still
# authenticate (the signing key survived, sealed with keys/config.key), the note must read back
# and the later one must not, the secret must open, and the restored files must be private
# (folders 0700, files 0600). Also: bad arguments are exit 2, restore refuses a non-empty home
# without --force and a home a server runs on even with --force.
#
#   tests/scripts/backup_restore_test.sh [path/to/platform]
#
# BACKUP_SCRIPT / RESTORE_SCRIPT replace scripts/backup and scripts/restore (to see that the test
# fails when they do not do their job). Needs curl and sqlite3.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
platform=${1:-$top/build/platform}
backup_script=${BACKUP_SCRIPT:-$top/scripts/backup}
restore_script=${RESTORE_SCRIPT:-$top/scripts/restore}
secret='backup-restore-admin-secret'
started=$SECONDS

[[ -x $platform ]] || {
    echo "FAIL: $platform is not an executable (give the build's platform binary)"
    exit 1
}
for tool in curl sqlite3; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "FAIL: $tool is missing (scripts/deps.sh installs it)"
        exit 1
    }
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/backup-restore-test.XXXXXX")
home=$scratch/home
client=$scratch/client
backup=$scratch/backup
server_pid=
# shellcheck source=stop_process.sh
source "$here/stop_process.sh"
stop_and_remove_on_exit server_pid 100 "$scratch"

fail() {
    echo "FAIL: $*"
    if [[ -f $scratch/server.log ]]; then
        echo "--- the server's log (last 20 lines):"
        tail -n 20 "$scratch/server.log"
    fi
    exit 1
}
ok() { echo "ok   $*"; }

# start_server — the server on free loopback ports; waits for its `listening` line (deadline
# 20 s) and sets api and proxy. Settings of the caller's environment that would change what is
# tested are removed.
start_server() {
    : >"$scratch/server.log"
    env -u PLATFORM_CONFIG_SECRET_KEY -u PLATFORM_AUTH_PRIVATE_KEY -u PLATFORM_PROFILE_PATH \
        -u PLATFORM_PLUGIN_PATH -u PLATFORM_LOG_LEVEL -u PLATFORM_NAMESPACE -u PLATFORM_PROFILE \
        PLATFORM_HOME="$home" PLATFORM_ADMIN_SECRET="$secret" \
        "$platform" server --profile local --api_address 127.0.0.1:0 \
        --proxy_address 127.0.0.1:0 >"$scratch/server.out" 2>"$scratch/server.log" &
    server_pid=$!
    local deadline=$((SECONDS + 20)) line=
    while ((SECONDS < deadline)); do
        line=$(grep -m1 -o 'listening api=[^ ]* proxy=[^ ]*' "$scratch/server.log" || true)
        [[ -n $line ]] && break
        kill -0 "$server_pid" 2>/dev/null || fail "the server exited before listening"
        sleep 0.05
    done
    [[ -n $line ]] || fail "no 'listening' line within 20 s"
    api=${line#listening api=}
    api=${api%% *}
    proxy=${line##*proxy=}
}

# stop_server — SIGTERM, then wait (deadline 20 s) for exit status 0.
stop_server() {
    kill -TERM "$server_pid"
    local deadline=$((SECONDS + 20)) rc=0
    while kill -0 "$server_pid" 2>/dev/null; do
        ((SECONDS < deadline)) || fail "the server did not stop within 20 s of SIGTERM"
        sleep 0.05
    done
    wait "$server_pid" || rc=$?
    server_pid=
    ((rc == 0)) || fail "the server exited $rc after SIGTERM"
}

# http METHOD PATH [BODY] — the api port with the bearer token; sets status and body.
http() {
    local args=(-sS -o "$scratch/body" -w '%{http_code}' -X "$1" "http://$api$2"
        -H "Authorization: Bearer $token")
    [[ $# -lt 3 ]] || args+=(-H 'Content-Type: application/json' -d "$3")
    status=$(curl "${args[@]}") || fail "curl $1 $2 failed"
    body=$(cat "$scratch/body")
}

# cli ARGS... — the platform client against the running server, with its own PLATFORM_HOME.
cli() {
    env -u PLATFORM_ENV PLATFORM_HOME="$client" PLATFORM_PROXY="$proxy" PLATFORM_TOKEN="$token" \
        "$platform" "$@"
}

# modes_private DIR — every folder 0700 and every file 0600 or 0700.
modes_private() {
    local bad
    bad=$(find "$1" \( -type d ! -perm 700 \) -o \( -type f ! -perm 600 ! -perm 700 \) \
        -printf '%m %p\n')
    [[ -z $bad ]] || fail "not private in $1:"$'\n'"$bad"
}

# Bad arguments are exit 2, with the usage on stderr.
expect_usage() {
    local rc=0 err
    err=$("$@" 2>&1 >/dev/null) || rc=$?
    ((rc == 2)) || fail "$* exited $rc, wanted 2"
    grep -q '^usage: ' <<<"$err" || fail "$* printed no usage: $err"
}
for script in "$backup_script" "$restore_script"; do
    expect_usage "$script"
    expect_usage "$script" "$home"
    expect_usage "$script" "$home" "$backup" extra
    expect_usage "$script" --bogus "$home" "$backup"
done
ok "bad arguments: exit 2 with the usage"

mkdir -p "$client"
start_server
ok "server listening on api=$api proxy=$proxy"

token=
status=$(curl -sS --max-time 20 -o "$scratch/body" -w '%{http_code}' -X POST "http://$api/auth/token" \
    -H 'Content-Type: application/json' -d "{\"id\":\"admin\",\"secret\":\"$secret\"}") ||
    fail "curl /auth/token failed"
[[ $status == 200 ]] || fail "POST /auth/token answered $status: $(cat "$scratch/body")"
token=$(grep -o '"access_token":"[^"]*"' "$scratch/body" | cut -d'"' -f4)
[[ -n $token ]] || fail "no access_token in $(cat "$scratch/body")"
ok "logged in as admin"

http POST /api/v1/notes/add '{"title":"kept","text":"in the backup"}'
[[ $status == 200 ]] || fail "notes/add answered $status: $body"
cli config set --secret ops.backup_test 'sealed value 42' || fail "platform config set --secret failed"
[[ $(cli config get ops.backup_test) == '[secret]' ]] || fail "the config value is not sealed"
[[ $(cli config get --secret ops.backup_test) == 'sealed value 42' ]] ||
    fail "the secret does not read back before the backup"
ok "note and sealed config secret stored"

out=$("$backup_script" "$home" "$backup" 2>&1) || fail "scripts/backup failed while serving:"$'\n'"$out"
ok "backup while serving: $out"
[[ -f $backup/home/keys/config.key ]] || fail "the backup lacks keys/config.key"
[[ ! -e $backup/home/keys/operator.json ]] || fail "the backup holds the server's keys/operator.json"
for db in store events; do
    [[ -f $backup/home/data/$db.db ]] || fail "the backup lacks data/$db.db"
    [[ ! -e $backup/home/data/$db.db-wal ]] || fail "the backup holds data/$db.db-wal"
    [[ $(sqlite3 -readonly "$backup/home/data/$db.db" 'PRAGMA integrity_check;') == ok ]] ||
        fail "the backup's data/$db.db fails integrity_check"
done
modes_private "$backup"
ok "backup contents and modes"

# Written after the backup: must be gone after the restore.
http POST /api/v1/notes/add '{"title":"later","text":"after the backup"}'
[[ $status == 200 ]] || fail "notes/add (later) answered $status: $body"

rc=0
out=$("$restore_script" --force "$backup" "$home" 2>&1) || rc=$?
((rc == 1)) || fail "restore over a running server's home exited $rc, wanted 1:"$'\n'"$out"
grep -q 'server is running' <<<"$out" || fail "restore over a running server said: $out"
[[ -f $home/data/store.db ]] || fail "the refused restore touched the home"
ok "restore refuses a home a server runs on, even with --force"

stop_server
ok "server stopped (SIGTERM, exit 0)"

rc=0
out=$("$restore_script" "$backup" "$home" 2>&1) || rc=$?
((rc == 1)) || fail "restore into a non-empty home without --force exited $rc, wanted 1:"$'\n'"$out"
ok "restore refuses a non-empty home without --force"

rm -rf "$home"
out=$("$restore_script" "$backup" "$home" 2>&1) || fail "scripts/restore failed:"$'\n'"$out"
ok "restore into a wiped home: $out"
[[ $(stat -c %a "$home") == 700 ]] || fail "the restored home is mode $(stat -c %a "$home")"
[[ $(stat -c %a "$home/keys/config.key") == 600 ]] || fail "restored keys/config.key is not 0600"
[[ $(stat -c %a "$home/data/store.db") == 600 ]] || fail "restored data/store.db is not 0600"
modes_private "$home"
ok "restored modes: folders 0700, files 0600"

start_server
http GET '/api/v1/notes/get?title=kept'
[[ $status == 200 ]] || fail "the token from before the backup: notes/get answered $status: $body"
grep -q '"text":"in the backup"' <<<"$body" || fail "the note reads back as $body"
ok "the old access token authenticates and the note reads back"
http GET '/api/v1/notes/get?title=later'
[[ $status == 404 ]] || fail "the note written after the backup answered $status: $body"
ok "the note written after the backup is not there"
[[ $(cli config get --secret ops.backup_test 2>&1) == 'sealed value 42' ]] ||
    fail "the sealed secret does not read back: $(cli config get --secret ops.backup_test 2>&1)"
ok "the sealed config secret reads back"
stop_server

# --force over the stopped server's (non-empty) home.
out=$("$restore_script" --force "$backup" "$home" 2>&1) || fail "restore --force failed:"$'\n'"$out"
[[ ! -e $home/.restore-partial && -f $home/keys/config.key ]] || fail "restore --force left $(ls -A "$home")"
ok "restore --force over a stopped server's home"

echo "PASS backup_restore_test ($((SECONDS - started)) s)"
