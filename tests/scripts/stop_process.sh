# shellcheck shell=bash
# stop_process.sh — sourced by the scripts that start a platform server of their own (tests,
# smoke runs, soak): stopping it at the end, whatever state it is in.
#
#   source "$top/tests/scripts/stop_process.sh"
#   stop_and_remove_on_exit server_pid 100 "$scratch"

# stop_process PID [TENTHS] — SIGTERM, then SIGKILL if PID still runs after TENTHS tenths of a
# second (default 50); TENTHS 0 is SIGKILL at once. Reaps PID when it is a child of this shell.
# Nothing happens when PID is empty or already gone.
stop_process() {
    local pid=$1 tenths=${2:-50}
    [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
    if ((tenths > 0)); then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 "$tenths"); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
    fi
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

# stop_and_remove_on_exit PID_VARIABLE TENTHS DIR — sets the EXIT trap: stop_process on the pid
# the variable named PID_VARIABLE holds by then (TENTHS as above), then DIR removed.
stop_and_remove_on_exit() {
    # shellcheck disable=SC2064  # the names and DIR are fixed now; the pid is read at exit
    trap "stop_process \"\${$1:-}\" $2; rm -rf -- $(printf '%q' "$3")" EXIT
}
