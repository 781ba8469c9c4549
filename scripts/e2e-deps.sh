#!/usr/bin/env bash
# Installs the end-to-end test clients from npm into tests/e2e/node_modules (only when missing or
# outdated). Needs node and npm (Debian's nodejs/npm are installed by deps.sh when absent).
set -euo pipefail
cd "$(dirname "$0")/../tests/e2e"
if [ ! -d node_modules ] || [ package.json -nt node_modules ] || { [ -f package-lock.json ] && [ package-lock.json -nt node_modules ]; }; then
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi
  touch node_modules
  echo "e2e-deps: installed $(ls node_modules | wc -l) npm packages into tests/e2e/node_modules"
fi
