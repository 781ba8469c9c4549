#!/usr/bin/env bash
# Tests that `platform-worker` holds only the host's core and isolation layers
# (host/CMakeLists.txt): it runs one plugin, so the HTTP server (Pistache) and the ACME client
# have no business in it. Fails when `ldd` shows libpistache or when `nm -C` finds an ACME symbol
# (AcmeClient, AcmeSettings, HttpChallenges...). The same checks must find both in `platform`,
# which does serve HTTP and ACME: a checker that sees nothing there proves nothing.
#
#   tests/scripts/worker_links_test.sh path/to/platform-worker path/to/platform
set -euo pipefail

worker=${1:?usage: worker_links_test.sh path/to/platform-worker path/to/platform}
platform=${2:?usage: worker_links_test.sh path/to/platform-worker path/to/platform}
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# links_pistache <binary>: ldd names libpistache.
links_pistache() {
    local libs
    libs=$(ldd "$1") || {
        echo "FAIL: ldd $1 failed"
        exit 1
    }
    grep -q 'libpistache' <<<"$libs"
}
# acme_symbols <binary>: the ACME symbols nm finds, one a line.
acme_symbols() {
    local syms
    syms=$(nm -C "$1") || {
        echo "FAIL: nm -C $1 failed"
        exit 1
    }
    grep -q 'platform::host::' <<<"$syms" || {
        echo "FAIL: nm -C $1 shows no platform::host symbol (stripped?): nothing to check"
        exit 1
    }
    grep -E 'Acme|HttpChallenges' <<<"$syms" || true
}

for b in "$worker" "$platform"; do
    [[ -x $b ]] || {
        echo "FAIL: $b is not an executable"
        exit 1
    }
done

# The control: the host itself links both.
links_pistache "$platform" || fail "ldd $platform shows no libpistache: the check cannot see it"
[[ -n $(acme_symbols "$platform") ]] || fail "nm -C $platform shows no ACME symbol: the check cannot see them"

if links_pistache "$worker"; then
    fail "$worker links libpistache (ldd): it must link only host_core and host_isolation"
fi
found=$(acme_symbols "$worker")
if [[ -n $found ]]; then
    fail "$worker holds ACME symbols (nm -C), e.g.: $(head -3 <<<"$found" | tr -s ' ' | paste -sd ';')"
fi

if ((failures)); then
    echo "$failures failure(s)"
    exit 1
fi
echo "ok: $worker links neither Pistache nor the ACME client"
