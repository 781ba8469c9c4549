#!/usr/bin/env bash
# Debian's `pebble` (a small RFC 8555 ACME test server) for the ACME client's tests.
#
#   scripts/pebble.sh install    installs the `pebble` package when `command -v pebble` fails
#                                (apt-get update first; sudo only when not root); prints one line
#   scripts/pebble.sh run        starts pebble in the foreground on free 127.0.0.1 ports with a
#                                generated config and a throw-away CA + localhost certificate, and
#                                prints the directory URL, the management URL and the CA file
#                                (for PLATFORM_ACME_DIRECTORY_URL / PLATFORM_ACME_CA_FILE). Ctrl-C
#                                stops it and removes its temporary folder.
#
# The tests (tests/integration/acme_test.cpp) start their own pebble the same way and install
# nothing: without pebble they fail saying to run `scripts/pebble.sh install`.
# `run` sets PEBBLE_VA_ALWAYS_VALID=1 (every challenge passes without contacting this machine),
# PEBBLE_VA_NOSLEEP=1 and PEBBLE_WFE_NONCEREJECT=0; set them yourself to override.
set -euo pipefail

pebble_install() {
    if command -v pebble >/dev/null 2>&1; then
        echo "pebble: nothing to do ($(command -v pebble))"
        return 0
    fi
    local sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "pebble: missing; not root and no sudo — install the 'pebble' package and rerun" >&2
            return 1
        fi
        sudo=(sudo)
    fi
    # apt's chatter goes to a log, shown only when it fails (as scripts/deps.sh does).
    local log
    log=$(mktemp "${TMPDIR:-/tmp}/platform-pebble.XXXXXX")
    if "${sudo[@]}" apt-get update >"$log" 2>&1 &&
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y --no-install-recommends pebble >>"$log" 2>&1 </dev/null; then
        rm -f "$log"
        echo "pebble: installed $(command -v pebble || echo '(not on PATH?)')"
        return 0
    fi
    cat "$log" >&2
    rm -f "$log"
    echo "pebble: apt-get failed installing pebble" >&2
    return 1
}

# A free TCP port on 127.0.0.1 (the kernel's choice; released before pebble binds it).
free_port() {
    python3 - <<'EOF' 2>/dev/null || shuf -i 20000-60000 -n 1
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
EOF
}

pebble_run() {
    if ! command -v pebble >/dev/null 2>&1; then
        echo "pebble: not installed — run scripts/pebble.sh install" >&2
        return 1
    fi
    local dir
    dir=$(mktemp -d "${TMPDIR:-/tmp}/platform-pebble.XXXXXX")
    trap 'rm -rf "$dir"' EXIT

    # A throw-away CA and a certificate for localhost / 127.0.0.1 for pebble's own HTTPS.
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
        -subj "/CN=platform pebble test CA" -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
        -subj "/CN=localhost" -keyout "$dir/key.pem" -out "$dir/cert.csr" 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$dir/ext.cnf"
    openssl x509 -req -in "$dir/cert.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial \
        -days 2 -extfile "$dir/ext.cnf" -out "$dir/cert.pem" 2>/dev/null

    local port mgmt http tls
    port=$(free_port)
    mgmt=$(free_port)
    http=$(free_port)
    tls=$(free_port)
    cat >"$dir/pebble.json" <<EOF
{
  "pebble": {
    "listenAddress": "127.0.0.1:$port",
    "managementListenAddress": "127.0.0.1:$mgmt",
    "certificate": "$dir/cert.pem",
    "privateKey": "$dir/key.pem",
    "httpPort": $http,
    "tlsPort": $tls,
    "ocspResponderURL": "",
    "externalAccountBindingRequired": false
  }
}
EOF
    echo "pebble: directory  https://127.0.0.1:$port/dir"
    echo "pebble: management https://127.0.0.1:$mgmt (issuing root: /roots/0)"
    echo "pebble: CA file    $dir/ca.pem"
    echo "pebble: http-01 validation connects to port $http"
    echo "  PLATFORM_ACME_DIRECTORY_URL=https://127.0.0.1:$port/dir PLATFORM_ACME_CA_FILE=$dir/ca.pem"
    PEBBLE_VA_ALWAYS_VALID=${PEBBLE_VA_ALWAYS_VALID:-1} \
        PEBBLE_VA_NOSLEEP=${PEBBLE_VA_NOSLEEP:-1} \
        PEBBLE_WFE_NONCEREJECT=${PEBBLE_WFE_NONCEREJECT:-0} \
        pebble -config "$dir/pebble.json"
}

case ${1:-} in
    install) pebble_install ;;
    run) pebble_run ;;
    *)
        sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
        [[ ${1:-} == -h || ${1:-} == --help ]] && exit 0
        exit 2
        ;;
esac
