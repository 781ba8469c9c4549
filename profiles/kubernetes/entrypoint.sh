#!/bin/sh
# The host image's entrypoint (installed as /opt/platform/bin/platform-entrypoint, run by tini):
# `platform "$@"`, after refusing a `server` start whose replicas could not share their secrets.
# Every replica must unseal the same config secrets and token signing key, so PLATFORM_CONFIG_SECRET_KEY
# must be set, and to a real key: 64 hex digits (openssl rand -hex 32). The host itself would take
# any non-empty text (hashing it), so a placeholder left in the Secret would silently become a key
# everyone knows; and unset, each replica would make its own key in its own PLATFORM_HOME.
# Exit 78 (EX_CONFIG) when refused. Other commands (platform admin reset-secret, ...) pass through.
set -eu

if [ "${1:-}" = server ]; then
    key=${PLATFORM_CONFIG_SECRET_KEY:-}
    if [ -z "$key" ]; then
        echo "platform-entrypoint: PLATFORM_CONFIG_SECRET_KEY is not set; every replica needs the same" \
            "key (64 hex digits: openssl rand -hex 32) in the Secret's config-secret-key" >&2
        exit 78
    fi
    case $key in
        *[!0-9a-fA-F]*)
            echo "platform-entrypoint: PLATFORM_CONFIG_SECRET_KEY is not 64 hex digits (a placeholder?);" \
                "set the Secret's config-secret-key to the output of: openssl rand -hex 32" >&2
            exit 78
            ;;
    esac
    if [ "${#key}" -ne 64 ]; then
        echo "platform-entrypoint: PLATFORM_CONFIG_SECRET_KEY has ${#key} hex digits, not 64;" \
            "set the Secret's config-secret-key to the output of: openssl rand -hex 32" >&2
        exit 78
    fi
fi
exec platform "$@"
