#!/usr/bin/env bash
# Tests deploy/systemd/platform.service (docs/operations.md): `systemd-analyze verify` must have
# nothing to say about it, and it must keep the settings the docs promise (the state folder, the
# drain, the hardening). verify complains that ExecStart's /usr/local/bin/platform does not exist
# on a machine where it is not installed, so it checks a copy whose ExecStart names a binary that
# does exist; any other line it prints fails the test (it reports unknown keys and bad values on
# stderr and still exits 0). Skipped (exit 77) when systemd-analyze is missing.
#
#   tests/scripts/systemd_unit_test.sh [path/to/platform]
set -euo pipefail

if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "SKIP: systemd-analyze is not installed"
    exit 77
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
unit=${SYSTEMD_UNIT:-$top/deploy/systemd/platform.service}
binary=${1:-$top/build/platform}
[[ -f $unit ]] || {
    echo "FAIL: $unit is missing"
    exit 1
}
# ExecStart needs an absolute path to an executable.
if [[ -x $binary ]]; then
    binary=$(realpath -- "$binary")
else
    binary=$(command -v true)
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/systemd-unit-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# 1. systemd's own checks, on a copy whose ExecStart binary exists.
grep -q '^ExecStart=/usr/local/bin/platform server --profile local$' "$unit" ||
    fail "ExecStart is not '/usr/local/bin/platform server --profile local'"
sed "s#^ExecStart=/usr/local/bin/platform #ExecStart=$binary #" "$unit" >"$scratch/platform.service"
rc=0
out=$(systemd-analyze verify "$scratch/platform.service" 2>&1) || rc=$?
if ((rc != 0)) || [[ -n $out ]]; then
    fail "systemd-analyze verify (exit $rc):"$'\n'"$out"
else
    echo "ok   systemd-analyze verify: no complaint"
fi

# 2. What docs/operations.md says the unit does. "key=value" lines, matched whole.
for line in \
    User=platform \
    StateDirectory=platform \
    StateDirectoryMode=0700 \
    Environment=PLATFORM_HOME=/var/lib/platform \
    EnvironmentFile=-/etc/platform/env \
    Restart=on-failure \
    KillSignal=SIGTERM \
    KillMode=mixed \
    UMask=0077 \
    NoNewPrivileges=yes \
    ProtectSystem=strict \
    ProtectHome=yes \
    PrivateTmp=yes \
    ReadWritePaths=/var/lib/platform \
    Environment=PLATFORM_PROXY_ADDRESS=127.0.0.1:8081; do
    grep -qxF -- "$line" "$unit" || fail "the unit lacks the line '$line'"
done
# The stop timeout must outlast the SIGTERM drain (http.drain_ms, 10 s by default) and the stop
# after it.
stop=$(sed -n 's/^TimeoutStopSec=\([0-9]*\)s\{0,1\}$/\1/p' "$unit")
if [[ -z $stop ]]; then
    fail "no TimeoutStopSec=<seconds> line"
elif ((stop < 15)); then
    fail "TimeoutStopSec=$stop does not outlast the 10 s drain"
fi
((failures)) || echo "ok   the unit's settings"

# 3. The check itself: verify must report a mistake in the unit (here, an unknown key).
sed '/^\[Service\]$/a PlatformUnknownKey=yes' "$scratch/platform.service" >"$scratch/broken.service"
out=$(systemd-analyze verify "$scratch/broken.service" 2>&1) || true
if [[ -z $out ]]; then
    fail "systemd-analyze verify said nothing about an unknown key; it checks nothing here"
else
    echo "ok   systemd-analyze verify reports a broken copy"
fi

if ((failures)); then
    echo "FAIL systemd_unit_test ($failures)"
    exit 1
fi
echo "PASS systemd_unit_test"
