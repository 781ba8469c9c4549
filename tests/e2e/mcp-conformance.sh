#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios)
# against a running host, with the Node 22 of tests/e2e/node_modules (scripts/e2e-deps.sh).
#
#   tests/e2e/mcp-conformance.sh http://127.0.0.1:8080/mcp [more `conformance server` options]
#
# The suite's client sends no credentials: run the host with the `test` profile (the public
# conformance fixture, v1.test). Prints the suite's output without colours and, last,
# `conformance: N passed, N failed`; exits with the suite's code (0 = no failed check).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
url=${1:?usage: mcp-conformance.sh URL [conformance server options...]}
shift
export PATH="$here/node_modules/.bin:$PATH" NO_COLOR=1 FORCE_COLOR=0
out=$(conformance server --url "$url" "$@" 2>&1)
rc=$?
out=$(printf '%s\n' "$out" | sed 's/\x1b\[[0-9;]*m//g')
printf '%s\n' "$out"
total=$(printf '%s\n' "$out" | grep -Eo 'Total: [0-9]+ passed, [0-9]+ failed' | tail -n 1)
echo "conformance: ${total#Total: }"
exit "$rc"
