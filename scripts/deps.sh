#!/usr/bin/env bash
# Installs the Debian 12 packages Platform needs to build and test, only those that are missing.
#
#   scripts/deps.sh            build and test dependencies
#   scripts/deps.sh --bench    the same plus the benchmark peers (wrk, nginx)
#   source scripts/deps.sh [--bench]    same, from a shell or script (pass the arguments explicitly)
#
# Runs `apt-get update` once, and only when something is missing; uses sudo only when not root.
# Prints one line: what it installed, or that there was nothing to do.

PLATFORM_DEPS_PACKAGES=(
    build-essential cmake ninja-build pkg-config meson ccache git curl ca-certificates openssl
    libpistache-dev nlohmann-json3-dev libboost-dev libsqlitecpp-dev libsqlite3-dev
    libyaml-cpp-dev libspdlog-dev libfmt-dev libcurl4-openssl-dev libssl-dev libsodium-dev
    libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev
    libhowardhinnant-date-dev tzdata  # date/tz for plugins/common/time, reading /usr/share/zoneinfo
    tmux  # the CLI's terminal tests (work get --wait under a real terminal)
    slowhttptest wrk  # tests/reliability: slow clients (slowloris, slow body, slow read), the soak, updates under load
    clang libclang-rt-14-dev  # sanitizer build and libFuzzer targets (scripts/sanitize, tests/fuzz/run)
    clang-format python3  # the first checks of scripts/test: scripts/check-format, scripts/check-build-files
    sqlite3  # scripts/backup and scripts/restore (online .backup of the SQLite files) and their test
    prosody lua-unbound  # the XMPP server of scripts/xmpp and the XMPP tests (tests/integration/xmpp_test.cpp)
    libstrophe-dev  # the host's XMPP component (host/src/xmpp/)
    python3-aiosmtpd  # the loopback SMTP sink of the relay test (tests/integration/smtp_sink.py)
    libxml2-dev  # SIRI-VM (plugins/transit/bods.cpp) and RSS/Atom feeds (plugins/news)
    libgumbo-dev  # HTML parsing: web/fetch's readable text (plugins/web)
    libsecp256k1-dev libcrypto++-dev  # wallet addresses: secp256k1 keys and Keccak-256 (plugins/wallet)
    zlib1g-dev  # plugins/common/zip: inflating GTFS feeds (transit)
    libgmime-3.0-dev libopendkim-dev  # the mail plugin's MIME parsing and DKIM checks (plugins/mail/)
    swaks libnet-ssleay-perl python3-dkim  # the inbound SMTP test: its client (STARTTLS too) and DKIM signer (tests/integration/smtp_test.cpp)
    dovecot-imapd  # tests/integration/external_mail_test.cpp runs its own instance (not the system one)
    postgresql libpqxx-dev  # plugins/store-postgres (libpqxx 6) and its tests' throwaway server (scripts/postgres.sh)
    libnats-dev  # cnats: the broker-nats and events-nats providers (plugins/broker-nats, plugins/events-nats)
    nats-server  # scripts/nats.sh: the loopback server (JetStream) their tests start
    yamllint  # tests/scripts/kubernetes_deploy_test.sh lints profiles/kubernetes (manifests, Helm values)
    rustc cargo golang-go  # tests/sdk: the Rust and Go plugin examples (plugin-sdk/examples/hello-rust, hello-go), built offline
)
PLATFORM_DEPS_BENCH_PACKAGES=(wrk nginx-light python3 valgrind)

platform_deps() {
    local bench=0 arg
    for arg in "$@"; do
        case $arg in
            --bench) bench=1 ;;
            -h | --help)
                sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
                return 0
                ;;
            *)
                echo "deps.sh: unknown argument '$arg' (only --bench)" >&2
                return 2
                ;;
        esac
    done

    local wanted=("${PLATFORM_DEPS_PACKAGES[@]}")
    ((bench)) && wanted+=("${PLATFORM_DEPS_BENCH_PACKAGES[@]}")

    local missing=() pkg
    for pkg in "${wanted[@]}"; do
        if [[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) != "install ok installed" ]]; then
            missing+=("$pkg")
        fi
    done
    # The end-to-end clients (tests/e2e) run on Node.js; any node >= 18 will do, Debian's included.
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        missing+=(nodejs npm)
    fi
    if ((${#missing[@]} == 0)); then
        echo "deps: nothing to do (${#wanted[@]} packages present)"
        return 0
    fi

    local sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "deps: missing ${missing[*]}; not root and no sudo — install them and rerun" >&2
            return 1
        fi
        sudo=(sudo)
    fi

    # apt's chatter goes to a log, shown only when it fails.
    local log
    log=$(mktemp "${TMPDIR:-/tmp}/platform-deps.XXXXXX")
    if "${sudo[@]}" apt-get update >"$log" 2>&1 &&
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y --no-install-recommends "${missing[@]}" >>"$log" 2>&1 </dev/null; then
        rm -f "$log"
        echo "deps: installed ${missing[*]}"
        return 0
    fi
    cat "$log" >&2
    rm -f "$log"
    echo "deps: apt-get failed installing ${missing[*]}" >&2
    return 1
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    set -euo pipefail
    platform_deps "$@"
else
    platform_deps "$@"
fi
