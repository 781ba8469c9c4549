#!/usr/bin/env bash
# A throwaway PostgreSQL 15 (Debian's `postgresql`) on loopback, for store-postgres's tests and for
# trying the provider by hand. Data lives in a temp folder; nothing touches the system cluster.
#
#   scripts/postgres.sh start [DIR]   initdb into DIR/data (DIR: a new temp folder when omitted),
#                                     start it on a free 127.0.0.1 port, wait until it accepts
#                                     connections (pg_isready, 30 s deadline) and print its DSN,
#                                     one line on stdout (also kept in DIR/dsn)
#   scripts/postgres.sh halt DIR [immediate]
#                                     stops the server (fast shutdown; `immediate`: as a crash
#                                     would, recovery at the next start) and keeps DIR: `start DIR`
#                                     starts it again on the same port, data and all
#   scripts/postgres.sh stop DIR      fast shutdown, then DIR is removed
#   scripts/postgres.sh env DIR       prints `export PLATFORM_POSTGRES_DSN=...` for eval
#
# DIR may also come from PLATFORM_POSTGRES_DIR. As root the server runs as the `postgres` user (the
# package's), or a system user `platform-pg` created when that is missing: PostgreSQL refuses to run
# as root. Trust authentication on 127.0.0.1 and a socket in DIR only: a test server, not for data
# that matters. Binaries come from PLATFORM_POSTGRES_BIN (default /usr/lib/postgresql/15/bin).
set -euo pipefail

bin=${PLATFORM_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
marker=.platform-postgres  # start writes it; stop removes only a folder holding it

die() {
    echo "postgres.sh: $*" >&2
    exit 1
}

# The command prefix that runs a command as the server's user ("" when not root).
as_user=()
server_user() {
    if [[ $(id -u) -ne 0 ]]; then
        as_user=()
        return
    fi
    local user=postgres
    if ! id "$user" >/dev/null 2>&1; then
        user=platform-pg
        id "$user" >/dev/null 2>&1 ||
            useradd --system --no-create-home --shell /usr/sbin/nologin "$user" ||
            die "cannot create the user $user to run PostgreSQL (it refuses to run as root)"
    fi
    as_user=(runuser -u "$user" --)
    owner=$user
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

pick_dir() {
    local dir=${1:-${PLATFORM_POSTGRES_DIR:-}}
    [[ -n $dir ]] || die "$cmd: name the folder start used (or set PLATFORM_POSTGRES_DIR)"
    [[ -f $dir/$marker ]] || die "$cmd: $dir is not a folder scripts/postgres.sh start made"
    (cd "$dir" && pwd)
}

start() {
    [[ -x $bin/initdb && -x $bin/pg_ctl ]] ||
        die "PostgreSQL binaries not found in $bin (install Debian's postgresql: scripts/deps.sh)"
    command -v pg_isready >/dev/null || die "pg_isready not found (Debian's postgresql-client)"
    local dir=${1:-${PLATFORM_POSTGRES_DIR:-}}
    if [[ -z $dir ]]; then
        dir=$(mktemp -d "${TMPDIR:-/tmp}/platform-postgres.XXXXXX")
        echo "postgres.sh: data in $dir (stop with: scripts/postgres.sh stop $dir)" >&2
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    local again=0
    if [[ -e $dir/data ]]; then
        [[ -f $dir/$marker && -f $dir/port ]] ||
            die "start: $dir/data exists but is not a halted server of this script; pick a new folder"
        [[ -f $dir/data/postmaster.pid ]] && die "start: the server in $dir is running already"
        again=1
    fi
    touch "$dir/$marker"
    owner=$(id -un)
    server_user
    chown "$owner" "$dir"
    chmod 700 "$dir"
    "${as_user[@]}" test -w "$dir" ||
        die "start: $owner cannot write $dir (a parent folder is closed to it); use a folder under /tmp"

    if ((!again)); then
        "${as_user[@]}" "$bin/initdb" -D "$dir/data" -U platform --auth=trust -E UTF8 --locale=C \
            --no-sync >"$dir/initdb.log" 2>&1 || {
            cat "$dir/initdb.log" >&2
            die "start: initdb failed"
        }
    fi

    # A port is free when picked but may be taken before the server binds it: then try another.
    local port pid deadline
    # A halted server starts again on its own port (its clients' DSN), once.
    local tries=(1 2 3)
    ((again)) && tries=(1)
    for _ in "${tries[@]}"; do
        if ((again)); then port=$(cat "$dir/port"); else port=$(free_port); fi
        "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -W \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start >/dev/null ||
            die "start: pg_ctl start failed (see $dir/server.log)"
        deadline=$((SECONDS + 30))
        while ! pg_isready -q -h 127.0.0.1 -p "$port" -d postgres -U platform; do
            # The postmaster writes its pid file once it runs; gone again means it exited.
            if [[ -f $dir/data/postmaster.pid ]]; then
                pid=$(head -1 "$dir/data/postmaster.pid")
                kill -0 "$pid" 2>/dev/null || break
            elif grep -q 'could not bind\|could not create any TCP/IP sockets' "$dir/server.log" 2>/dev/null; then
                break
            fi
            ((SECONDS < deadline)) || {
                tail -20 "$dir/server.log" >&2
                die "start: not accepting connections on 127.0.0.1:$port after 30 s"
            }
            sleep 0.1 # polling interval; the loop ends on pg_isready or the deadline
        done
        if pg_isready -q -h 127.0.0.1 -p "$port" -d postgres -U platform; then
            local dsn="postgresql://platform@127.0.0.1:$port/postgres"
            echo "$dsn" >"$dir/dsn"
            echo "$port" >"$dir/port"
            echo "$dsn"
            return 0
        fi
        "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    done
    tail -20 "$dir/server.log" >&2
    die "start: the server did not start (see $dir/server.log)"
}

stop() {
    local dir
    dir=$(pick_dir "${1:-}")
    server_user
    if [[ -f $dir/data/postmaster.pid ]]; then
        "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null ||
            die "stop: pg_ctl stop failed (see $dir/server.log)"
    fi
    rm -rf "$dir"
}

halt() {
    local dir mode=${2:-fast}
    dir=$(pick_dir "${1:-}")
    [[ $mode == fast || $mode == immediate ]] || die "halt: the mode is fast or immediate, not '$mode'"
    server_user
    [[ -f $dir/data/postmaster.pid ]] || die "halt: the server in $dir is not running"
    "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -m "$mode" -w -t 30 stop >/dev/null ||
        die "halt: pg_ctl stop failed (see $dir/server.log)"
}

env_of() {
    local dir
    dir=$(pick_dir "${1:-}")
    [[ -f $dir/dsn ]] || die "env: $dir has no running server's DSN"
    printf 'export PLATFORM_POSTGRES_DSN=%q\n' "$(cat "$dir/dsn")"
    printf 'export PLATFORM_POSTGRES_DIR=%q\n' "$dir"
}

cmd=${1:-}
shift || true
case $cmd in
    start) start "$@" ;;
    stop) stop "$@" ;;
    halt) halt "$@" ;;
    env) env_of "$@" ;;
    *)
        sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
        exit 2
        ;;
esac
