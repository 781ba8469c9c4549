#!/usr/bin/env bash
# Debian's nats-server with JetStream on loopback, for the NATS providers' tests (broker-nats,
# events-nats) and for trying them by hand.
#
#   scripts/nats.sh start [DIR]   starts nats-server in the background on free 127.0.0.1 ports that
#                                 it picks (client and monitoring), JetStream on file storage in DIR/store,
#                                 and returns once /healthz answers ok (deadline 30 s). DIR defaults
#                                 to a new temporary folder; a DIR that already holds a nats.conf
#                                 is started again with the same ports and store (a restart).
#                                 Prints the `env` lines.
#   scripts/nats.sh env [DIR]     prints PLATFORM_NATS_URL=..., PLATFORM_NATS_DIR=... and
#                                 PLATFORM_NATS_PID=... for DIR's server, one per line (in a shell:
#                                 `set -a; eval "$(scripts/nats.sh start)"; set +a`)
#   scripts/nats.sh stop [DIR]    stops DIR's server (SIGTERM, then SIGKILL after 10 s) and removes
#                                 DIR; with --keep, keeps DIR (its store) for a later `start DIR`
#
# DIR defaults to $PLATFORM_NATS_DIR for env and stop. max_payload is 8 MB (NATS' default is 1 MB).
# Without nats-server it fails saying to install the `nats-server` package (scripts/deps.sh).
set -euo pipefail

die() {
    echo "nats.sh: $*" >&2
    exit 1
}

conf_value() {  # conf_value DIR key → the value of `key: value` in DIR/nats.conf
    sed -n "s/^$2: *\"\{0,1\}\([^\"]*\)\"\{0,1\}$/\1/p" "$1/nats.conf"
}

print_env() {
    local dir=$1
    echo "PLATFORM_NATS_URL=nats://127.0.0.1:$(conf_value "$dir" port)"
    echo "PLATFORM_NATS_DIR=$dir"
    echo "PLATFORM_NATS_PID=$(cat "$dir/pid" 2>/dev/null || true)"
}

write_conf() {  # write_conf DIR PORT HTTP
    cat >"$1/nats.conf" <<CONF
host: 127.0.0.1
port: $2
http: $3
ports_file_dir: "$1"
max_payload: 8388608
jetstream {
    store_dir: "$1/store"
}
CONF
}

healthy() {  # healthy MONITOR_PORT → 0 once /healthz answers ok
    curl -fsS --max-time 1 "http://127.0.0.1:$1/healthz" 2>/dev/null | grep -q '"ok"'
}

nats_start() {
    command -v nats-server >/dev/null 2>&1 ||
        die "nats-server is not installed — install Debian's 'nats-server' package (scripts/deps.sh)"
    local dir=${1:-}
    if [[ -z $dir ]]; then
        dir=$(mktemp -d "${TMPDIR:-/tmp}/platform-nats.XXXXXX")
    fi
    mkdir -p "$dir/store"
    dir=$(cd "$dir" && pwd)
    # The first start lets nats-server pick free ports (-1) and report them in its ports file;
    # they are then written into nats.conf, so a restart on DIR gets the same ones.
    local fresh=0
    if [[ ! -f $dir/nats.conf ]]; then
        fresh=1
        write_conf "$dir" -1 '"127.0.0.1:-1"'
    fi
    nats-server -c "$dir/nats.conf" -js >"$dir/server.log" 2>&1 </dev/null &
    local pid=$!
    echo "$pid" >"$dir/pid"
    local deadline=$((SECONDS + 30))
    local mport=
    until [[ -n $mport ]] && healthy "$mport"; do
        if [[ -z $mport ]]; then
            if ((fresh)); then
                local ports=$dir/nats-server_$pid.ports
                if [[ -s $ports ]] && grep -q monitoring "$ports"; then
                    local port
                    port=$(sed -n 's|.*"nats://127.0.0.1:\([0-9]*\)".*|\1|p' "$ports")
                    mport=$(sed -n 's|.*"http://127.0.0.1:\([0-9]*\)".*|\1|p' "$ports")
                    write_conf "$dir" "$port" "\"127.0.0.1:$mport\""
                fi
            else
                mport=$(conf_value "$dir" http)
                mport=${mport##*:}
            fi
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            tail -n 20 "$dir/server.log" >&2
            die "nats-server exited during start (log: $dir/server.log)"
        fi
        if ((SECONDS >= deadline)); then
            kill "$pid" 2>/dev/null || true
            tail -n 20 "$dir/server.log" >&2
            die "nats-server not healthy after 30 s (log: $dir/server.log)"
        fi
        sleep 0.05  # the interval between two checks, not a wait for readiness
    done
    print_env "$dir"
}

nats_stop() {
    local keep=0
    if [[ ${1:-} == --keep ]]; then
        keep=1
        shift
    fi
    local dir=${1:-${PLATFORM_NATS_DIR:-}}
    [[ -n $dir && -f $dir/nats.conf ]] || die "stop: no server folder (give DIR or set PLATFORM_NATS_DIR)"
    local pid
    pid=$(cat "$dir/pid" 2>/dev/null || true)
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        local deadline=$((SECONDS + 10))
        while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.05; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$dir/pid"
    ((keep)) || rm -rf "$dir"
}

case ${1:-} in
    start) nats_start "${2:-}" ;;
    env)
        dir=${2:-${PLATFORM_NATS_DIR:-}}
        [[ -n $dir && -f $dir/nats.conf ]] || die "env: no server folder (give DIR or set PLATFORM_NATS_DIR)"
        print_env "$dir"
        ;;
    stop) shift && nats_stop "$@" ;;
    *)
        sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
esac
