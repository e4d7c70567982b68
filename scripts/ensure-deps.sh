#!/usr/bin/env bash
# Installs the npm packages when they are missing or older than the lock file, so that `npm start` and `npm test`
# work on a fresh clone with nothing installed.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "Installing npm packages (npm ci)..."
  npm ci --no-audit --no-fund
fi
