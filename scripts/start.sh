#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the console when dist/ is missing or older than src/, then runs the
# whole platform (console files, identity server, API, demo data) in one process.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
# The platform runs ClickHouse servers: the shared qryn storage and managed clusters.
bash scripts/install-clickhouse.sh
# The HEP endpoint's UDP receive buffer is capped at net.core.rmem_max: raised where this runs as root (docs/hepic.md).
bash scripts/install-udp-buffers.sh

needs_build=false
if [ ! -f dist/index.html ]; then
  needs_build=true
elif [ -d src ] && [ -n "$(find src contract public index.html vite.config.ts panda.config.ts .env -newer dist/index.html -print -quit 2>/dev/null)" ]; then
  needs_build=true
fi
if [ "$needs_build" = true ]; then
  if node -e 'process.exit(require("./package.json").scripts?.build ? 0 : 1)' && [ -f vite.config.ts ]; then
    echo "Building the console (npm run build)..."
    npm run build
  else
    echo "The console build is not set up yet (no build script or vite.config.ts): serving without it."
  fi
fi

exec npx tsx server/main.ts
