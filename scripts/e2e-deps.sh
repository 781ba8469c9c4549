#!/usr/bin/env bash
# Installs what the end-to-end tests run against, only when missing or outdated:
#   - Debian's `chromium` (/usr/bin/chromium), the browser the apps sandbox test drives headless
#     (tests/e2e/apps_sandbox.mjs) and the `browser` service runs (plugins/browser, tested by
#     tests/integration/browser_test.cpp), with apt as scripts/deps.sh installs packages;
#   - the npm clients of tests/e2e (package.json, package-lock.json) into tests/e2e/node_modules
#     (kubernetes-models and yaml check profiles/kubernetes: tests/e2e/kubernetes_check.mjs).
#     playwright-core is one of them: it drives the browser above and downloads none of its own.
# Needs node and npm (Debian's nodejs/npm are installed by deps.sh when absent).
set -euo pipefail
cd "$(dirname "$0")/../tests/e2e"

if [ ! -x /usr/bin/chromium ]; then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "e2e-deps: /usr/bin/chromium is missing; not root and no sudo — install Debian's chromium and rerun" >&2
      exit 1
    fi
    sudo=(sudo)
  fi
  # apt's chatter goes to a log, shown only when it fails.
  log=$(mktemp "${TMPDIR:-/tmp}/platform-e2e-deps.XXXXXX")
  t0=$SECONDS
  if "${sudo[@]}" apt-get update >"$log" 2>&1 &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y --no-install-recommends chromium >>"$log" 2>&1 </dev/null; then
    rm -f "$log"
    echo "e2e-deps: installed Debian's chromium ($(/usr/bin/chromium --version 2>/dev/null || echo '?')) in $((SECONDS - t0)) s"
  else
    cat "$log" >&2
    rm -f "$log"
    echo "e2e-deps: apt-get failed installing chromium" >&2
    exit 1
  fi
fi

# playwright-core downloads no browser; the variable makes sure nothing else in the tree does.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -d node_modules ] || [ package.json -nt node_modules ] || { [ -f package-lock.json ] && [ package-lock.json -nt node_modules ]; }; then
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi
  touch node_modules
  echo "e2e-deps: installed $(ls node_modules | wc -l) npm packages into tests/e2e/node_modules"
fi
